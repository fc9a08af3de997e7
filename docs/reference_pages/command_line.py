"""A command line as the reference reads it: its commands and their parameters, walked through
typer's own objects (``typer.main.get_command``), as ``--help`` shows them."""

from __future__ import annotations

import enum
import inspect
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import typer


class Undeclared(Exception):
    """Something the code declares cannot go into the reference as it is (a name without its
    description, a command without its exit codes): the message says what to add, where."""


@dataclass(frozen=True)
class CommandLine:
    """A program's commands (``group``), what each one's exit codes mean, and its page."""

    prog: str
    group: Any  # typer's TyperGroup (its own click's Group)
    exits: Mapping[str, Mapping[int, str]]
    page: str

    @classmethod
    def of(cls, app: typer.Typer, prog: str, exits: Mapping[str, Mapping[int, str]],
           page: str) -> CommandLine:  # fmt: skip
        return cls(prog, typer.main.get_command(app), exits, page)

    def commands(self) -> Iterator[Command]:
        """Every command that ``--help`` lists, in its order."""
        root = self._root()
        for name in self.group.list_commands(root):
            command = self.group.get_command(root, name)
            if command is None or command.hidden:
                continue
            context = command.context_class(command, info_name=name, parent=root)
            yield Command(self, name, command, context)

    def options(self) -> tuple[Parameter, ...]:
        """The program's own options (``--version``), before any command."""
        root = self._root()
        return tuple(Parameter(param, root) for param in self.group.params if not param.hidden)

    def _root(self) -> Any:
        """The program's context, as ``--help`` makes it (the click typer runs on)."""
        return self.group.context_class(self.group, info_name=self.prog)


@dataclass(frozen=True)
class Command:
    """One command of a command line."""

    line: CommandLine
    name: str
    command: Any
    context: Any

    @property
    def help(self) -> str:
        return inspect.cleandoc(self.command.help or "")

    @property
    def usage(self) -> str:
        pieces = self.command.collect_usage_pieces(self.context)
        return " ".join([self.line.prog, self.name, *pieces])

    def parameters(self) -> tuple[Parameter, ...]:
        """Its arguments and options, in ``--help``'s order; Undeclared for one without
        help."""
        found = tuple(
            Parameter(param, self.context) for param in self.command.params if not param.hidden
        )
        for parameter in found:
            if not parameter.help:
                raise Undeclared(
                    f"{self.line.prog} {self.name} {parameter.names}: no help; give it help="
                )
        return found

    def exits(self) -> Mapping[int, str]:
        """What each of its exit codes means; Undeclared when none are declared."""
        declared = self.line.exits.get(self.name)
        if not declared:
            raise Undeclared(
                f"{self.line.prog} {self.name}: no exit codes declared; add them to its "
                "COMMAND_EXITS"
            )
        return declared


@dataclass(frozen=True)
class Parameter:
    """An argument or option of a command."""

    param: Any
    context: Any

    @property
    def is_argument(self) -> bool:
        return getattr(self.param, "param_type_name", "") == "argument"

    @property
    def names(self) -> str:
        """``--strict / --no-strict``; an argument's name as usage shows it (``FILES...``)."""
        if self.is_argument:
            name = str(self.param.metavar or self.param.name).upper()
            return name + ("..." if self.param.nargs == -1 else "")
        return " / ".join(
            ", ".join(opts) for opts in (self.param.opts, self.param.secondary_opts) if opts
        )

    @property
    def help(self) -> str:
        return inspect.cleandoc(self.param.help or "")

    @property
    def envvar(self) -> str | None:
        envvar = self.param.envvar
        if isinstance(envvar, Sequence) and not isinstance(envvar, str):
            envvar = envvar[0] if envvar else None
        return str(envvar) if envvar else None

    @property
    def variable(self) -> str | None:
        """The variable it reads when not given: its ``envvar``, else the one its help says it
        defaults to (``default: $EMISSIONS_API_URL``: read through the settings)."""
        if self.envvar:
            return self.envvar
        named = re.search(r"\$(EMISSIONS_[A-Z_]+)", self.help)
        return named.group(1) if named else None

    @property
    def kind(self) -> str:
        """What it takes: ``text``, ``integer, at least 1``, ``machine | prefect``, ``flag``..."""
        shown = str(self.param.display_type(self.context)).strip("<>")
        descriptor = self.param.type_descriptor
        if descriptor.is_choice:
            kind = " | ".join(str(_plain(choice)) for choice in descriptor.choices or ())
        elif shown == "bool" and not self.is_argument:
            kind = "flag"
        else:
            kind = _KINDS.get(shown.removeprefix("list[").removesuffix("]"), shown)
        if shown.endswith(" range"):
            bounds = [f"at least {self.param.min}"] if self.param.min is not None else []
            bounds += [f"at most {self.param.max}"] if self.param.max is not None else []
            kind = ", ".join([kind, *bounds])
        if self.param.multiple:
            kind += ", repeatable"
        elif self.param.nargs == -1:
            kind += ", one or more"
        return kind + (", required" if self.param.required else "")

    @property
    def default(self) -> str | None:
        """The value it has when not given (None: none, or one it does not show)."""
        value = self.param.default
        if self.param.required or not self.param.show_default or value is None:
            return None
        if isinstance(value, bool):  # a flag: the spelling that gives it (none: not given)
            flags = self.param.opts if value else self.param.secondary_opts
            return flags[0] if flags else None
        return str(_plain(value))


_KINDS = {"str": "text", "int": "integer", "float": "number", "path": "path",
          "int range": "integer", "float range": "number", "bool": "yes or no"}  # fmt: skip


def _plain(value: object) -> object:
    """An enum member as its value, a path as text."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, PurePath):
        return str(value)
    return value
