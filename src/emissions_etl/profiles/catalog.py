"""The declared profiles: every ``<name>.toml`` of this package, read once with ``tomllib``.

A declaration is data, checked here when read (unknown keys, a column fed two ways, a table
that does not exist), so a typo in a profile fails the first command that reads it, not a
load at night. Whether its resource exists is asked later: profiles may be declared before
their resource lands.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from emissions_etl.profiles.inputs import ProfileInputs

#: Policies for a value a table does not hold: reject the row, keep the value as written, or
#: leave the cell empty.
UNKNOWN_POLICIES = ("reject", "keep", "empty")
_SOURCE_KEYS = {"headers", "required", "meaning", "example"}
_RULE_KEYS = {
    "from", "separator", "value", "map", "take", "unknown", "extend", "default",
    "default_input", "when", "if_empty", "label",
}  # fmt: skip
_TOP_KEYS = {"name", "resource", "description", "system", "source", "columns", "layout"}


@dataclass(frozen=True)
class SourceColumn:
    """A column of the export: its key, the headers systems write for it, and what it holds."""

    key: str
    headers: tuple[str, ...]
    required: bool = False
    meaning: str = ""
    example: str = ""

    @property
    def spelled(self) -> str:
        """``Warengruppe (or Material Group, MATKL)``: how messages name the column."""
        first, *others = self.headers or (self.key,)
        return f"{first} (or {', '.join(others)})" if others else first


@dataclass(frozen=True)
class ColumnRule:
    """How one resource column is fed: joined source columns, a constant, or a table lookup,
    then defaults and conditions."""

    column: str
    sources: tuple[str, ...] = ()
    separator: str = "-"
    value: str | None = None
    #: Table (``tables/<map>.csv``) the source value is looked up in, and which of its columns
    #: gives the result (``take``; default its first column after ``source``).
    map: str | None = None
    take: str | None = None
    unknown: str = "reject"
    #: A user input (a file, see ``ProfileInputs``) whose rows extend the table.
    extend: str | None = None
    default: str | None = None
    #: A user input (``default_country``) used where the result is empty.
    default_input: str | None = None
    #: Set only where earlier resource columns hold one of these values.
    when: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    #: Set only where this earlier resource column is empty (a distance wins over places).
    if_empty: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class Profile:
    """One export layout declared onto one resource."""

    name: str
    resource: str
    description: str
    system: str
    sources: tuple[SourceColumn, ...]
    rules: tuple[ColumnRule, ...]

    @property
    def source_keys(self) -> tuple[str, ...]:
        return tuple(source.key for source in self.sources)

    @property
    def aliases(self) -> Mapping[str, str]:
        """Every header spelling -> source key, as ``read_source`` takes them."""
        return {header: s.key for s in self.sources for header in s.headers}

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(source.key for source in self.sources if source.required)

    def source(self, key: str) -> SourceColumn:
        return next(source for source in self.sources if source.key == key)

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(rule.map for rule in self.rules if rule.map)


def _declaration_names() -> list[str]:
    folder = resources.files(__package__)
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


@cache
def all_profiles() -> Mapping[str, Profile]:
    """Every declared profile by name (whether or not its resource exists yet).

    A declaration may take its ``[source]`` layout from another (``layout = "fuel_card"``):
    one export feeding two resources is described once.
    """
    folder = resources.files(__package__)
    data: dict[str, Mapping[str, object]] = {
        name: tomllib.loads((folder / f"{name}.toml").read_text(encoding="utf-8"))
        for name in _declaration_names()
    }
    found = {}
    for name, declaration in data.items():
        layout = declaration.get("layout")
        if layout is not None:
            if (
                not isinstance(layout, str)
                or layout not in data
                or "source" not in data[layout]
                or "source" in declaration
            ):
                raise ValueError(f"{name}.toml: layout {layout!r} names no profile's [source]")
            declaration = {
                **{key: value for key, value in declaration.items() if key != "layout"},
                "source": data[layout]["source"],
            }
        profile = parse_profile(declaration, where=f"{name}.toml")
        found[profile.name] = profile
    return MappingProxyType(found)


def profile_named(name: str) -> Profile:
    """The profile ``name``; ValueError lists the known ones."""
    try:
        return all_profiles()[name]
    except KeyError:
        known = ", ".join(all_profiles())
        raise ValueError(f"unknown profile {name!r}; known: {known}") from None


def parse_profile(data: Mapping[str, object], *, where: str) -> Profile:
    """A profile from its TOML table; ValueError naming ``where`` and the mistake."""
    _no_unknown(data, _TOP_KEYS, where)
    for key in ("name", "resource", "description", "source", "columns"):
        if key not in data:
            raise ValueError(f"{where}: {key!r} is missing")
    declared = _table(data["source"], f"{where} [source]")
    sources = tuple(_source(key, spec, where) for key, spec in declared.items())
    keys = {source.key for source in sources}
    rules: list[ColumnRule] = []
    for column, spec in _table(data["columns"], f"{where} [columns]").items():
        rule = _rule(column, spec, f"{where} [columns.{column}]")
        missing = [key for key in rule.sources if key not in keys]
        if missing:
            raise ValueError(f"{where}: column {column} reads unknown source {missing[0]!r}")
        earlier = {r.column for r in rules}
        later = [c for c in (*rule.when, rule.if_empty) if c and c not in earlier]
        if later:
            raise ValueError(f"{where}: column {column} depends on {later[0]!r}, declared later")
        rules.append(rule)
    return Profile(
        name=str(data["name"]),
        resource=str(data["resource"]),
        description=str(data["description"]),
        system=str(data.get("system", "")),
        sources=sources,
        rules=tuple(rules),
    )


def _source(key: str, declared: object, where: str) -> SourceColumn:
    where = f"{where} [source.{key}]"
    spec = _table(declared, where)
    _no_unknown(spec, _SOURCE_KEYS, where)
    return SourceColumn(
        key=key,
        headers=_texts(spec.get("headers", ()), f"{where} headers"),
        required=bool(spec.get("required", False)),
        meaning=str(spec.get("meaning", "")),
        example=str(spec.get("example", "")),
    )


def _rule(column: str, declared: object, where: str) -> ColumnRule:
    spec = _table(declared, where)
    _no_unknown(spec, _RULE_KEYS, where)
    given = spec.get("from", ())
    sources = (given,) if isinstance(given, str) else _texts(given, f"{where} from")
    if bool(sources) == ("value" in spec):
        raise ValueError(f"{where}: give either 'from' or 'value'")
    if spec.get("map") and len(sources) != 1:
        raise ValueError(f"{where}: 'map' looks up exactly one source column")
    unknown = str(spec.get("unknown", "reject"))
    if unknown not in UNKNOWN_POLICIES:
        raise ValueError(f"{where}: unknown must be one of {', '.join(UNKNOWN_POLICIES)}")
    for key in ("extend", "default_input"):
        if key in spec and spec[key] not in ProfileInputs.names():
            raise ValueError(f"{where}: {key} names no user input ({spec[key]!r})")
    when = {
        str(k): _texts(values, f"{where} when.{k}")
        for k, values in _table(spec.get("when", {}), f"{where} when").items()
    }
    return ColumnRule(
        column=column,
        sources=sources,
        separator=str(spec.get("separator", "-")),
        value=None if "value" not in spec else str(spec["value"]),
        map=_text(spec, "map", where),
        take=_text(spec, "take", where),
        unknown=unknown,
        extend=_text(spec, "extend", where),
        default=_text(spec, "default", where),
        default_input=_text(spec, "default_input", where),
        when=MappingProxyType(when),
        if_empty=_text(spec, "if_empty", where),
        label=_text(spec, "label", where),
    )


def _table(value: object, where: str) -> Mapping[str, object]:
    """``value`` as the TOML table ``where`` declares; ValueError when it is not one."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected a table, got {value!r}")
    return value


def _texts(value: object, where: str) -> tuple[str, ...]:
    """The texts of the TOML array ``value`` (each item as its text)."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{where}: expected a list, got {value!r}")
    return tuple(str(item) for item in value)


def _text(spec: Mapping[str, object], key: str, where: str) -> str | None:
    """The text ``spec`` gives ``key`` (None: not given)."""
    value = spec.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{where}: {key} is a text, not {value!r}")
    return value


def _no_unknown(data: Mapping[str, object], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}")


__all__ = [
    "ColumnRule",
    "Profile",
    "SourceColumn",
    "all_profiles",
    "parse_profile",
    "profile_named",
]
