"""Land a pandas frame through Arrow with dlt's delete-insert pattern, in one transaction.

etl-anchors §4: INSERT from Arrow is the fastest path, row-by-row ``executemany`` far slower,
and ON CONFLICT silently keeps the *first* of two duplicate keys.
So every batch is deduplicated first (last row wins), then ``DELETE ... WHERE key IN (staged)``
and ``INSERT ... BY NAME SELECT ... FROM staged`` run together.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

import duckdb
import pandas as pd
import pyarrow as pa

from emissions_etl.warehouse._resting import release

_names = itertools.count()

#: Rows of the writer's organization (null: a warehouse of one organization, not named).
OWN = "organization_id IS NOT DISTINCT FROM ?"


def quote(identifier: str) -> str:
    """``identifier`` as a DuckDB quoted identifier."""
    return '"' + identifier.replace('"', '""') + '"'


def to_arrow(frame: pd.DataFrame) -> pa.Table:
    """The frame as an Arrow table; object columns mixing types (``"x"`` and ``3``) become text."""
    frame = frame.rename(columns=str)
    try:
        return pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        mixed = [name for name in frame.columns if frame[name].dtype == object]
        return pa.Table.from_pandas(
            frame.astype(dict.fromkeys(mixed, "string")), preserve_index=False
        )


def require_columns(frame: pd.DataFrame, required: Sequence[str], what: str) -> None:
    """ValueError naming the columns ``what`` needs and ``frame`` lacks."""
    missing = [name for name in required if name not in frame.columns]
    if missing:
        raise ValueError(f"{what}: frame lacks column(s) {', '.join(missing)}")


@contextmanager
def staged(con: duckdb.DuckDBPyConnection, frame: pd.DataFrame) -> Iterator[str]:
    """Register ``frame`` (as Arrow) on ``con`` under a fresh name, unregistered afterwards."""
    name = f"_staged_{next(_names)}"
    con.register(name, to_arrow(frame))
    try:
        yield name
    finally:
        con.unregister(name)


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """BEGIN ... COMMIT, or ROLLBACK on any error."""
    con.begin()
    try:
        yield
        con.commit()
    except BaseException:
        with suppress(duckdb.Error):  # a failed commit has ended the transaction already
            con.rollback()
        raise


def delete_insert(
    con: duckdb.DuckDBPyConnection,
    *,
    organization_id: str | None,
    table: str,
    resource: str,
    frame: pd.DataFrame,
    key: str,
    select: str,
    params: Sequence[object] = (),
) -> None:
    """Replace ``table``'s rows of ``organization_id``'s ``resource`` whose ``key`` is in
    ``frame``; last duplicate wins.

    ``select`` is the SELECT list producing the table's columns (except ``organization_id``
    and ``resource``) from the staged frame; ``params`` fill its ``?`` placeholders.
    """
    if frame.empty:
        return
    frame = frame.drop_duplicates(subset=[key], keep="last")
    with staged(con, frame) as name, transaction(con):
        con.execute(
            f"DELETE FROM {table} WHERE organization_id IS NOT DISTINCT FROM ? "
            f"AND resource = ? AND {quote(key)} IN "
            f"(SELECT CAST({quote(key)} AS VARCHAR) FROM {name})",
            [organization_id, resource],
        )
        con.execute(
            f"INSERT INTO {table} BY NAME SELECT ? AS organization_id, ? AS resource, "
            f"{select} FROM {name}",
            [organization_id, resource, *params],
        )
    release(con)


def delete_keys(
    con: duckdb.DuckDBPyConnection,
    *,
    organization_id: str | None,
    table: str,
    resource: str,
    key: str,
    values: Sequence[str],
) -> None:
    """Delete ``table``'s rows of ``organization_id``'s ``resource`` whose ``key`` is one of
    ``values``."""
    if len(values) == 0:
        return
    keys = pd.DataFrame({key: pd.Series(list(values), dtype="string")})
    with staged(con, keys) as name:
        con.execute(
            f"DELETE FROM {table} WHERE {OWN} AND resource = ? "
            f"AND {key} IN (SELECT {key} FROM {name})",
            [organization_id, resource],
        )
