"""A lake attached once for a run that loads many files (issue #26).

Attaching a lake loads two extensions and reads its catalog, which a run of many
small files, and the sums it refreshes at the end, would otherwise pay once a file. While
``attached`` runs, every writer and read of that lake in this process takes a cursor of the one
attachment: a connection of its own to the same DuckDB, so the lake stays attached and no two
threads share a connection. Only a lake whose catalog is a server: a DuckDB file (or a lake
catalogued in a file) is opened by each writer under its lock, so another load may write
between two files.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import duckdb

from emissions_etl.warehouse._connection import close, connect_target, cursor_of
from emissions_etl.warehouse._memory import MemorySettings
from emissions_etl.warehouse._target import WarehouseTarget


@dataclass
class _Session:
    con: duckdb.DuckDBPyConnection
    memory: MemorySettings
    #: Blocks of ``attached`` running over it (nested ones share it).
    users: int = 1
    #: Organizations whose writer has checked the schema and the inventory views already.
    checked: set[str | None] = field(default_factory=set)


_sessions: dict[tuple[str, str | None], _Session] = {}
_lock = threading.Lock()


def _key(target: WarehouseTarget) -> tuple[str, str | None]:
    return (target.location, target.lake_data_path())


@contextmanager
def attached(target: WarehouseTarget, memory: MemorySettings) -> Iterator[None]:
    """Keep ``target`` attached while the block runs (nothing for a warehouse that is not a
    lake catalogued in a server)."""
    if not target.is_postgres:
        yield
        return
    key = _key(target)
    with _lock:
        session = _sessions.get(key)
        if session is not None:
            session.users += 1
    if session is None:
        session = _Session(connect_target(target, memory=memory), memory)
        with _lock:
            _sessions[key] = session
    try:
        yield
    finally:
        with _lock:
            session.users -= 1
            last = session.users == 0
            if last:
                del _sessions[key]
        if last:
            close(session.con)


def session_cursor(target: WarehouseTarget) -> duckdb.DuckDBPyConnection | None:
    """A connection to ``target`` through its attachment, ready as ``connect_target``'s; None
    when the lake is not attached for a run."""
    with _lock:
        session = _sessions.get(_key(target))
    return None if session is None else cursor_of(session.con, session.memory)


def schema_checked(target: WarehouseTarget, organization_id: str | None) -> bool:
    """Whether a writer of ``organization_id`` checked the schema and the inventory views in
    the run's attachment already (later writers need not); False outside one."""
    with _lock:
        session = _sessions.get(_key(target))
        return session is not None and organization_id in session.checked


def mark_schema_checked(target: WarehouseTarget, organization_id: str | None) -> None:
    """A writer of ``organization_id`` checked the schema and views (see ``schema_checked``)."""
    with _lock:
        session = _sessions.get(_key(target))
        if session is not None:
            session.checked.add(organization_id)
