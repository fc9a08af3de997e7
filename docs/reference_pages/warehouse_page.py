"""The page of the warehouse: every table, view and macro with its columns, their types and
meanings, read back from the comments of a new warehouse (``warehouse/descriptions.toml`` and
each resource's ``view_columns``), so the page says what DuckDB itself shows."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from emissions_etl.loading.preparation import describe
from emissions_etl.resources import ResourceSpec
from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._descriptions import declared, own_columns

from .command_line import Undeclared
from .markdown import code, link, page, table, text


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str
    comment: str | None


@dataclass(frozen=True)
class Described:
    """A table, view or macro as a new warehouse holds it."""

    name: str
    kind: str  # table, view, table macro
    comment: str | None
    columns: tuple[Column, ...] = ()
    parameters: tuple[str, ...] = ()


def built_warehouse(folder: Path, resources: Sequence[ResourceSpec]) -> Path:
    """A new warehouse file in ``folder``, described by every resource as a load describes it
    (its view, its inventory rule)."""
    warehouse = Warehouse(folder / "reference.duckdb")
    with warehouse.writer() as writer:
        for spec in resources:
            describe(writer, spec)
    return warehouse.path


def read_described(path: Path) -> list[Described]:
    """Every table, view and macro of the warehouse file at ``path``, with their comments."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        columns: dict[str, list[Column]] = {}
        for table_name, name, data_type, comment in con.execute(
            "SELECT table_name, column_name, data_type, comment FROM duckdb_columns() "
            "WHERE database_name = current_database() ORDER BY table_name, column_index"
        ).fetchall():
            columns.setdefault(table_name, []).append(Column(name, data_type, comment))
        found = [
            Described(name, kind, comment, tuple(columns.get(name, ())))
            for name, kind, comment in con.execute(
                "SELECT table_name, 'table', comment FROM duckdb_tables() "
                "WHERE database_name = current_database() UNION ALL "
                "SELECT view_name, 'view', comment FROM duckdb_views() "
                "WHERE database_name = current_database() AND NOT internal"
            ).fetchall()
        ]
        found += [
            Described(name, "table macro", comment, parameters=tuple(parameters))
            for name, comment, parameters in con.execute(
                "SELECT function_name, comment, parameters FROM duckdb_functions() "
                "WHERE database_name = current_database() AND function_type = 'table_macro'"
            ).fetchall()
        ]
    finally:
        con.close()
    return found


def warehouse_page(resources: Sequence[ResourceSpec]) -> str:
    """The page, from a new warehouse every resource described; Undeclared for anything
    without its description, or a description of something the warehouse does not have."""
    with tempfile.TemporaryDirectory(prefix="warehouse-reference-") as folder:
        found = read_described(built_warehouse(Path(folder), resources))
    _check(found)
    by_name = {item.name: item for item in found}
    order = [item.name for item in declared()]
    resource_views = sorted(n for n, it in by_name.items() if n not in order and it.kind == "view")
    views = [n for n in order if by_name[n].kind == "view"]
    macros = [n for n in order if by_name[n].kind == "table macro"]
    tables = [n for n in order if by_name[n].kind == "table"]
    names = [*views, *resource_views, *macros, *tables]
    summary = table(
        ["Name", "Kind", "What it holds"],
        [[link(code(n), "", n), by_name[n].kind, text(_first_sentence(by_name[n].comment or ""))]
         for n in names],
    )  # fmt: skip
    return page(
        "Warehouse tables and views",
        "What a load leaves in the warehouse (a DuckDB file, or a DuckLake): analysts start "
        "from the view `emissions` or the view named after a resource, who files a GHG "
        "inventory from `ghg_inventory`. Each description below is also in the warehouse "
        "itself, as DuckDB comments: `duckdb_tables()`, `duckdb_views()`, `duckdb_columns()` "
        "and `duckdb_functions()` show them, as does a SQL client (a DuckLake keeps those of "
        "tables, their columns and views; it does not take those of a view's columns or of "
        "macros). Timestamps are `TIMESTAMPTZ` (UTC instants); keys are kept unique by the "
        "writer. Generated from `emissions_etl/warehouse/descriptions.toml` and each "
        "resource's `view_columns`, through the comments of a new warehouse.\n\n"
        "```sql\nSELECT column_name, data_type, comment FROM duckdb_columns()\n"
        "WHERE table_name = 'emissions';\n```",
        [summary, *(_section(by_name[name]) for name in names)],
    )


def _section(item: Described) -> str:
    kind = item.kind.capitalize()
    if item.parameters:
        heading = f"{kind}: `{item.name}({', '.join(item.parameters)})`."
    else:
        heading = f"{kind}."
    parts = [f"## {item.name}", f"{heading} {text(item.comment or '')}"]
    if item.columns:
        parts.append(
            table(
                ["Column", "Type", "Meaning"],
                [[code(c.name), code(c.data_type), text(c.comment or "")] for c in item.columns],
            )
        )
    return "\n\n".join(parts)


def _check(found: Sequence[Described]) -> None:
    """Undeclared naming what has no comment, and what is declared but not there."""
    missing = [item.name for item in found if not item.comment]
    missing += [f"{item.name}.{c.name}" for item in found for c in item.columns if not c.comment]
    if missing:
        raise Undeclared(
            f"no description: {', '.join(missing)}; declare it in "
            "emissions_etl/warehouse/descriptions.toml (a resource's own view columns: "
            "meaning= of its ViewColumn)"
        )
    present = {item.name: {c.name for c in item.columns} for item in found}
    stale = [item.name for item in declared() if item.name not in present]
    stale += [
        f"{item.name}.{column}"
        for item in declared()
        if item.name in present and item.kind != "macro"
        for column in own_columns(item.name)
        if column not in present[item.name]
    ]
    if stale:
        raise Undeclared(
            f"descriptions.toml describes what the warehouse does not have: {', '.join(stale)}"
        )


def _first_sentence(value: str) -> str:
    head, dot, _ = value.partition(". ")
    return head + ("." if dot else "")
