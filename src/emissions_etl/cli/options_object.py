"""A command whose options are one typed object: the fields of a frozen dataclass (each
annotated with its ``typer.Option`` or ``typer.Argument``, in the order ``--help`` lists them)
become the command's parameters, and the command is called with the object they make.

typer reads a command's parameters from its signature: ``options_command`` gives the function
it registers the dataclass's fields as that signature, so ``--help``, the environment variables
and the generated reference are those the fields declare, and the command's body receives one
value of a real type instead of thirty loose parameters.

A field annotated with a frozen dataclass of options of its own (a group, such as
``warehouse_options.WarehouseOptions``) stands for the group's fields: they are spliced into the
signature where the field is, in their order, and the command receives the group made of them.
The group's fields' defaults are the options' defaults; its names must not repeat another
parameter's.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeGuard, TypeVar, get_type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Options = TypeVar("Options", bound="DataclassInstance")


def options_command(
    options: type[Options],
) -> Callable[[Callable[[Options], None]], Callable[..., None]]:
    """Decorate ``command(options: OPTIONS)`` into the function typer registers."""
    parameters = _parameters(options)
    names = [parameter.name for parameter in parameters]
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise TypeError(f"{options.__name__}: parameters named twice: {', '.join(repeated)}")

    def decorate(command: Callable[[Options], None]) -> Callable[..., None]:
        @functools.wraps(command)
        def run(**given: object) -> None:
            command(_built(options, given))

        del run.__wrapped__  # typer reads the signature below, not the command's
        run.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
        run.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
        return run

    return decorate


def _is_group(hint: object) -> TypeGuard[type[DataclassInstance]]:
    """Whether a field's type is a group of options (a dataclass), not one option."""
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def _parameters(options: type[DataclassInstance]) -> list[inspect.Parameter]:
    """The command's parameters: a field each, a group's fields where the group is."""
    hints = get_type_hints(options, include_extras=True)
    parameters: list[inspect.Parameter] = []
    for field in dataclasses.fields(options):
        hint = hints[field.name]
        if _is_group(hint):
            parameters += _parameters(hint)
            continue
        # A field without a default (typer's Context) is a parameter without one.
        default = inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        parameters.append(
            inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                              annotation=hint)
        )  # fmt: skip
    return parameters


def _built(options: type[Options], given: Mapping[str, object]) -> Options:
    """The object of ``options`` made of the parameters typer ``given`` (a group of its own)."""
    hints = get_type_hints(options, include_extras=True)
    values = {
        field.name: _built(hint, given) if _is_group(hint := hints[field.name])
        else given[field.name]
        for field in dataclasses.fields(options)
    }  # fmt: skip
    return options(**values)
