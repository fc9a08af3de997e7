"""Upkeep of a warehouse (``emissions-etl maintain-warehouse``): what keeps a lake fast as the
nights add up, and what a DuckDB file needs.

Every commit to a lake is a snapshot and every write a Parquet file (or rows inlined in the
catalog); nothing tidies them by itself, and a query over a table of 3,000 small commits took
20 times as long as over the same rows merged (issue #26). Upkeep, in DuckLake's own functions:
a table's inlined rows flushed to a file once they make a file's worth, adjacent small files
merged, files with many deleted rows
rewritten, snapshots older than the retention expired (never one a filed inventory names:
``filed_inventories.snapshot_id``), then the files no snapshot needs deleted. Each step is a
commit of its own, tried again when it conflicts with a load's: safe while loads run. A file
is deleted only ``FILE_GRACE`` after nothing needs it, so a load or a report running now never
loses a file it reads (or one it wrote and has not committed yet).

A DuckDB file needs a checkpoint at most (its write-ahead log merged into the file).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from emissions_etl.warehouse._conflicts import retried_on_conflict
from emissions_etl.warehouse._connection import INLINED_ROWS, LAKE_ALIAS

#: How long a file no snapshot needs stays on disk before upkeep deletes it.
FILE_GRACE = dt.timedelta(hours=1)
#: Rows a DuckDB row group holds when full.
ROW_GROUP_ROWS = 122_880
#: The table of filed GHG inventories; the snapshots it names are kept for ever (a filed
#: inventory is read again as it was filed, by time travel).
FILED_INVENTORIES = "filed_inventories"


@dataclass(frozen=True)
class LakeFigures:
    """A lake as upkeep finds it."""

    snapshots: int
    #: Data and delete files the current snapshot reads, and their bytes.
    files: int
    bytes: int
    #: Files no snapshot needs any more, waiting to be deleted.
    unneeded: int

    def line(self) -> str:
        return (
            f"{_count(self.snapshots, 'snapshot')}, {_count(self.files, 'file')} read "
            f"({_mb(self.bytes)}), {_count(self.unneeded, 'file')} no snapshot needs"
        )


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
            f"{_mb(self.bytes)}, write-ahead log {_mb(self.wal_bytes)}, "
            f"{_count(self.row_groups, 'row group')}, {_count(self.free_blocks, 'free block')}"
        )


@dataclass
class Upkeep:
    """What upkeep did: a line per step, and the warehouse before and after."""

    before: LakeFigures | FileFigures
    after: LakeFigures | FileFigures
    done: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [*self.done, f"before: {self.before.line()}", f"after:  {self.after.line()}"]


def maintain_lake(
    con: duckdb.DuckDBPyConnection,
    *,
    retention_days: int,
    grace: dt.timedelta = FILE_GRACE,
) -> Upkeep:
    """Upkeep of the lake attached on ``con``: snapshots older than ``retention_days`` expired
    (0: every one but the current), files no snapshot needs deleted once ``grace`` has
    passed."""
    upkeep = Upkeep(before=_lake_figures(con), after=_lake_figures(con))
    flushed = _flush_inlined(con)
    upkeep.done.append(f"inlined rows flushed to files: {_per_table(flushed)}")
    merged = _call(
        con,
        "SELECT table_name, files_processed, files_created FROM ducklake_merge_adjacent_files(?)",
    )
    upkeep.done.append(
        f"adjacent files merged: {sum(row[1] for row in merged):,} into "
        f"{sum(row[2] for row in merged):,}"
    )
    rewritten = _call(
        con,
        "SELECT table_name, files_processed, files_created FROM ducklake_rewrite_data_files(?)",
    )
    upkeep.done.append(
        f"files with many deleted rows rewritten: {sum(row[1] for row in rewritten):,}"
    )
    upkeep.done.append(_expire(con, retention_days))
    upkeep.done.append(_delete_unneeded(con, grace))
    upkeep.after = _lake_figures(con)
    return upkeep


def maintain_file(con: duckdb.DuckDBPyConnection, path: Path, log_bytes: int) -> Upkeep:
    """Upkeep of the DuckDB file ``path`` open on ``con`` (whose log held ``log_bytes`` before
    it was opened): its log merged, and the tables whose rows sit in more row groups than they
    need compacted; else nothing.

    Loads never vacuum (``_resting``), so each leaves a partly filled row group per table it
    wrote; DuckDB vacuums only a table changed since its last checkpoint, so upkeep deletes
    one row of each such table and inserts it again (one transaction: the same rows), then
    checkpoints with vacuuming on: the small row groups merge and their blocks are free for
    later writes (a DuckDB file does not shrink)."""
    scattered = _scattered_tables(con)
    before = _file_figures(con, path, log_bytes)
    if log_bytes == 0 and not scattered:
        return Upkeep(before, before, ["nothing to do: no log to merge, no table to compact"])
    for table in scattered:
        _touch(con, table)
    con.execute("RESET max_vacuum_tasks")
    con.execute("CHECKPOINT")
    done = [f"checkpoint: {_mb(log_bytes)} of log merged into the file"] if log_bytes else []
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


def _call(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    """A DuckLake function over the lake, tried again when it conflicts with a load."""
    return retried_on_conflict(lambda: con.execute(sql, [LAKE_ALIAS]).fetchall())


def _flush_inlined(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    """Flush to a file the rows inlined in the catalog of each table that holds at least
    ``INLINED_ROWS`` of them (live or deleted): a night's small loads stay in the catalog until
    they make a file's worth, and the small tables (runs, views, rules) never become files."""
    metadata = f"__ducklake_metadata_{LAKE_ALIAS}"
    inlined = con.execute(
        f"SELECT t.table_name, i.table_name FROM {metadata}.ducklake_inlined_data_tables AS i "
        f"JOIN {metadata}.ducklake_table AS t USING (table_id) WHERE t.end_snapshot IS NULL"
    ).fetchall()
    flushed: list[tuple] = []
    for table, rows_table in inlined:
        [(rows,)] = con.execute(f"SELECT count(*) FROM {metadata}.{rows_table}").fetchall()
        if rows >= INLINED_ROWS:
            flushed += _flush_table(con, str(table))
    return flushed


def _flush_table(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple]:
    return retried_on_conflict(
        lambda: con.execute(
            "SELECT table_name, rows_flushed FROM ducklake_flush_inlined_data(?, table_name => ?)",
            [LAKE_ALIAS, table],
        ).fetchall()
    )


def _expire(con: duckdb.DuckDBPyConnection, retention_days: int) -> str:
    """Expire the snapshots older than the retention, but the current one and those of filed
    inventories; says how many."""
    cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=retention_days)
    filed = _filed_snapshots(con)
    [(current,)] = con.execute(
        "SELECT max(snapshot_id) FROM ducklake_snapshots(?)", [LAKE_ALIAS]
    ).fetchall()
    old = [
        snapshot
        for (snapshot,) in con.execute(
            "SELECT snapshot_id FROM ducklake_snapshots(?) WHERE snapshot_time < ? "
            "AND snapshot_id < ? ORDER BY snapshot_id",
            [LAKE_ALIAS, cutoff, current],
        ).fetchall()
    ]
    kept = [snapshot for snapshot in old if snapshot in filed]
    expire = [snapshot for snapshot in old if snapshot not in filed]
    if expire:
        retried_on_conflict(
            lambda: con.execute(
                "SELECT count(*) FROM ducklake_expire_snapshots(?, versions => ?)",
                [LAKE_ALIAS, expire],
            ).fetchall()
        )
    keeping = f"; {len(kept):,} kept for filed inventories" if kept else ""
    return (
        f"snapshots expired: {len(expire):,} (older than {retention_days} days, "
        f"{cutoff:%Y-%m-%d %H:%M} UTC{keeping})"
    )


def _filed_snapshots(con: duckdb.DuckDBPyConnection) -> set[int]:
    """The snapshots filed inventories name (none when the lake has no such table)."""
    exists = con.execute(
        "SELECT 1 FROM duckdb_tables() WHERE database_name = ? AND table_name = ?",
        [LAKE_ALIAS, FILED_INVENTORIES],
    ).fetchall()
    if not exists:
        return set()
    rows = con.execute(
        f"SELECT DISTINCT snapshot_id FROM {LAKE_ALIAS}.main.{FILED_INVENTORIES} "
        "WHERE snapshot_id IS NOT NULL"
    ).fetchall()
    return {int(snapshot) for (snapshot,) in rows}


def _delete_unneeded(con: duckdb.DuckDBPyConnection, grace: dt.timedelta) -> str:
    """Delete the files no snapshot needs (and files of the data folder the catalog does not
    know) that have waited ``grace``; says how many, and how many wait."""
    older_than = dt.datetime.now(dt.UTC) - grace
    deleted = _deleted_paths(con, "ducklake_cleanup_old_files", older_than)
    orphans = _deleted_paths(con, "ducklake_delete_orphaned_files", older_than)
    waiting = len(_unneeded(con))
    wait = (
        f"; {_count(waiting, 'file')} no snapshot needs wait {grace.total_seconds() / 60:.0f} "
        "min before they go (a load or a report running now may read them): the next upkeep "
        "deletes them"
        if waiting
        else ""
    )
    return (
        f"files deleted: {len(deleted):,} no snapshot needed, {len(orphans):,} the catalog "
        f"did not know{wait}"
    )


def _deleted_paths(
    con: duckdb.DuckDBPyConnection, function: str, older_than: dt.datetime
) -> Sequence[tuple]:
    return retried_on_conflict(
        lambda: con.execute(
            f"SELECT * FROM {function}(?, older_than => ?)", [LAKE_ALIAS, older_than]
        ).fetchall()
    )


def _unneeded(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute(
        "SELECT * FROM ducklake_cleanup_old_files(?, dry_run => true, cleanup_all => true)",
        [LAKE_ALIAS],
    ).fetchall()


def _lake_figures(con: duckdb.DuckDBPyConnection) -> LakeFigures:
    [(snapshots,)] = con.execute(
        "SELECT count(*) FROM ducklake_snapshots(?)", [LAKE_ALIAS]
    ).fetchall()
    [(files, size)] = con.execute(
        "SELECT coalesce(sum(file_count + delete_file_count), 0), "
        "coalesce(sum(file_size_bytes + delete_file_size_bytes), 0) FROM ducklake_table_info(?)",
        [LAKE_ALIAS],
    ).fetchall()
    return LakeFigures(int(snapshots), int(files), int(size), len(_unneeded(con)))


def _per_table(rows: Sequence[tuple]) -> str:
    total = sum(int(row[1]) for row in rows)
    tables = ", ".join(f"{table} {int(count):,}" for table, count in rows if count)
    return f"{total:,}" + (f" ({tables})" if tables else "")


def _count(number: int, word: str) -> str:
    return f"{number:,} {word}{'' if number == 1 else 's'}"


def _mb(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


__all__ = [
    "FILED_INVENTORIES",
    "FILE_GRACE",
    "FileFigures",
    "LakeFigures",
    "Upkeep",
    "maintain_file",
    "maintain_lake",
    "wal_bytes",
]
