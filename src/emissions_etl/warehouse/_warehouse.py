"""The warehouse file: an exclusive writer per load run, read-only queries for reports.

Writers take the cross-process lock first, then DuckDB's read-write connection, and keep the
write window to the run (etl-anchors §4: one writer process; analysts read when it is closed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse._connection import connect, fetch_frame, first_line
from emissions_etl.warehouse._lock import Say, WriterLock
from emissions_etl.warehouse._schema import ensure_schema
from emissions_etl.warehouse._writer import WarehouseWriter

#: How long a writer waits for another load holding the file before it gives up (a nightly
#: run's file may take minutes; runs of one Prefect server take turns before they get here).
WRITER_WAIT_SECONDS = 600.0


class Warehouse:
    """One DuckDB file (default ``warehouse.duckdb``) holding every load run and its results.

    ``say`` receives the lines a writer has for a person while it waits for another load
    (``waiting for ...: another load (pid n) is writing it; 30 s of at most 600 s``).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        wait_seconds: float = WRITER_WAIT_SECONDS,
        say: Say | None = None,
    ) -> None:
        self.path = Path(path)
        self.wait_seconds = wait_seconds
        self.say = say
        self._writer_con: duckdb.DuckDBPyConnection | None = None

    def __repr__(self) -> str:
        return f"Warehouse({str(self.path)!r})"

    @property
    def writers_take_turns(self) -> bool:
        """True: one process writes the file at a time (a DuckDB file). Runs that write it
        should queue (``orchestration.warehouse_turns``); a warehouse that takes several writers
        at once would say False."""
        return True

    @contextmanager
    def writer(self, *, wait_seconds: float | None = None) -> Iterator[WarehouseWriter]:
        """The exclusive writer for one load run; creates or upgrades the schema first.

        Waits up to ``wait_seconds`` (default: the warehouse's) for another load holding
        ``<path>.lock``, telling ``say`` now and then, then raises WarehouseError naming its
        pid. A DuckDB error inside the block leaves as WarehouseError.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = WriterLock(self.path)
        lock.acquire(self.wait_seconds if wait_seconds is None else wait_seconds, self.say)
        try:
            con = connect(self.path)
            try:
                ensure_schema(con)
                self._writer_con = con
                yield WarehouseWriter(con)
            except duckdb.Error as error:
                raise WarehouseError(f"{self.path}: {first_line(error)}") from error
            finally:
                self._writer_con = None
                con.close()
        finally:
            lock.release()

    def query(self, sql: str, params: Sequence[Any] = ()) -> pd.DataFrame:
        """Run ``sql`` read-only and return its rows (timestamps in UTC).

        Inside ``writer()`` it reads through the writer's connection (DuckDB lets one process
        hold the file either read-write or read-only, not both).
        """
        if self._writer_con is not None:
            return _run(self._writer_con.cursor(), sql, params, self.path)
        if not self.path.exists():
            raise WarehouseError(f"{self.path}: no warehouse here yet (nothing has been loaded)")
        return _run(connect(self.path, read_only=True), sql, params, self.path)


def _run(
    con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any], path: Path
) -> pd.DataFrame:
    try:
        con.execute("SET TimeZone = 'UTC'")
        return fetch_frame(con.execute(sql, list(params)))
    except duckdb.Error as error:
        raise WarehouseError(f"{path}: {first_line(error)}") from error
    finally:
        con.close()
