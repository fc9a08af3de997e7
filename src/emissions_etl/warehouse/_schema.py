"""Create or upgrade the warehouse schema: versioned, idempotent DDL applied by the writer.

Tables come from numbered migrations (``ddl.sql`` is version 1, ``migration_<n>.sql`` n); views
are replaced when ``views.sql`` changes, so a view that gains a column reaches old files without
a migration. A DuckLake gets the same migrations with their PRIMARY KEY and CHECK constraints
left out (DuckLake has none: the writer keeps keys unique, as it does in the file), so one
schema serves both. What each table, view and column means (``descriptions.toml``) is written
with them as DuckDB comments (``_descriptions``), when they are made or their description
changes.
The GHG inventory's views are composed after, from the rules stored in the warehouse
(``_inventory.compose``, called by ``Warehouse.writer``), then the coverage's
(``_coverage.compose``).
"""

from __future__ import annotations

import hashlib
import re
from importlib.resources import files

import duckdb

from emissions_etl.warehouse._descriptions import (
    Described,
    declared,
    fingerprint,
    made_by,
    write_comments,
)

#: The newest schema version this code writes.
SCHEMA_VERSION = 8

_MIGRATIONS: dict[int, str] = {
    1: "ddl.sql",
    2: "migration_2.sql",
    3: "migration_3.sql",
    4: "migration_4.sql",
    5: "migration_5.sql",
    6: "migration_6.sql",
    7: "migration_7.sql",
    8: "migration_8.sql",
}
#: Tables whose rows belong to one organization (``organization_id``).
ORGANIZATION_TABLES = (
    "load_runs",
    "source_rows",
    "remote_ids",
    "pending_uploads",
    "rejects",
    "remote_records",
    "facilities",
)
_PRIMARY_KEY = re.compile(r"\s+PRIMARY KEY\b", re.IGNORECASE)
_CHECK = re.compile(r"\s+CHECK\s*\((?:[^()]|\([^()]*\))*\)", re.IGNORECASE)


def _sql(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def for_lake(sql: str) -> str:
    """``sql`` without the constraints DuckLake does not take."""
    return _CHECK.sub("", _PRIMARY_KEY.sub("", sql))


def current_version(con: duckdb.DuckDBPyConnection, *, lake: bool = False) -> int:
    """The schema version recorded in the warehouse (0 for a new one)."""
    key = "" if lake else " PRIMARY KEY"
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        f" version INTEGER{key}, applied_at TIMESTAMPTZ NOT NULL)"
    )
    row = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall()
    return int(row[0][0]) if row else 0


def ensure_schema(
    con: duckdb.DuckDBPyConnection, *, lake: bool = False, organization_id: str | None = None
) -> int:
    """Apply the migrations the warehouse lacks, replace the views if ``views.sql`` changed,
    and give rows written before organizations were recorded to ``organization_id``; returns
    the version."""
    con.begin()
    try:
        version = current_version(con, lake=lake)
        migrated = False
        for number in sorted(n for n in _MIGRATIONS if n > version):
            sql = _sql(_MIGRATIONS[number])
            con.execute(for_lake(sql) if lake else sql)
            con.execute("INSERT INTO schema_version VALUES (?, now())", [number])
            version, migrated = number, True
        _replace_views(con, force=migrated)
        if organization_id is not None:
            _claim_unowned_rows(con, organization_id)
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return version


def _replace_views(con: duckdb.DuckDBPyConnection, *, force: bool) -> None:
    """``views.sql``, with the comments of its views and of every table: made again when either
    changed, or when a migration ran (a table it rebuilt lost its comments, a column it added
    has none), and left alone otherwise (one look at ``view_version``)."""
    sql = _sql("views.sql")
    tables = tuple(item for item in declared() if item.kind == "table")
    replace_view(con, "views.sql", sql, described=made_by(sql) + tables, force=force)


def replace_view(
    con: duckdb.DuckDBPyConnection,
    name: str,
    statement: str,
    *,
    described: tuple[Described, ...] | None = None,
    force: bool = False,
) -> None:
    """Run ``statement`` (CREATE OR REPLACE VIEW ...) and comment what it made (``described``;
    default: the declared views and macros it creates), unless the view ``name`` was made by
    the same statement and comments: a lake's writers would otherwise change its catalog at
    every open. ``force``: run them whatever ``view_version`` holds."""
    objects = made_by(statement) if described is None else described
    made = statement + "\n" + fingerprint(objects)
    digest = hashlib.sha256(made.encode()).hexdigest()[:16]
    held = con.execute("SELECT digest FROM view_version WHERE name = ?", [name]).fetchall()
    if held == [(digest,)] and not force:
        return
    con.execute(statement)
    write_comments(con, objects)
    con.execute("DELETE FROM view_version WHERE name = ?", [name])
    con.execute("INSERT INTO view_version VALUES (?, ?, now())", [name, digest])


def _claim_unowned_rows(con: duckdb.DuckDBPyConnection, organization_id: str) -> None:
    """Rows of a warehouse written before organizations were recorded: the first organization
    to write to it is the one that wrote them (a warehouse then held one organization)."""
    # One look at every table (a lake answers each statement through its catalog: one
    # round trip, not seven), then an UPDATE of those that have such rows.
    unowned = con.execute(
        " UNION ALL ".join(
            f"(SELECT '{table}' FROM {table} WHERE organization_id IS NULL LIMIT 1)"
            for table in ORGANIZATION_TABLES
        )
    ).fetchall()
    for (table,) in unowned:
        con.execute(
            f"UPDATE {table} SET organization_id = ? WHERE organization_id IS NULL",
            [organization_id],
        )
