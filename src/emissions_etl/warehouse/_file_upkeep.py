"""A DuckDB file's upkeep (``maintain-warehouse`` on a file): its log merged into the file, and
the row groups loads leave partly filled compacted (loads never vacuum: ``_resting``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from emissions_etl.warehouse._upkeep import Upkeep, UpkeepStep, counted, megabytes, no_steps

#: Rows a DuckDB row group holds when full.
ROW_GROUP_ROWS = 122_880


@dataclass(frozen=True)
class FileFigures:
    """A DuckDB file as upkeep finds it: its size, its write-ahead log's, its row groups and
    the blocks free for later writes."""

    bytes: int
    wal_bytes: int
    row_groups: int
    free_blocks: int

    def line(self) -> str:
        return (
            f"{megabytes(self.bytes)}, write-ahead log {megabytes(self.wal_bytes)}, "
            f"{counted(self.row_groups, 'row group')}, {counted(self.free_blocks, 'free block')}"
        )


def maintain_file(
    con: duckdb.DuckDBPyConnection, path: Path, log_bytes: int, step: UpkeepStep = no_steps
) -> Upkeep:
    """Upkeep of the DuckDB file ``path`` open on ``con`` (whose log held ``log_bytes`` before
    it was opened): its log merged, and the tables whose rows sit in more row groups than they
    need compacted; else nothing.

    Loads never vacuum (``_resting``), so each leaves a partly filled row group per table it
    wrote; DuckDB vacuums only a table changed since its last checkpoint, so upkeep deletes
    one row of each such table and inserts it again (one transaction: the same rows), then
    checkpoints with vacuuming on: the small row groups merge and their blocks are free for
    later writes (a DuckDB file does not shrink). ``step`` is told the one step as it starts."""
    step(1, 1, "merging the log and compacting row groups")
    scattered = _scattered_tables(con)
    before = _file_figures(con, path, log_bytes)
    if log_bytes == 0 and not scattered:
        return Upkeep(before, before, ["nothing to do: no log to merge, no table to compact"])
    for table in scattered:
        _touch(con, table)
    con.execute("RESET max_vacuum_tasks")
    con.execute("CHECKPOINT")
    done = [f"checkpoint: {megabytes(log_bytes)} of log merged into the file"] if log_bytes else []
    if scattered:
        done.append(f"row groups compacted: {', '.join(scattered)}")
    return Upkeep(before, _file_figures(con, path, wal_bytes(path)), done)


def _scattered_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Tables (without a primary key: DuckDB never compacts those) whose rows sit in more row
    groups than they fill."""
    tables = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT has_primary_key AND NOT temporary ORDER BY table_name"
    ).fetchall()
    scattered = []
    for (table,) in tables:
        [(groups, rows)] = con.execute(
            "SELECT count(DISTINCT row_group_id), coalesce(sum(count) FILTER "
            "(WHERE column_id = 0 AND segment_type <> 'VALIDITY'), 0) "
            "FROM pragma_storage_info(?)",
            [table],
        ).fetchall()
        if groups > max(-(-int(rows) // ROW_GROUP_ROWS), 1):
            scattered.append(str(table))
    return scattered


def _touch(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Delete one row of ``table`` and insert it again, in one transaction."""
    one = f"(SELECT min(rowid) FROM {table})"
    con.execute("BEGIN")
    try:
        con.execute(f"CREATE TEMP TABLE _upkeep_row AS SELECT * FROM {table} WHERE rowid = {one}")
        con.execute(f"DELETE FROM {table} WHERE rowid = {one}")
        con.execute(f"INSERT INTO {table} SELECT * FROM _upkeep_row")
        con.execute("DROP TABLE _upkeep_row")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _file_figures(con: duckdb.DuckDBPyConnection, path: Path, log_bytes: int) -> FileFigures:
    [(free,)] = con.execute(
        "SELECT free_blocks FROM pragma_database_size() WHERE database_name = current_database()"
    ).fetchall()
    tables = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND NOT temporary"
    ).fetchall()
    groups = 0
    for (table,) in tables:
        [(count,)] = con.execute(
            "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info(?)", [table]
        ).fetchall()
        groups += int(count)
    return FileFigures(path.stat().st_size, log_bytes, groups, int(free))


def wal_bytes(path: Path) -> int:
    """The size of the DuckDB file's write-ahead log (0 when there is none)."""
    wal = path.with_name(path.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


__all__ = ["FileFigures", "maintain_file", "wal_bytes"]
