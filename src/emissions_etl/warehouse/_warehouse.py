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
from emissions_etl.warehouse._lock import WriterLock
from emissions_etl.warehouse._schema import ensure_schema
from emissions_etl.warehouse._writer import WarehouseWriter


class Warehouse:
    """One DuckDB file (default ``warehouse.duckdb``) holding every load run and its results."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._writer_con: duckdb.DuckDBPyConnection | None = None

    def __repr__(self) -> str:
        return f"Warehouse({str(self.path)!r})"

    @contextmanager
    def writer(self, *, wait_seconds: float = 30.0) -> Iterator[WarehouseWriter]:
        """The exclusive writer for one load run; creates or upgrades the schema first.

        Waits up to ``wait_seconds`` for another load holding ``<path>.lock``, then raises
        WarehouseError naming its pid. A DuckDB error inside the block leaves as WarehouseError.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = WriterLock(self.path)
        lock.acquire(wait_seconds)
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
