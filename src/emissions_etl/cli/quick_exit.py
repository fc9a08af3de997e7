"""How the commands that start fast (report, inventory: no rich, no pipeline at import) end on
an error: one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

from typing import NoReturn

import typer

# The codes are declared once (exit_codes); named here too for the commands that import them here.
from emissions_etl.cli.exit_codes import EXIT_FAILED as EXIT_FAILED
from emissions_etl.cli.exit_codes import EXIT_UNUSABLE as EXIT_UNUSABLE


def fail_now(message: str, code: int) -> NoReturn:
    """One line on stderr, then exit with ``code``."""
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code)


def one_line(error: BaseException) -> str:
    """The error's first line (its type's name when it says nothing)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
