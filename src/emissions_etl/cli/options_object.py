"""A command whose options are one typed object: the fields of a frozen dataclass (each
annotated with its ``typer.Option`` or ``typer.Argument``, in the order ``--help`` lists them)
become the command's parameters, and the command is called with the object they make.

typer reads a command's parameters from its signature: ``options_command`` gives the function
it registers the dataclass's fields as that signature, so ``--help``, the environment variables
and the generated reference are those the fields declare, and the command's body receives one
value of a real type instead of thirty loose parameters.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, get_type_hints

Options = TypeVar("Options")


def options_command(
    options: type[Options],
) -> Callable[[Callable[[Options], None]], Callable[..., None]]:
    """Decorate ``command(options: OPTIONS)`` into the function typer registers."""
    hints = get_type_hints(options, include_extras=True)
    parameters = [
        inspect.Parameter(
            field.name,
            inspect.Parameter.KEYWORD_ONLY,
            # A field without a default (typer's Context) is a parameter without one.
            default=inspect.Parameter.empty if field.default is dataclasses.MISSING
            else field.default,
            annotation=hints[field.name],
        )
        for field in dataclasses.fields(options)  # type: ignore[arg-type]
    ]  # fmt: skip

    def decorate(command: Callable[[Options], None]) -> Callable[..., None]:
        @functools.wraps(command)
        def run(**given: Any) -> None:
            command(options(**given))

        del run.__wrapped__  # typer reads the signature below, not the command's
        run.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
        run.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
        return run

    return decorate
