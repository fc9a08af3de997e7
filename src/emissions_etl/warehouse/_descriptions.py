"""What every table, view and macro of the warehouse holds and what each column means, from one
declaration (``descriptions.toml``), written into DuckDB as ``COMMENT ON`` so that
``duckdb_tables()``, ``duckdb_views()``, ``duckdb_columns()``, ``duckdb_functions()`` and any SQL
client show it. The docs' reference page is generated from the comments of a new warehouse.

Comments are written with the statements that make what they describe, and compared by digest
with them (``_schema.replace_view``): never at an open that changes nothing. A view replaced
loses its comments, so a view's comments belong to its statement. DuckLake keeps the comments
of tables, their columns and views in its catalog; it refuses those of a view's columns
(duckdb/ducklake#1239) and of macros, which a lake goes without.

A column nobody described, or a description of a column that is not there, never stops a
writer: the first is left without a comment, the second is skipped (the docs' test fails on
both).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.resources import files
from types import MappingProxyType
from typing import Literal

import duckdb

Kind = Literal["table", "view", "macro"]
#: The section of ``descriptions.toml`` each kind is declared in.
SECTIONS: Mapping[str, Kind] = MappingProxyType(
    {"tables": "table", "views": "view", "macros": "macro"}
)
_COMMENT_ON = {"table": "TABLE", "view": "VIEW", "macro": "MACRO TABLE"}  # table macros, all
_CREATES = re.compile(r"CREATE\s+OR\s+REPLACE\s+(?:VIEW|MACRO)\s+(\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class Described:
    """A table, view or macro with what it holds and what its columns mean."""

    name: str
    kind: Kind
    description: str
    columns: Mapping[str, str]

    @cached_property
    def fingerprint(self) -> str:
        """Text that changes whenever a comment written for it would."""
        return json.dumps([self.name, self.kind, self.description, dict(self.columns)])


@cache
def _declaration() -> Mapping[str, object]:
    text = files(__package__).joinpath("descriptions.toml").read_text(encoding="utf-8")
    return MappingProxyType(tomllib.loads(text))


@cache
def declared() -> tuple[Described, ...]:
    """Every table, view and macro ``descriptions.toml`` declares, in its order."""
    return tuple(described(name) for name in _declared_kinds())


@cache
def described(name: str) -> Described:
    """The declaration of ``name``, each column of the objects it is ``like`` included."""
    kind = _declared_kinds()[name]
    entry = _entry(name)
    return Described(name, kind, str(entry["description"]), MappingProxyType(_columns(entry)))


def made_by(statement: str) -> tuple[Described, ...]:
    """The declared views and macros ``statement`` creates (``CREATE OR REPLACE ...``)."""
    kinds = _declared_kinds()
    return tuple(described(name) for name in _CREATES.findall(statement) if name in kinds)


def own_columns(name: str) -> tuple[str, ...]:
    """The columns ``descriptions.toml`` names under ``name`` itself (not through ``like``)."""
    own = _entry(name).get("columns", {})
    assert isinstance(own, Mapping)
    return tuple(str(column) for column in own)


def resource_view(resource: str, about: str, fields: Sequence[tuple[str, str]]) -> Described:
    """The view named after ``resource`` (``about``: what its records are), whose own
    ``fields`` (name, meaning) follow the columns of ``emissions`` without ``resource``."""
    entry = _section("resource_views")
    inherited = {name: meaning for name, meaning in _columns(entry).items() if name != "resource"}
    text = str(entry["description"]).format(resource=resource, about=about).strip()
    return Described(resource, "view", text, {**inherited, **dict(fields)})


def fingerprint(objects: Iterable[Described]) -> str:
    """Text that changes whenever a comment written for ``objects`` would."""
    return "\n".join(item.fingerprint for item in objects)


def write_comments(con: duckdb.DuckDBPyConnection, objects: Sequence[Described]) -> None:
    """``COMMENT ON`` each of ``objects`` and each of its columns that exists, on the database
    in use; on a DuckLake, only what DuckLake takes (tables, their columns, views)."""
    if not objects:
        return
    lake = _is_lake(con)
    present = _columns_present(con, [item.name for item in objects])
    statements = []
    for item in objects:
        if lake and item.kind == "macro":
            continue
        statements.append(f"COMMENT ON {_COMMENT_ON[item.kind]} {_name(item.name)} IS "
                          f"{_literal(item.description)}")  # fmt: skip
        if item.kind == "macro" or (lake and item.kind == "view"):
            continue
        statements += [
            f"COMMENT ON COLUMN {_name(item.name)}.{_name(column)} IS {_literal(meaning)}"
            for column, meaning in item.columns.items()
            if (item.name, column) in present
        ]
    if statements:
        con.execute(";\n".join(statements))


def _declared_kinds() -> dict[str, Kind]:
    declaration = _declaration()
    kinds: dict[str, Kind] = {}
    for section, kind in SECTIONS.items():
        entries = declaration.get(section, {})
        assert isinstance(entries, Mapping)
        kinds.update(dict.fromkeys(entries, kind))
    return kinds


def _section(name: str) -> Mapping[str, object]:
    entry = _declaration()[name]
    assert isinstance(entry, Mapping)
    return entry


def _entry(name: str) -> Mapping[str, object]:
    for section in SECTIONS:
        entries = _declaration().get(section, {})
        assert isinstance(entries, Mapping)
        if name in entries:
            entry = entries[name]
            assert isinstance(entry, Mapping)
            return entry
    raise KeyError(f"descriptions.toml declares no {name}")


def _columns(entry: Mapping[str, object]) -> dict[str, str]:
    """The entry's columns, after those of the objects it is ``like`` (its own win)."""
    own = entry.get("columns", {})
    assert isinstance(own, Mapping)
    columns: dict[str, str] = {}
    likes = entry.get("like", [])
    assert isinstance(likes, list)
    for other in reversed(likes):
        columns.update(_columns(_entry(str(other))))
    columns.update({str(name): str(meaning) for name, meaning in own.items()})
    return columns


def _is_lake(con: duckdb.DuckDBPyConnection) -> bool:
    [(kind,)] = con.execute(
        "SELECT type FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchall()
    return str(kind) == "ducklake"


def _columns_present(con: duckdb.DuckDBPyConnection, names: Sequence[str]) -> set[tuple[str, str]]:
    rows = con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() "
        "WHERE database_name = current_database() AND table_name IN (SELECT unnest(?))",
        [list(names)],
    ).fetchall()
    return {(str(table), str(column)) for table, column in rows}


def _name(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
