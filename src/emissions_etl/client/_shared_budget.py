"""LocalTokenSource: token pools in SQLite, in memory for one process or in a file for a machine.

Every process using one API key on one machine opens the same file (WAL mode) and takes its
tokens in ``BEGIN IMMEDIATE`` transactions, so two CLI loads split a window's allowance and the
concurrency cap between them instead of each believing it owns all of it. A token taken by a
process that died is reclaimed: its row names the process (host, pid) and carries an expiry.
"""

from __future__ import annotations

import math
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from emissions_etl.client._token_source import POLL_SECONDS, Bucket, Lease
from emissions_etl.errors import ConfigurationError

#: Where every process of one user meets by default (the ``EMISSIONS_LIMITS_FILE`` setting).
DEFAULT_LIMITS_FILE = Path("~/.cache/emissions-etl/limits.sqlite3")

#: A token whose request has not been settled after this long is reclaimed even if its process
#: still runs (far beyond the client's request timeout): it covers a pid reused after a crash.
LEASE_SECONDS = 600.0
#: How long a process waits for another one holding the file's write lock (a transaction here
#: lasts milliseconds: a longer hold is a stuck or suspended process).
LOCK_WAIT_SECONDS = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY,
    bucket TEXT NOT NULL,
    returns_at REAL,              -- NULL while the request is in flight
    expires_at REAL NOT NULL,     -- an unsettled token is reclaimed after this
    reclaim_delay REAL NOT NULL,  -- seconds it stays taken once reclaimed
    host TEXT NOT NULL,
    pid INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_bucket ON tokens (bucket, returns_at);
"""


class LocalTokenSource:
    """Token pools shared by every process opening ``path``; in memory when ``path`` is None."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        lease_seconds: float = LEASE_SECONDS,
        lock_wait_seconds: float = LOCK_WAIT_SECONDS,
    ) -> None:
        self.path = path.expanduser() if path is not None else None
        self.lease_seconds = lease_seconds
        self.lock_wait_seconds = lock_wait_seconds
        self._host = socket.gethostname()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._pid = 0
        with self._lock:
            self._connection()  # an unusable path fails here, not at the first request

    def take(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        with self._lock:
            db = self._connection()
            # A plain read first (WAL readers never wait for a writer): a waiter polling a full
            # pool does not take the write lock the processes giving tokens back need.
            pool = self._pool(db, bucket, now)
            if pool.held >= capacity and not pool.stale:
                return pool.wait(now)
            with self._write(db):
                db.execute(
                    "DELETE FROM tokens WHERE bucket = ? AND returns_at <= ?", (bucket.name, now)
                )
                for token_id, reclaim in self._pool(db, bucket, now).stale:
                    db.execute(
                        "UPDATE tokens SET returns_at = ? WHERE id = ?", (now + reclaim, token_id)
                    )
                pool = self._pool(db, bucket, now)
                if pool.held >= capacity:
                    return pool.wait(now)
                row = db.execute(
                    "INSERT INTO tokens (bucket, returns_at, expires_at, reclaim_delay, host, pid)"
                    " VALUES (?, NULL, ?, ?, ?, ?)",
                    (bucket.name, now + self.lease_seconds, reclaim_delay, self._host, self._pid),
                )
                assert row.lastrowid is not None
                return Lease(bucket, row.lastrowid)

    def give_back(self, lease: Lease, returns_at: float) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tokens SET returns_at = ? WHERE id = ?", (returns_at, lease.token_id)
            )

    def match_server(
        self, bucket: Bucket, used: int, since: float, until: float, now: float
    ) -> None:
        if until <= now:
            return
        with self._transaction() as db:
            db.execute(
                "DELETE FROM tokens WHERE bucket = ? AND returns_at <= ?", (bucket.name, now)
            )
            (held,) = db.execute(
                "SELECT count(*) FROM tokens WHERE bucket = ?"
                " AND (returns_at IS NULL OR returns_at >= ?)",
                (bucket.name, min(since, until)),
            ).fetchone()
            unseen = used - held
            if unseen > 0:
                db.executemany(
                    "INSERT INTO tokens (bucket, returns_at, expires_at, reclaim_delay, host, pid)"
                    " VALUES (?, ?, ?, 0, ?, ?)",
                    [(bucket.name, until, until, self._host, self._pid)] * unseen,
                )

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __repr__(self) -> str:
        return f"LocalTokenSource({str(self.path) if self.path else 'in memory'})"

    def _pool(self, db: sqlite3.Connection, bucket: Bucket, now: float) -> _Pool:
        """The bucket's tokens still taken at ``now``; a dead process's count as stale."""
        pool = _Pool()
        rows = db.execute(
            "SELECT id, returns_at, expires_at, reclaim_delay, host, pid FROM tokens"
            " WHERE bucket = ? AND (returns_at IS NULL OR returns_at > ?)",
            (bucket.name, now),
        )
        for token_id, returns_at, expires_at, reclaim_delay, host, pid in rows:
            pool.held += 1
            if returns_at is not None:
                pool.next_return = min(pool.next_return, returns_at)
                continue
            pool.in_flight += 1
            dead = host == self._host and pid != self._pid and not _alive(pid)
            if dead or expires_at <= now:
                pool.stale.append((token_id, reclaim_delay))
        return pool

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._connection()
            with self._write(db):
                yield db

    @contextmanager
    def _write(self, db: sqlite3.Connection) -> Iterator[None]:
        """A write transaction that holds the file's write lock from its start."""
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise ConfigurationError(
                f"limits file {self.path}: {exc} (another process held it over "
                f"{self.lock_wait_seconds:g} s; is one stuck? EMISSIONS_LIMITS_FILE)"
            ) from exc
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _connection(self) -> sqlite3.Connection:
        """This process's connection (a forked child opens its own)."""
        if self._db is not None and self._pid == os.getpid():
            return self._db
        self._pid = os.getpid()
        try:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                str(self.path or ":memory:"),
                timeout=self.lock_wait_seconds,
                isolation_level=None,
                check_same_thread=False,
            )
            self._prepare(db)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigurationError(f"limits file {self.path} cannot be used: {exc}") from exc
        self._db = db
        return db

    def _prepare(self, db: sqlite3.Connection) -> None:
        """WAL mode and the table, tried again while another process does the same.

        Switching a new file to WAL takes its exclusive lock, and SQLite answers "database is
        locked" at once to a second process switching it too, without its busy handler: two
        loads started together would otherwise see one of them fail on an empty limits file.
        """
        deadline = time.monotonic() + self.lock_wait_seconds
        while True:
            try:
                # Reads first: processes starting together then rarely queue for the lock.
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'tokens'").fetchone():
                    db.executescript(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)


@dataclass
class _Pool:
    held: int = 0
    in_flight: int = 0
    next_return: float = math.inf
    stale: list[tuple[int, float]] = field(default_factory=list)  # (token id, reclaim delay)

    def wait(self, now: float) -> float:
        """Until the next known return; a request in flight may give its token back sooner."""
        wait = self.next_return - now
        return min(wait, POLL_SECONDS) if self.in_flight else wait


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
