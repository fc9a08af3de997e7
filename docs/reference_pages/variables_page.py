"""The page of environment variables: every ``EMISSIONS_*`` variable, from the settings models
and the commands' options, and every one the source names must be among them."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from .command_line import CommandLine, Undeclared
from .markdown import code, link, page, table, text

#: A name the source spells (``EMISSIONS_WEBHOOK_*`` in a comment: a prefix, ending in ``_``).
NAME = re.compile(r"EMISSIONS_[A-Z_]+")
OTHERS_FILE = Path(__file__).with_name("other_variables.toml")


@dataclass
class Variable:
    """One ``EMISSIONS_*`` variable and everything that reads it."""

    name: str
    meaning: str = ""
    kind: str = ""
    default: str | None = None
    settings: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    #: Options whose help says another thing than ``meaning``: help -> the options.
    also: dict[str, list[str]] = field(default_factory=dict)
    held_by: str = ""


def variables_page(
    models: Sequence[type[BaseSettings]],
    lines: Sequence[CommandLine],
    held: Mapping[str, str],
    sources: Sequence[Path],
) -> str:
    """Every variable the models and options read (``held``: variable -> what else holds it
    for deployments, in Markdown), each spelled name of ``sources`` held to one of them
    (Undeclared otherwise), and the variables of others the project reads."""
    variables: dict[str, Variable] = {}
    for model in models:
        _from_model(model, variables)
    for name, holder in held.items():
        variables[name].held_by = holder
    for line in lines:
        _from_options(line, variables)
    _check_spelled(variables, sources)
    sections = [_section(variables[name]) for name in sorted(variables)]
    summary = table(
        ["Variable", "Default", "What it is"],
        [[link(code(v.name), "", v.name), code(v.default) if v.default else "",
          text(_first_sentence(v.meaning))] for _, v in sorted(variables.items())],
    )  # fmt: skip
    return page(
        "Environment variables",
        "Every setting is an `EMISSIONS_*` variable, and every option of a command that has "
        "one says so (an option given wins over its variable). Prefect deployments read them "
        "from the worker's environment when a run starts, and some from the Prefect server "
        "(the variables and blocks `emissions-etl prefect-setup` writes): the worker's "
        "environment wins. Generated from the settings models and the commands' options.",
        [summary, *sections, _others(sources)],
    )


def _from_model(model: type[BaseSettings], variables: dict[str, Variable]) -> None:
    prefix = str(model.model_config.get("env_prefix", ""))
    where = f"{model.__name__}.{{}} (`{model.__module__}`)"
    for name, info in model.model_fields.items():
        alias = info.validation_alias
        envvar = alias if isinstance(alias, str) else f"{prefix}{name}".upper()
        variable = variables.setdefault(envvar, Variable(envvar))
        variable.settings.append(where.format(name))
        if variable.meaning:
            continue  # a second model reading it (WebhookSettings.warehouse): named above
        if not info.description:
            raise Undeclared(f"{model.__name__}.{name} ({envvar}): no description; give it one")
        variable.meaning = _sentence(info.description)
        variable.kind = _kind(info)
        variable.default = _default(info)


def _from_options(line: CommandLine, variables: dict[str, Variable]) -> None:
    for command in line.commands():
        for parameter in command.parameters():
            named = parameter.variable
            if named is None:
                continue
            variable = variables.setdefault(named, Variable(named))
            shown = link(code(f"{command.name} {parameter.names}"), line.page, command.name)
            variable.options.append(shown)
            meaning = _sentence(parameter.help)
            if not variable.meaning:
                variable.meaning = meaning
                variable.kind = "yes or no" if parameter.kind == "flag" else parameter.kind
                variable.default = parameter.default
            elif not variable.settings and meaning != variable.meaning:
                variable.also.setdefault(meaning, []).append(shown)


def _check_spelled(variables: Mapping[str, Variable], sources: Sequence[Path]) -> None:
    """Undeclared naming each ``EMISSIONS_*`` name the sources spell that no setting or option
    reads (a name ending in ``_`` is a prefix: some variable must start with it)."""
    unknown: dict[str, str] = {}
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for name in NAME.findall(line):
                known = (
                    any(v.startswith(name) for v in variables) if name.endswith("_")
                    else name in variables
                )  # fmt: skip
                if not known:
                    unknown.setdefault(name, f"{path}:{number}")
    if unknown:
        listed = ", ".join(f"{name} ({where})" for name, where in sorted(unknown.items()))
        raise Undeclared(
            f"read but described nowhere: {listed}; read it through a settings model with a "
            "description (and name the model in docs/reference_pages/pages.py), or an option "
            "with help and envvar="
        )


def _section(variable: Variable) -> str:
    facts = []
    if variable.kind:
        facts.append(f"- **Takes**: {text(variable.kind)}")
    facts.append(f"- **Default**: {code(variable.default) if variable.default else 'none'}")
    if variable.settings:
        facts.append("- **Setting**: " + "; ".join(_setting(s) for s in variable.settings))
    if variable.options:
        facts.append("- **Options**: " + ", ".join(variable.options))
    if variable.settings:
        held = f"; else {variable.held_by}" if variable.held_by else ""
        facts.append(f"- **In deployments**: the worker's environment{held}")
    meanings = [text(variable.meaning)] + [
        f"With {', '.join(options)}: {text(meaning)}" for meaning, options in variable.also.items()
    ]
    return "\n\n".join([f"## {variable.name}", *meanings, "\n".join(facts)])


def _setting(where: str) -> str:
    name, module = where.split(" ", 1)
    return f"{code(name)} {module}"


def _others(sources: Sequence[Path]) -> str:
    """The variables of others, from ``other_variables.toml``; each must still be named in
    ``sources`` (a prefix ending in ``_``: a name starting with it)."""
    declared = tomllib.loads(OTHERS_FILE.read_text(encoding="utf-8"))
    spelled = "\n".join(path.read_text(encoding="utf-8") for path in sources)
    stale = [name for name in declared if name not in spelled]
    if stale:
        raise Undeclared(f"{OTHERS_FILE.name}: no longer read anywhere: {', '.join(stale)}")
    rows = [
        [code(name + ("*" if name.endswith("_") else "")), text(entry["read_by"]),
         text(entry["meaning"])]
        for name, entry in declared.items()
    ]  # fmt: skip
    return "## Variables of other tools\n\n" + (
        "Read by the libraries emissions-etl runs on, as they document them; listed for "
        "what they do here.\n\n" + table(["Variable", "Read by", "What for"], rows)
    )


def _kind(info: FieldInfo) -> str:
    annotation: Any = info.annotation
    options = [arg for arg in get_args(annotation) if arg is not type(None)]
    if options and get_origin(annotation) is not Literal:
        annotation = options[0]
    if get_origin(annotation) is Literal:
        kind = " | ".join(str(choice) for choice in get_args(annotation))
    else:
        kind = _KINDS.get(getattr(annotation, "__name__", str(annotation)), "text")
    bounds = [f"at least {m.ge}" for m in info.metadata if getattr(m, "ge", None) is not None]
    bounds += [f"more than {m.gt}" for m in info.metadata if getattr(m, "gt", None) is not None]
    return ", ".join([kind, *bounds])


_KINDS = {"str": "text", "int": "integer", "float": "number", "Path": "path",
          "SecretStr": "text (a secret: never shown)", "bool": "yes or no"}  # fmt: skip


def _default(info: FieldInfo) -> str | None:
    value = info.default
    if value is None or info.default_factory is not None:
        return None
    return str(value)


def _sentence(value: str) -> str:
    joined = " ".join(value.split())
    return joined if joined.endswith(".") else joined + "."


def _first_sentence(value: str) -> str:
    head, dot, _ = value.partition(". ")
    return head + ("." if dot else "")
