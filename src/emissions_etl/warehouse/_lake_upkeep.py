"""A lake's upkeep (``maintain-warehouse`` on a DuckLake).

Every commit to a lake is a snapshot and every write a Parquet file (or rows inlined in the
catalog); nothing tidies them by itself, and a query over a table of many small commits reads
file after file where the same rows merged are read at once (issue #26). Upkeep, in DuckLake's
own functions:
a table's inlined rows flushed to a file once they make a file's worth, adjacent small files
merged, files with many deleted rows rewritten, snapshots older than the retention expired
(never one a filed inventory names: ``filed_inventories.snapshot_id``), then the files no
snapshot needs deleted. Each step is a commit of its own, tried again when it conflicts with a
load's: safe while loads run. A file is deleted only ``FILE_GRACE`` after nothing needs it, so
a load or a report running now never loses a file it reads (or one it wrote and has not
committed yet).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import duckdb

from emissions_etl.warehouse._conflicts import retried_on_conflict
from emissions_etl.warehouse._connection import INLINED_ROWS, LAKE_ALIAS
from emissions_etl.warehouse._filed import filed_snapshots
from emissions_etl.warehouse._upkeep import Upkeep, UpkeepStep, counted, megabytes, no_steps

#: How long a file no snapshot needs stays on disk before upkeep deletes it.
FILE_GRACE = dt.timedelta(hours=1)


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
            f"{counted(self.snapshots, 'snapshot')}, {counted(self.files, 'file')} read "
            f"({megabytes(self.bytes)}), {counted(self.unneeded, 'file')} no snapshot needs"
        )


class TableFlush(NamedTuple):
    """A table's inlined rows ``ducklake_flush_inlined_data`` wrote to a file."""

    table: str
    rows: int


class FilesWork(NamedTuple):
    """A table's files a merge or a rewrite read, and those it wrote."""

    table: str
    processed: int
    created: int


#: The steps of a lake's upkeep, in order, as ``step`` is told them.
LAKE_STEPS = (
    "flushing inlined rows",
    "merging adjacent files",
    "rewriting files with many deleted rows",
    "expiring old snapshots",
    "deleting the files no snapshot needs",
)


def maintain_lake(
    con: duckdb.DuckDBPyConnection,
    *,
    retention_days: int,
    grace: dt.timedelta = FILE_GRACE,
    step: UpkeepStep = no_steps,
) -> Upkeep:
    """Upkeep of the lake attached on ``con``: snapshots older than ``retention_days`` expired
    (0: every one but the current), files no snapshot needs deleted once ``grace`` has
    passed; ``step`` is told each of ``LAKE_STEPS`` as it starts."""
    before = _lake_figures(con)
    upkeep = Upkeep(before=before, after=before)  # ``after`` measured at the end
    step(1, len(LAKE_STEPS), LAKE_STEPS[0])
    flushed = _flush_inlined(con)
    upkeep.done.append(f"inlined rows flushed to files: {_per_table(flushed)}")
    step(2, len(LAKE_STEPS), LAKE_STEPS[1])
    merged = _call(
        con,
        "SELECT table_name, files_processed, files_created FROM ducklake_merge_adjacent_files(?)",
    )
    upkeep.done.append(
        f"adjacent files merged: {sum(row.processed for row in merged):,} into "
        f"{sum(row.created for row in merged):,}"
    )
    step(3, len(LAKE_STEPS), LAKE_STEPS[2])
    rewritten = _call(
        con,
        "SELECT table_name, files_processed, files_created FROM ducklake_rewrite_data_files(?)",
    )
    upkeep.done.append(
        f"files with many deleted rows rewritten: {sum(row.processed for row in rewritten):,}"
    )
    step(4, len(LAKE_STEPS), LAKE_STEPS[3])
    upkeep.done.append(_expire(con, retention_days))
    step(5, len(LAKE_STEPS), LAKE_STEPS[4])
    upkeep.done.append(_delete_unneeded(con, grace))
    upkeep.after = _lake_figures(con)
    return upkeep


def _call(con: duckdb.DuckDBPyConnection, sql: str) -> list[FilesWork]:
    """A DuckLake function over the lake, tried again when it conflicts with a load: its
    (table, files processed, files created) rows."""
    rows = retried_on_conflict(lambda: con.execute(sql, [LAKE_ALIAS]).fetchall())
    return [FilesWork(str(table), int(read), int(wrote)) for table, read, wrote in rows]


def _flush_inlined(con: duckdb.DuckDBPyConnection) -> list[TableFlush]:
    """Flush to a file the rows inlined in the catalog of each table that holds at least
    ``INLINED_ROWS`` of them (live or deleted): a night's small loads stay in the catalog until
    they make a file's worth, and the small tables (runs, views, rules) never become files."""
    metadata = f"__ducklake_metadata_{LAKE_ALIAS}"
    inlined = con.execute(
        f"SELECT t.table_name, i.table_name FROM {metadata}.ducklake_inlined_data_tables AS i "
        f"JOIN {metadata}.ducklake_table AS t USING (table_id) WHERE t.end_snapshot IS NULL"
    ).fetchall()
    flushed: list[TableFlush] = []
    for table, rows_table in inlined:
        [(rows,)] = con.execute(f"SELECT count(*) FROM {metadata}.{rows_table}").fetchall()
        if rows >= INLINED_ROWS:
            flushed += _flush_table(con, str(table))
    return flushed


def _flush_table(con: duckdb.DuckDBPyConnection, table: str) -> list[TableFlush]:
    rows = retried_on_conflict(
        lambda: con.execute(
            "SELECT table_name, rows_flushed FROM ducklake_flush_inlined_data(?, table_name => ?)",
            [LAKE_ALIAS, table],
        ).fetchall()
    )
    return [TableFlush(str(name), int(flushed)) for name, flushed in rows]


def _expire(con: duckdb.DuckDBPyConnection, retention_days: int) -> str:
    """Expire the snapshots older than the retention, but the current one and those of filed
    inventories; says how many."""
    cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=retention_days)
    filed = filed_snapshots(con, LAKE_ALIAS)
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


def _delete_unneeded(con: duckdb.DuckDBPyConnection, grace: dt.timedelta) -> str:
    """Delete the files no snapshot needs (and files of the data folder the catalog does not
    know) that have waited ``grace``; says how many, and how many wait."""
    older_than = dt.datetime.now(dt.UTC) - grace
    deleted = _deleted_files(con, "ducklake_cleanup_old_files", older_than)
    orphans = _deleted_files(con, "ducklake_delete_orphaned_files", older_than)
    waiting = _unneeded(con)
    wait = (
        f"; {counted(waiting, 'file')} no snapshot needs wait {grace.total_seconds() / 60:.0f} "
        "min before they go (a load or a report running now may read them): the next upkeep "
        "deletes them"
        if waiting
        else ""
    )
    return (
        f"files deleted: {deleted:,} no snapshot needed, {orphans:,} the catalog did not know{wait}"
    )


def _deleted_files(con: duckdb.DuckDBPyConnection, function: str, older_than: dt.datetime) -> int:
    """How many files ``function`` deleted (a row per file)."""
    deleted = retried_on_conflict(
        lambda: con.execute(
            f"SELECT * FROM {function}(?, older_than => ?)", [LAKE_ALIAS, older_than]
        ).fetchall()
    )
    return len(deleted)


def _unneeded(con: duckdb.DuckDBPyConnection) -> int:
    """How many files no snapshot needs (a row per file)."""
    return len(
        con.execute(
            "SELECT * FROM ducklake_cleanup_old_files(?, dry_run => true, cleanup_all => true)",
            [LAKE_ALIAS],
        ).fetchall()
    )


def _lake_figures(con: duckdb.DuckDBPyConnection) -> LakeFigures:
    [(snapshots,)] = con.execute(
        "SELECT count(*) FROM ducklake_snapshots(?)", [LAKE_ALIAS]
    ).fetchall()
    [(files, size)] = con.execute(
        "SELECT coalesce(sum(file_count + delete_file_count), 0), "
        "coalesce(sum(file_size_bytes + delete_file_size_bytes), 0) FROM ducklake_table_info(?)",
        [LAKE_ALIAS],
    ).fetchall()
    return LakeFigures(int(snapshots), int(files), int(size), _unneeded(con))


def _per_table(flushed: Sequence[TableFlush]) -> str:
    total = sum(flush.rows for flush in flushed)
    tables = ", ".join(f"{flush.table} {flush.rows:,}" for flush in flushed if flush.rows)
    return f"{total:,}" + (f" ({tables})" if tables else "")


__all__ = ["FILE_GRACE", "LakeFigures", "maintain_lake"]
