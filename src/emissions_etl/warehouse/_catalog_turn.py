"""One writer per organization at a time in a lake whose catalog is in PostgreSQL: the turn is a
session advisory lock that PostgreSQL itself keeps, on the catalog's database.

Two loads of one organization (a cron job and a person, two workers outside Prefect) would both
find a record missing in the service and both create it; loads of different organizations
write the lake at once. So a writer holds its organization's turn, on a connection of its own,
for the writer's life; a second writer of that organization waits and says so now and then
(as a file's second writer does, ``_lock``), then gives up after a bound naming the holder.
PostgreSQL releases the lock when the holder's session ends: a load that dies (killed, its
machine gone) gives the turn back when its connection closes, with nothing to clean up.

The lock's key is two integers: our namespace (``NAMESPACE``, so no other program's advisory
locks on that database meet ours) and 31 bits of the organization id's SHA-256. The holder
names itself in ``application_name`` (``emissions-etl pid 4242 on worker-2``), which is how
a waiting writer names it.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emissions_etl.errors import WarehouseError
from emissions_etl.scrubbing import scrub
from emissions_etl.warehouse._lock import Say, wait_for_turn
from emissions_etl.warehouse._target import POSTGRES_PREFIX, WarehouseTarget

#: The first key of every lock we take: 31 bits of "emissions-etl organization turn".
NAMESPACE = zlib.crc32(b"emissions-etl organization turn") & 0x7FFFFFFF
_POLL_SECONDS = 0.25
_CONNECT_TIMEOUT_SECONDS = 15
_APPLICATION = "emissions-etl"
_HOLDER = """
SELECT a.application_name, a.client_addr
FROM pg_locks AS l JOIN pg_stat_activity AS a USING (pid)
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
  AND l.classid = %s::bigint::oid AND l.objid = %s::bigint::oid
LIMIT 1
"""

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[tuple[object, ...]]


@dataclass
class _Held:
    """A turn this thread holds, and how many writers of this thread share it."""

    con: Connection
    depth: int = 1


#: The turns this thread holds, by (conninfo, key): a writer opened inside another of the same
#: organization, in the same thread, shares its turn (a second session would wait for it).
_held = threading.local()


def organization_key(organization_id: str | None) -> int:
    """The lock's second key: 31 bits of the organization id's SHA-256 ("" for a lake of one
    organization that does not name it)."""
    digest = hashlib.sha256((organization_id or "").encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class CatalogTurn:
    """The turn of ``organization_id`` among the writers of the lake ``target`` (its catalog in
    PostgreSQL)."""

    def __init__(self, target: WarehouseTarget, organization_id: str | None) -> None:
        if not target.is_postgres:
            raise ValueError(f"{target} has no PostgreSQL catalog")
        self.target = target
        self.organization_id = organization_id
        self.conninfo = target.location[len(POSTGRES_PREFIX) :]
        self.key = organization_key(organization_id)
        self._entry: _Held | None = None

    @property
    def what(self) -> str:
        """``organization 8d0c... in the lake`` (the lake's target, password masked)."""
        who = f"organization {self.organization_id}" if self.organization_id else "the organization"
        return f"{who} in the lake {self.target}"

    def acquire(self, wait_seconds: float, say: Say | None = None) -> None:
        """Take the turn, polling up to ``wait_seconds`` and telling ``say`` how long it has
        waited and for whom; then WarehouseError, one line naming the holder."""
        held = _thread_turns()
        entry = held.get((self.conninfo, self.key))
        if entry is not None:
            entry.depth += 1
            self._entry = entry
            return
        con = self._connect()
        try:
            self._wait(con, wait_seconds, say)
        except BaseException:
            con.close()
            raise
        self._entry = held[(self.conninfo, self.key)] = _Held(con)

    def release(self) -> None:
        """Give the turn back (closing its connection, which PostgreSQL would do for a process
        that died)."""
        entry, self._entry = self._entry, None
        if entry is None:
            return
        entry.depth -= 1
        if entry.depth > 0:
            return
        _thread_turns().pop((self.conninfo, self.key), None)
        entry.con.close()  # the session ends: PostgreSQL releases its advisory locks

    def _connect(self) -> Connection:
        # Imported here: only a lake catalogued in PostgreSQL takes turns, and importing psycopg
        # would cost every other process (each command, each flow run) CPU at start-up.
        import psycopg

        name = f"{_APPLICATION} pid {os.getpid()} on {socket.gethostname()}"[:63]
        try:
            return psycopg.connect(
                self.conninfo,
                autocommit=True,
                application_name=name,
                connect_timeout=_CONNECT_TIMEOUT_SECONDS,
            )
        except psycopg.Error as error:
            raise WarehouseError(
                f"{self.target}: cannot reach the catalog to take the organization's turn "
                f"({_first_line(error)})"
            ) from None

    def _wait(self, con: Connection, wait_seconds: float, say: Say | None) -> None:
        import psycopg  # imported by ``_connect`` already

        def waiting(seconds: float) -> str:
            return (
                f"waiting for {self.what}: another load ({self._holder(con)}) is loading it; "
                f"{seconds:.0f} s of at most {wait_seconds:g} s"
            )

        try:
            taken = wait_for_turn(
                lambda: _try_lock(con, self.key), wait_seconds, say, waiting, _POLL_SECONDS
            )
            if not taken:
                raise WarehouseError(
                    f"{self.what} is being loaded by another load ({self._holder(con)}); "
                    f"waited {wait_seconds:g} s: try again once it ends"
                )
        except psycopg.Error as error:
            raise WarehouseError(
                f"{self.target}: the organization's turn failed ({_first_line(error)})"
            ) from None

    def _holder(self, con: Connection) -> str:
        """``pid 4242 on worker-2`` from the holder's application name, else its address."""
        row = con.execute(_HOLDER, (NAMESPACE, self.key)).fetchone()
        if row is None:
            return "unknown"
        name, address = str(row[0] or ""), row[1]
        if name.startswith(f"{_APPLICATION} "):
            return name[len(_APPLICATION) + 1 :]
        return f"{name or 'a session'} from {address or 'this server'}"


def _try_lock(con: Connection, key: int) -> bool:
    row = con.execute("SELECT pg_try_advisory_lock(%s, %s)", (NAMESPACE, key)).fetchone()
    return bool(row and row[0])


def _thread_turns() -> dict[tuple[str, int], _Held]:
    turns: dict[tuple[str, int], _Held] | None = getattr(_held, "turns", None)
    if turns is None:
        turns = _held.turns = {}
    return turns


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return scrub(text.splitlines()[0] if text else type(error).__name__)
