"""What a writer's DuckDB keeps between two groups of rows it lands: as little as it can.

DuckDB keeps in memory, up to its limit, the rows appended since its last checkpoint and every
block a statement read. With a limit that follows the machine, a load's memory would grow with
the warehouse it reads and the rows it lands. None of it is needed once a group has
landed: ``release`` checkpoints a file whose write-ahead log has grown past ``CHECKPOINT_BYTES``
under a low limit (``CHECKPOINT_LIMIT``: the checkpoint goes block by block instead of holding
all it writes), lowers the limit to ``RESTING_LIMIT`` (DuckDB then writes appended rows to its
spill folder and drops cached blocks, as it does under pressure), and restores it; while DuckDB
holds less than ``EVICT_ABOVE`` it leaves it be (evicting costs I/O, and a large load would
evict at every group).

A file's checkpoints never vacuum (``max_vacuum_tasks = 0``): vacuuming merges the row groups
earlier loads wrote, so a checkpoint's cost grew with the table, where without it a checkpoint
costs the same at every size; ``maintain-warehouse`` compacts instead. Rows a load deletes
before its checkpoint never reach the file anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import duckdb

T = TypeVar("T")

#: What DuckDB may keep between two groups of rows a load lands: every megabyte kept is one
#: more at the load's peak.
RESTING_LIMIT = "16MiB"
#: ``release`` gives back nothing while DuckDB holds less than this (what it may hold at rest).
EVICT_ABOVE = 48 * 2**20
#: The limit a file's checkpoint runs under: it compresses a column segment at a time.
CHECKPOINT_LIMIT = "64MiB"
#: The limit the statements over a whole run run under first (``within_budget``).
RUN_BUDGET = "256MiB"
#: A file writer's log is checkpointed once it holds this much (~80,000 waste rows). A
#: checkpoint holds what it compresses outside DuckDB's limit, so a smaller log lowers a load's
#: peak, but each checkpoint costs time: 128 MB balances the two (bench_pipeline).
CHECKPOINT_BYTES = 128 * 2**20
#: DuckDB's own automatic checkpoint (under the full limit), should ``release`` not be called.
AUTOMATIC_CHECKPOINT = "1GiB"
#: DuckDB variables holding a connection's own limit and its file's log (``release``).
_LIMIT = "emissions_memory_limit"
_WAL = "emissions_wal"


def prepare(con: duckdb.DuckDBPyConnection, *, limit: str, wal: Path | None) -> None:
    """Remember ``con``'s memory limit (and, for a file's writer, its log ``wal``) for
    ``release``; a file's writer checkpoints without vacuuming."""
    con.execute(f"SET VARIABLE {_LIMIT} = ?", [limit])
    if wal is not None:
        con.execute(f"SET VARIABLE {_WAL} = ?", [str(wal)])
        con.execute(f"SET checkpoint_threshold = '{AUTOMATIC_CHECKPOINT}'")
        con.execute("SET max_vacuum_tasks = 0")


def release(con: duckdb.DuckDBPyConnection, *, final: bool = False) -> None:
    """Give back what DuckDB keeps once a group of rows has landed, checkpointing a file's
    log when it has grown (always with ``final``: the connection is about to close)."""
    [(limit, wal)] = con.execute("SELECT getvariable(?), getvariable(?)", [_LIMIT, _WAL]).fetchall()
    if limit is None:
        return  # a connection ``_connection`` did not open: leave it as it is
    checkpoint = wal is not None and (final or _size(Path(wal)) >= CHECKPOINT_BYTES)
    if not checkpoint and _held(con) < EVICT_ABOVE:
        return  # little held: evicting it would cost more I/O than it saves memory
    try:
        if checkpoint:
            con.execute(f"SET memory_limit = '{CHECKPOINT_LIMIT}'")
            con.execute("CHECKPOINT")
        con.execute(f"SET memory_limit = '{RESTING_LIMIT}'")
    except duckdb.OutOfMemoryException:
        pass  # a result still pins more: what could go has gone, DuckDB checkpoints later
    finally:
        con.execute(f"SET memory_limit = '{limit}'")


def within_budget(con: duckdb.DuckDBPyConnection, statement: Callable[[], T]) -> T:
    """``statement()`` run under ``RUN_BUDGET`` (DuckDB spills what exceeds it), then under the
    full limit if that is not enough; for the statements a load runs once over its whole run
    (the co2e of its rows, the rows its file no longer has), whose hash tables follow the file:
    they come at the end, when the load's own frames are still resident, and would otherwise
    take what the limit allows."""
    [(limit,)] = con.execute("SELECT getvariable(?)", [_LIMIT]).fetchall()
    if limit is None:
        return statement()
    con.execute(f"SET memory_limit = '{RUN_BUDGET}'")
    try:
        return statement()
    except duckdb.OutOfMemoryException:
        con.execute(f"SET memory_limit = '{limit}'")
        return statement()
    finally:
        con.execute(f"SET memory_limit = '{limit}'")


def _held(con: duckdb.DuckDBPyConnection) -> int:
    [(held,)] = con.execute(
        "SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()"
    ).fetchall()
    return int(held)


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0
