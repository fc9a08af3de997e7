"""The warehouse: an exclusive writer per load run (a DuckDB file), or one of many (a DuckLake
with its catalog in PostgreSQL), and read-only queries for reports and analysts.

Writers of a file take the cross-process lock first, then DuckDB's read-write connection, and
keep the write window to the run (etl-anchors §4: one writer process; analysts read when it is
closed). Writers of a lake share it: each commit is a snapshot, and a commit that conflicts with
another writer's is tried again (``_conflicts``); writers of one organization take turns, which
PostgreSQL keeps (``_catalog_turn``), so two loads of it never both create a record.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pandas as pd

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse._catalog_turn import CatalogTurn
from emissions_etl.warehouse._conflicts import retried_on_conflict
from emissions_etl.warehouse._connection import (
    LAKE_ALIAS,
    close,
    connect_target,
    fetch_chunk,
    fetch_frame,
    warehouse_error,
)
from emissions_etl.warehouse._coverage import compose as compose_coverage
from emissions_etl.warehouse._dry_run import DryRunParts
from emissions_etl.warehouse._file_upkeep import maintain_file, wal_bytes
from emissions_etl.warehouse._filed import FiledRow, Freeze, current_snapshot, record_filed
from emissions_etl.warehouse._inventory import compose as compose_inventory
from emissions_etl.warehouse._lake_upkeep import maintain_lake
from emissions_etl.warehouse._lock import Say, WriterLock
from emissions_etl.warehouse._memory import MemorySettings
from emissions_etl.warehouse._schema import ORGANIZATION_TABLES, ensure_schema
from emissions_etl.warehouse._sessions import (
    attached,
    mark_schema_checked,
    schema_checked,
    session_cursor,
)
from emissions_etl.warehouse._target import WarehouseTarget
from emissions_etl.warehouse._upkeep import Upkeep, UpkeepStep, no_steps
from emissions_etl.warehouse._writer import WarehouseWriter

#: Vectors of 2,048 rows ``stream`` hands out at a time (20,480 rows).
STREAM_VECTORS = 10
#: How long a writer waits for another load holding the file before it gives up (a nightly
#: run's file may take minutes; runs of one Prefect server take turns before they get here).
WRITER_WAIT_SECONDS = 600.0


class Warehouse:
    """Every load run and its results, for one organization's writes (``organization_id``;
    None: a warehouse of one organization that does not name it) and every organization's
    reads. ``location``: a DuckDB file (default ``warehouse.duckdb``), ``ducklake:<catalog
    file>`` or ``ducklake:postgres:<libpq conninfo>`` (``data_path``: where a lake's data files
    go). ``memory``: DuckDB's memory limit and where it spills (default: a share of the
    machine's memory, spilling beside the warehouse).

    A file's writer waits up to ``wait_seconds`` for another load holding it, and a lake's for
    another load of its organization; ``say`` receives the lines it has for a person meanwhile
    (``waiting for ...: another load (pid n) is writing it; 30 s of at most 600 s``).
    """

    def __init__(
        self,
        location: str | Path | WarehouseTarget,
        *,
        data_path: str | Path | None = None,
        organization_id: str | None = None,
        wait_seconds: float = WRITER_WAIT_SECONDS,
        say: Say | None = None,
        memory: MemorySettings | None = None,
    ) -> None:
        self.target = WarehouseTarget.of(location, data_path)
        self.memory = memory or MemorySettings()
        self.organization_id = organization_id
        self.wait_seconds = wait_seconds
        self.say = say
        self._writer_con: duckdb.DuckDBPyConnection | None = None
        self._reader_con: duckdb.DuckDBPyConnection | None = None

    @property
    def path(self) -> Path:
        """The DuckDB file (or a lake's catalog file)."""
        return self.target.path

    @property
    def is_lake(self) -> bool:
        return self.target.is_lake

    @property
    def shared(self) -> bool:
        """Several processes write at once (a lake whose catalog is a server)."""
        return self.target.is_postgres

    def __repr__(self) -> str:
        return f"Warehouse({str(self.target)!r})"

    @property
    def writers_take_turns(self) -> bool:
        """One process writes at a time (a DuckDB file, a lake whose catalog is a file): runs
        that write it should queue (``orchestration.warehouse_turns``). A lake whose catalog is
        a server takes several writers at once."""
        return not self.shared

    @contextmanager
    def writer(self, *, wait_seconds: float | None = None) -> Iterator[WarehouseWriter]:
        """The writer for one load run; creates or upgrades the schema first.

        A file's writer is exclusive: it waits up to ``wait_seconds`` (default: the
        warehouse's) for another load holding ``<path>.lock``, telling ``say`` now and then,
        then raises WarehouseError naming its pid. A lake's writer (catalog in PostgreSQL) waits
        so for another writer of its organization, whose turn PostgreSQL keeps. A DuckDB error
        inside the block leaves as WarehouseError.
        """
        with self._writing(wait_seconds) as con:
            if not schema_checked(self.target, self.organization_id):
                retried_on_conflict(
                    lambda: ensure_schema(
                        con, lake=self.is_lake, organization_id=self.organization_id
                    )
                )
                retried_on_conflict(lambda: compose_inventory(con))
                retried_on_conflict(lambda: compose_coverage(con))
                mark_schema_checked(self.target, self.organization_id)
            self._writer_con = con
            try:
                yield WarehouseWriter(con, self.organization_id, exclusive=not self.shared)
            finally:
                self._writer_con = None

    @contextmanager
    def dry_run(self) -> Iterator[DryRunParts]:
        """The parts of a load that changes nothing (``_dry_run``): over a read-only
        connection, or over an empty schema in memory when nothing was ever loaded here. Takes
        no lock: a file another load is writing is refused as any reader is (WarehouseError)."""
        if self.target.exists:
            con = self._connection(read_only=True)
        else:
            con = duckdb.connect(":memory:")
            ensure_schema(con)
        try:
            con.execute("SET TimeZone = 'UTC'")
            if self.target.is_lake and self.target.exists:
                con.execute(f"USE {LAKE_ALIAS}")
            yield DryRunParts(con, self.organization_id)
        except duckdb.Error as error:
            raise warehouse_error(self.target, error, self.memory) from error
        finally:
            close(con)

    @contextmanager
    def attached(self) -> Iterator[None]:
        """Writers and reads inside share one attachment of a lake catalogued in a server
        (``_sessions``): a run loading many files attaches once. Nothing for a DuckDB file,
        or a lake catalogued in a file, which each writer opens under its lock."""
        with attached(self.target, self.memory):
            yield

    def _connection(self, *, read_only: bool) -> duckdb.DuckDBPyConnection:
        """A writer's connection through the run's attachment of the lake when there is one
        (a reader's stays read-only: a new one), else a new one."""
        cursor = None if read_only else session_cursor(self.target)
        if cursor is not None:
            return cursor
        return connect_target(self.target, read_only=read_only, memory=self.memory)

    def maintain(
        self,
        *,
        retention_days: int,
        wait_seconds: float | None = None,
        step: UpkeepStep = no_steps,
    ) -> Upkeep:
        """Upkeep (``_upkeep``): a lake's inlined rows flushed, small files merged, snapshots
        older than ``retention_days`` expired (not those of filed inventories) and the files
        no snapshot needs deleted, safely beside running loads; a DuckDB file checkpointed.
        A file, or a lake whose catalog is a file, waits its turn as a writer does. ``step``
        is told each step as it starts."""
        if not self.target.exists:
            raise WarehouseError(f"{self.target}: no warehouse here yet (nothing has been loaded)")
        log_bytes = 0 if self.is_lake else wal_bytes(self.path)
        with self._writing(wait_seconds, creates_records=False) as con:
            if self.is_lake:
                return maintain_lake(con, retention_days=retention_days, step=step)
            return maintain_file(con, self.path, log_bytes, step)

    @contextmanager
    def _writing(
        self, wait_seconds: float | None, *, creates_records: bool = True
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-write connection, under the writers' lock: a file's, or in a lake that takes
        several writers, the organization's turn when the block ``creates_records`` (upkeep
        does not: its commits retry on conflict beside the loads). A DuckDB error inside the
        block leaves as WarehouseError."""
        lock: WriterLock | CatalogTurn | None = None
        if not self.shared:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = WriterLock(self.path)
        elif creates_records:
            lock = CatalogTurn(self.target, self.organization_id)
        if lock is not None:
            lock.acquire(self.wait_seconds if wait_seconds is None else wait_seconds, self.say)
        try:
            con = self._connection(read_only=False)
            try:
                yield con
            except duckdb.Error as error:
                raise warehouse_error(self.target, error, self.memory) from error
            finally:
                close(con)
        finally:
            if lock is not None:
                lock.release()

    @contextmanager
    def reading(self, organization_id: str | None = None) -> Iterator[None]:
        """Queries inside share one read-only connection (a report's dozen): a lake is attached
        once instead of once a query. With ``organization_id``, they see that organization's
        rows only: every table holding organizations' rows is shadowed, for this connection, by
        a view of its rows (the views built on them follow)."""
        if self._writer_con is not None or self._reader_con is not None:
            yield
            return
        if not self.target.exists:
            raise WarehouseError(f"{self.target}: no warehouse here yet (nothing has been loaded)")
        con = self._connection(read_only=True)
        try:
            if organization_id is not None:
                _only(con, organization_id)
            self._reader_con = con
            yield
        except duckdb.Error as error:
            raise warehouse_error(self.target, error, self.memory) from error
        finally:
            self._reader_con = None
            close(con)

    def at_snapshot(self, snapshot: int) -> Warehouse:
        """This lake, read-only, as it was at ``snapshot`` (a filed inventory reproduced);
        ValueError for a DuckDB file, which keeps no snapshots."""
        return Warehouse(self.target.at_snapshot(snapshot), memory=self.memory)

    def snapshot_id(self) -> int | None:
        """The lake's latest snapshot (the one this warehouse is read at, if it is pinned);
        None for a DuckDB file."""
        if not self.is_lake:
            return None
        if self.target.snapshot is not None:
            return self.target.snapshot
        with self.reading():
            con = self._reader_con or self._writer_con
            assert con is not None
            return current_snapshot(con, LAKE_ALIAS)

    def record_filed_inventory(
        self,
        filed: FiledRow,
        freeze: Freeze | None,
        estimates: pd.DataFrame | None = None,
    ) -> None:
        """Keep the filed inventory ``filed`` (a ``filed_inventories`` row), on a DuckDB file
        the copy of its records ``freeze`` names, and the ``estimates`` it counted: inside
        ``writer()`` in its transaction window (what was read through it is what is frozen),
        else in a writer of its own."""
        if self._writer_con is None:
            with self.writer():
                self.record_filed_inventory(filed, freeze, estimates)
            return
        con = self._writer_con
        try:
            retried_on_conflict(lambda: record_filed(con, filed, freeze, estimates))
        except duckdb.Error as error:
            raise warehouse_error(self.target, error, self.memory) from error

    def query(self, sql: str, params: Sequence[object] = ()) -> pd.DataFrame:
        """Run ``sql`` read-only and return its rows (timestamps in UTC).

        Inside ``writer()`` it reads through the writer's connection (DuckDB lets one process
        hold a file either read-write or read-only, not both), inside ``reading()`` through its
        connection.
        """
        with self._read_connection() as con:
            return fetch_frame(con.execute(sql, list(params)))

    def stream(
        self, sql: str, params: Sequence[object] = (), *, vectors: int = STREAM_VECTORS
    ) -> Iterator[pd.DataFrame]:
        """The rows of read-only ``sql`` as ``query`` gives them, ``vectors`` x 2,048 at a
        time: a result of any size, never held whole. The first frame carries the columns
        (empty when there is no row)."""
        with self._read_connection() as con:
            result = con.execute(sql, list(params))
            chunk = fetch_chunk(result, vectors)
            yield chunk
            while not chunk.empty:
                chunk = fetch_chunk(result, vectors)
                if not chunk.empty:
                    yield chunk

    @contextmanager
    def _read_connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The connection reads go through (see ``query``), in UTC and in the lake; a DuckDB
        error inside the block leaves as WarehouseError."""
        if self._reader_con is not None:  # its own views: not through a cursor
            con, owned = self._reader_con, False
        elif self._writer_con is not None:
            con, owned = self._writer_con.cursor(), True
        elif not self.target.exists:
            raise WarehouseError(f"{self.target}: no warehouse here yet (nothing has been loaded)")
        else:
            con, owned = self._connection(read_only=True), True
        try:
            con.execute("SET TimeZone = 'UTC'")
            if self.target.is_lake:
                con.execute(f"USE {LAKE_ALIAS}")  # a cursor starts in the in-memory catalog
            yield con
        except duckdb.Error as error:
            raise warehouse_error(self.target, error, self.memory) from error
        finally:
            if owned:
                close(con)


def _only(con: duckdb.DuckDBPyConnection, organization_id: str) -> None:
    """Shadow each organization table by a temporary view of ``organization_id``'s rows."""
    [(database,)] = con.execute("SELECT current_database()").fetchall()
    literal = organization_id.replace("'", "''")
    for table in ORGANIZATION_TABLES:
        con.execute(
            f'CREATE TEMP VIEW {table} AS SELECT * FROM "{database}".main.{table} '
            f"WHERE organization_id = '{literal}'"
        )
