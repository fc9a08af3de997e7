"""Open the DuckDB file, retrying briefly while another program holds it, in UTC, with the
memory limit and spill folder of ``_memory``.

DuckDB refuses a second process at once (etl-anchors §4: "Could not set lock on file ...
Conflicting lock is held in <exe> (PID n)"), e.g. an analyst's notebook; we retry a few times,
then raise one clear line instead of the driver's message.
"""

from __future__ import annotations

import contextlib
import re
import time
import warnings
from pathlib import Path

import duckdb
import pandas as pd
from pandas.errors import Pandas4Warning

from emissions_etl.duckdb_extensions import (
    LOAD_WITHOUT_SIGNATURE_CHECK,
    forbid_downloads,
    load_packaged,
)
from emissions_etl.errors import WarehouseError, WarehouseMemoryError
from emissions_etl.scrubbing import scrub
from emissions_etl.warehouse._conflicts import is_conflict
from emissions_etl.warehouse._memory import MemorySettings, shown, spill_closed, spill_folder
from emissions_etl.warehouse._resting import prepare, release
from emissions_etl.warehouse._store_secret import attach_store
from emissions_etl.warehouse._target import WarehouseTarget

#: Attempts and pause between them while the file is locked by another program.
CONNECT_ATTEMPTS = 5
CONNECT_PAUSE_SECONDS = 0.4

#: A lake writer's inserts of at most this many rows go into the catalog, not a Parquet file
#: of their own (DuckLake's data inlining; ``maintain-warehouse`` flushes them to files): a
#: small nightly load wrote 4 files and 8 snapshots, and a year of them millions of files.
INLINED_ROWS = 1000
#: Freed memory DuckDB's allocator keeps for reuse before it hands it back (default 128 MiB):
#: memory a load no longer uses should leave the process.
ALLOCATOR_FLUSH_THRESHOLD = "16MiB"
_STORED_DATA_PATH = re.compile(r"Data path (?P<path>\S+) requires the extension httpfs")
_HOLDER = re.compile(r"held in (?P<exe>\S+) \(PID (?P<pid>\d+)\)")

#: duckdb's ``df()`` calls ``DataFrame.drop(inplace=True)`` for TIMESTAMPTZ columns, which
#: pandas 3.1 deprecates. The warning is theirs, and pandas lays it at the line of ours that
#: fetched the frame: it is ignored there, and only there, by one filter set at import.
#: (``warnings.catch_warnings`` around each fetch swapped the whole process's filters and put
#: them back on leaving: a load's read-ahead thread fetching meanwhile let it through now and
#: then.)
_DUCKDBS_OWN_WARNING = r"The inplace keyword in DataFrame\.drop"
warnings.filterwarnings(
    "ignore", message=_DUCKDBS_OWN_WARNING, category=Pandas4Warning, module=re.escape(__name__)
)


def connect(
    path: Path,
    *,
    read_only: bool = False,
    memory: MemorySettings | None = None,
    attempts: int = CONNECT_ATTEMPTS,
    pause_seconds: float = CONNECT_PAUSE_SECONDS,
) -> duckdb.DuckDBPyConnection:
    """A connection to ``path`` whose session reads timestamps in UTC, within ``memory``'s
    limit and spilling to its folder."""
    config = _engine_config(WarehouseTarget(str(path)), memory)
    for attempt in range(1, attempts + 1):
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
        except duckdb.ConnectionException as error:
            if not (read_only and "different configuration" in str(error)):
                raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
            # This process already holds the file read-write (another Warehouse object's
            # writer); a read-write connect with that one's settings shares its instance (and
            # its spill folder) instead of failing.
            spill_closed(Path(str(config["temp_directory"])))
            con = duckdb.connect(str(path), config=_writers.get(str(path), {}))
            con.execute("SET TimeZone = 'UTC'")
            return con
        except duckdb.IOException as error:
            if not _is_lock_error(error) or attempt == attempts:
                spill_closed(Path(str(config["temp_directory"])))
            if not _is_lock_error(error):
                raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
            if attempt == attempts:
                raise WarehouseError(_lock_message(path, error)) from error
            time.sleep(pause_seconds)
        except duckdb.Error as error:
            spill_closed(Path(str(config["temp_directory"])))
            raise WarehouseError(f"{path}: cannot open ({first_line(error)})") from error
        else:
            _session(con, config, None if read_only else path.with_name(path.name + ".wal"))
            if not read_only:
                _writers[str(path)] = config
            return _opened(con, config)
    raise AssertionError("unreachable")  # the loop returns or raises


def fetch_frame(result: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The executed statement's rows as a DataFrame (``_DUCKDBS_OWN_WARNING``)."""
    return result.df()


def fetch_chunk(result: duckdb.DuckDBPyConnection, vectors: int) -> pd.DataFrame:
    """The next ``vectors`` x 2,048 rows of the executed statement, as ``fetch_frame`` gives
    them (empty once every row was fetched)."""
    return result.fetch_df_chunk(vectors)


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
    target: WarehouseTarget, *, read_only: bool = False, memory: MemorySettings | None = None
) -> duckdb.DuckDBPyConnection:
    """A connection to the warehouse ``target``: its DuckDB file, or an in-memory DuckDB with
    the lake attached (extensions from their packages) and in use; within ``memory``'s limit,
    spilling to its folder. Close it with ``close``."""
    if not target.is_lake:
        return connect(target.path, read_only=read_only, memory=memory)
    config = _engine_config(target, memory)
    con = _opened(duckdb.connect(config=config), config)
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
        else:
            options.append(f"DATA_INLINING_ROW_LIMIT {INLINED_ROWS}")
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
        _session(con, config, None)
    except WarehouseError:
        close(con)
        raise
    except duckdb.Error as error:
        close(con)
        raise WarehouseError(
            f"{target}: cannot attach the lake ({_masked(first_line(error), target)})"
        ) from error
    return con


#: DuckDB's start-up settings, as ``duckdb.connect(config=...)`` takes them.
EngineConfig = dict[str, str | bool | int | float | list[str]]


def cursor_of(con: duckdb.DuckDBPyConnection, memory: MemorySettings) -> duckdb.DuckDBPyConnection:
    """A connection of its own to ``con``'s DuckDB, the lake in use and its session ready as
    ``connect_target`` makes them (close it with ``close``: the DuckDB stays open)."""
    cursor = con.cursor()
    try:
        cursor.execute(f"USE {LAKE_ALIAS}")
        _session(cursor, {"memory_limit": memory.duckdb_limit()}, None)
    except duckdb.Error:
        cursor.close()
        raise
    return cursor


def _engine_config(target: WarehouseTarget, memory: MemorySettings | None) -> EngineConfig:
    """DuckDB's start-up settings: the memory limit, a spill folder of the connection's own
    (its parent made here: DuckDB makes only the last folder of the path), the threads if
    set."""
    memory = memory or MemorySettings()
    try:
        folder = spill_folder(target, memory)
    except OSError as error:
        raise WarehouseError(
            f"cannot make the folder DuckDB spills to, {memory.spill_root(target)} "
            f"({error.strerror}): set EMISSIONS_WAREHOUSE_TEMP (--warehouse-temp) to a folder "
            "this user can write"
        ) from error
    config: EngineConfig = {"memory_limit": memory.duckdb_limit(), "temp_directory": str(folder)}
    if target.is_lake:  # the packaged extensions load without their signature's check
        config.update(LOAD_WITHOUT_SIGNATURE_CHECK)
    if memory.threads is not None:
        config["threads"] = memory.threads
    return config


def _session(con: duckdb.DuckDBPyConnection, config: EngineConfig, wal: Path | None) -> None:
    """Timestamps in UTC; no progress bar (DuckDB draws one on the terminal during a long
    query, in the middle of a command's output); what a writer gives back between groups of
    rows (``_resting``; ``wal``: a file writer's log); DuckDB's allocator hands freed memory
    back to the system sooner."""
    con.execute("SET TimeZone = 'UTC'")
    con.execute("SET enable_progress_bar = false")
    prepare(con, limit=str(config["memory_limit"]), wal=wal)
    con.execute(f"SET allocator_flush_threshold = '{ALLOCATOR_FLUSH_THRESHOLD}'")


#: The spill folder of each connection opened here, by the connection's id.
_spill_folders: dict[int, Path] = {}
#: The settings of the file each read-write connection of this process holds, by path (a
#: reader of the same file in this process shares that instance: DuckDB wants the same).
_writers: dict[str, EngineConfig] = {}


def _opened(con: duckdb.DuckDBPyConnection, config: EngineConfig) -> duckdb.DuckDBPyConnection:
    _spill_folders[id(con)] = Path(str(config["temp_directory"]))
    return con


def close(con: duckdb.DuckDBPyConnection) -> None:
    """Close ``con``: a file writer's last checkpoint under the resting limit (``_resting``),
    then DuckDB removes its spill folder, ``spill_closed`` the root once empty (a cursor, or a
    connection sharing another's instance, has no folder of its own)."""
    if id(con) in _spill_folders:
        with contextlib.suppress(duckdb.Error):  # closing checkpoints anyway
            release(con, final=True)
    con.close()
    folder = _spill_folders.pop(id(con), None)
    if folder is not None:
        spill_closed(folder)
        for path, config in list(_writers.items()):
            if config["temp_directory"] == str(folder):
                del _writers[path]


def warehouse_error(
    target: WarehouseTarget, error: duckdb.Error, memory: MemorySettings | None = None
) -> WarehouseError:
    """``error`` as one line naming the warehouse; a limit met names the setting to raise."""
    text = _masked(first_line(error), target)
    if isinstance(error, duckdb.OutOfMemoryException) or "No space left" in text:
        memory = memory or MemorySettings()
        return WarehouseMemoryError(
            str(target),
            text,
            limit=memory.limit or f"{shown(memory.limit_bytes())}, {memory.default_share()}",
            spill_root=str(memory.spill_root(target)),
        )
    return WarehouseError(f"{target}: {text}")


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
