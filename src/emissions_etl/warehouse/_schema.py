"""Create or upgrade the warehouse schema: versioned, idempotent DDL applied by the writer.

Tables come from numbered migrations (``ddl.sql`` is version 1, ``migration_<n>.sql`` n); views
are replaced every time,
so a view that gains a column reaches old files without a migration.
"""

from __future__ import annotations

from importlib.resources import files

import duckdb

#: The newest schema version this code writes.
SCHEMA_VERSION = 3

_MIGRATIONS: dict[int, str] = {1: "ddl.sql", 2: "migration_2.sql", 3: "migration_3.sql"}


def _sql(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def current_version(con: duckdb.DuckDBPyConnection) -> int:
    """The schema version recorded in the file (0 for a new file)."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
    )
    row = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def ensure_schema(con: duckdb.DuckDBPyConnection) -> int:
    """Apply the migrations the file lacks, then (re)create the views; returns the version."""
    con.begin()
    try:
        version = current_version(con)
        for number in sorted(n for n in _MIGRATIONS if n > version):
            con.execute(_sql(_MIGRATIONS[number]))
            con.execute("INSERT INTO schema_version VALUES (?, now())", [number])
            version = number
        con.execute(_sql("views.sql"))
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return version
