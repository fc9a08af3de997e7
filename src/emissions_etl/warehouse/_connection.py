"""Open the DuckDB file, retrying briefly while another program holds it, in UTC.

DuckDB refuses a second process at once (etl-anchors §4: "Could not set lock on file ...
Conflicting lock is held in <exe> (PID n)"), e.g. an analyst's notebook; we retry a few times,
then raise one clear line instead of the driver's message.
"""

from __future__ import annotations

import re
import time
import warnings
from pathlib import Path

import duckdb
import pandas as pd
from pandas.errors import Pandas4Warning

from emissions_etl.errors import WarehouseError
from emissions_etl.scrubbing import scrub
from emissions_etl.warehouse._conflicts import is_conflict
from emissions_etl.warehouse._extensions import forbid_downloads, load_packaged
from emissions_etl.warehouse._store_secret import attach_store
from emissions_etl.warehouse._target import WarehouseTarget

#: Attempts and pause between them while the file is locked by another program.
CONNECT_ATTEMPTS = 5
CONNECT_PAUSE_SECONDS = 0.4

#: DuckDB's buffer cap (it defaults to 80 % of the machine's memory). A load appends batches of
#: 25,000 rows and looks keys up: it needs little cache, and what does not fit spills to
#: ``<file>.tmp``. At 256 MB DuckDB kept some 180 MB of the pages it had written, and a
#: 200,000-row load peaked at 692 MB instead of 510 (bench_pipeline), at the same speed.
WRITER_MEMORY_LIMIT = "64MB"
#: Reports and analysts' queries scan whole views: more room before they spill.
READER_MEMORY_LIMIT = "256MB"
#: WAL size that triggers a checkpoint. A checkpoint writes the rows appended since the one before
#: as row groups, and later checkpoints merge small row groups again: checkpointing every 25,000
#: rows cost 1.9 s for 400,000 rows of one table, every 100,000 rows or more 0.4 s (measured,
#: duckdb 2.0). A waste load writes some 1.5 KB of WAL a row, so 256 MB is one checkpoint every
#: ~170,000 rows: a 400,000-row load spent 4.9 s checkpointing at 64 MB, 2.5 s at 256 MB.
CHECKPOINT_THRESHOLD = "256MB"
_STORED_DATA_PATH = re.compile(r"Data path (?P<path>\S+) requires the extension httpfs")
_HOLDER = re.compile(r"held in (?P<exe>\S+) \(PID (?P<pid>\d+)\)")


def connect(
    path: Path,
    *,
    read_only: bool = False,
    attempts: int = CONNECT_ATTEMPTS,
    pause_seconds: float = CONNECT_PAUSE_SECONDS,
) -> duckdb.DuckDBPyConnection:
    """A connection to ``path`` whose session reads timestamps in UTC."""
    for attempt in range(1, attempts + 1):
        try:
            con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.ConnectionException as error:
            if not (read_only and "different configuration" in str(error)):
                raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
            # This process already holds the file read-write (another Warehouse object's
            # writer); a read-write connect shares that instance instead of failing.
            con = duckdb.connect(str(path))
            con.execute("SET TimeZone = 'UTC'")
            return con
        except duckdb.IOException as error:
            if not _is_lock_error(error):
                raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
            if attempt == attempts:
                raise WarehouseError(_lock_message(path, error)) from error
            time.sleep(pause_seconds)
        except duckdb.Error as error:
            raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
        else:
            con.execute("SET TimeZone = 'UTC'")
            limit = READER_MEMORY_LIMIT if read_only else WRITER_MEMORY_LIMIT
            con.execute(f"SET memory_limit = '{limit}'")
            if not read_only:
                con.execute(f"SET checkpoint_threshold = '{CHECKPOINT_THRESHOLD}'")
            return con
    raise AssertionError("unreachable")  # the loop returns or raises


def fetch_frame(result: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The executed statement's rows as a DataFrame.

    duckdb 2.0's ``df()`` calls ``DataFrame.drop(inplace=True)`` for TIMESTAMPTZ columns, which
    pandas 3.1 deprecates; the warning is theirs, not the caller's, so it is silenced here.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*inplace.*", category=Pandas4Warning)
        return result.df()


def first_line(error: BaseException) -> str:
    """The first line of an error's message (DuckDB adds hints on further lines), with every
    credential scrubbed: DuckDB quotes a catalog's conninfo, password and all."""
    text = str(error).strip()
    return scrub(text.splitlines()[0]) if text else type(error).__name__


def _is_lock_error(error: duckdb.Error) -> bool:
    return "lock" in str(error).lower()


def _lock_message(path: Path, error: duckdb.Error) -> str:
    holder = _HOLDER.search(str(error))
    who = f"{Path(holder['exe']).name} (pid {holder['pid']})" if holder else "another program"
    return f"{path} is open in {who}; close it there and try again"


#: The name a lake is attached under (``USE lake``: every statement reads and writes it).
LAKE_ALIAS = "lake"


def connect_target(
    target: WarehouseTarget, *, read_only: bool = False
) -> duckdb.DuckDBPyConnection:
    """A connection to the warehouse ``target``: its DuckDB file, or an in-memory DuckDB with
    the lake attached (extensions from their packages) and in use."""
    if not target.is_lake:
        return connect(target.path, read_only=read_only)
    con = duckdb.connect()
    try:
        forbid_downloads(con)
        load_packaged(con, "ducklake")
        if target.is_postgres:
            load_packaged(con, "postgres_scanner")
        attach_store(con, target.lake_data_path())
        options = (
            []
            if target.lake_data_path() is None
            else [f"DATA_PATH '{_quoted(str(target.lake_data_path()))}'"]
        )
        if target.snapshot is not None:  # the lake as it was then: never written
            options.append(f"SNAPSHOT_VERSION {int(target.snapshot)}")
        if read_only or target.snapshot is not None:
            options.append("READ_ONLY")
        clause = f" ({', '.join(options)})" if options else ""
        statement = f"ATTACH '{_quoted(target.location)}' AS {LAKE_ALIAS}{clause}"
        try:
            _attach(con, statement)
        except duckdb.Error as error:
            # A lake's catalog names its data path: one in a store needs httpfs before ATTACH,
            # when the user did not name it (a report, an analyst's query).
            stored = _STORED_DATA_PATH.search(str(error))
            if stored is None or target.lake_data_path() is not None:
                raise
            attach_store(con, stored["path"])
            _attach(con, statement)
        con.execute(f"USE {LAKE_ALIAS}")
        con.execute("SET TimeZone = 'UTC'")
        limit = READER_MEMORY_LIMIT if read_only else WRITER_MEMORY_LIMIT
        con.execute(f"SET memory_limit = '{limit}'")
    except WarehouseError:
        con.close()
        raise
    except duckdb.Error as error:
        con.close()
        raise WarehouseError(
            f"{target}: cannot attach the lake ({_masked(first_line(error), target)})"
        ) from error
    return con


def _attach(con: duckdb.DuckDBPyConnection, statement: str) -> None:
    """ATTACH, again while another writer is creating the same new catalog (the first attach of
    a lake creates its tables; two at once collide in PostgreSQL's catalog)."""
    for attempt in range(1, CONNECT_ATTEMPTS + 1):
        try:
            con.execute(statement)
            return
        except duckdb.Error as error:
            creating = any(
                word in str(error).lower() for word in ("duplicate key", "already exists")
            )
            if attempt == CONNECT_ATTEMPTS or not (creating or is_conflict(error)):
                raise
            time.sleep(CONNECT_PAUSE_SECONDS * attempt)


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def _masked(text: str, target: WarehouseTarget) -> str:
    """An error that may quote the conninfo, with the target's password masked."""
    return scrub(text.replace(target.location, str(WarehouseTarget(target.location))))
