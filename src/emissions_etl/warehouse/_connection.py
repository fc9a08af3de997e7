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

#: Attempts and pause between them while the file is locked by another program.
CONNECT_ATTEMPTS = 5
CONNECT_PAUSE_SECONDS = 0.4

#: DuckDB's buffer cap for our connections (it defaults to 80 % of the machine's memory).
MEMORY_LIMIT = "256MB"
#: WAL size that triggers a checkpoint. At DuckDB's 16 MB a 200,000-row load checkpointed
#: about 40 times, 2.5 s in all; at 64 MB it is a few times, 1.5 s less, with no more memory.
CHECKPOINT_THRESHOLD = "64MB"
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
            # A load streams batches; DuckDB need not cache the whole file in memory for it.
            con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
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
    """The first line of an error's message (DuckDB adds hints on further lines)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _is_lock_error(error: duckdb.Error) -> bool:
    return "lock" in str(error).lower()


def _lock_message(path: Path, error: duckdb.Error) -> str:
    holder = _HOLDER.search(str(error))
    who = f"{Path(holder['exe']).name} (pid {holder['pid']})" if holder else "another program"
    return f"{path} is open in {who}; close it there and try again"
