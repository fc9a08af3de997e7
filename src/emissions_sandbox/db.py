"""SQLite access for the sandbox: one reading connection per thread, and one writing
connection that every write transaction uses in turn, serialised by a lock. A served sandbox
copies the write-ahead log back into the database file on a thread of its own
(`WalCheckpointer`).

Every table's DDL is applied by `Database.migrate()`, with the reference data.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from emissions_sandbox.background import BackgroundWorker

log = logging.getLogger(__name__)

# SQLite empties a connection's page cache whenever another connection has written. With one
# writing connection its cache survives from one write transaction to the next, so the index
# pages a bulk insert or a calculated chunk touches (a 5,000-record POST dirties most leaves of
# the uuid-keyed indexes) are read and written without going to the file; 2 MiB (the default)
# holds too few of them, 64 MiB all of them for some hundred thousand wastes.
WRITER_CACHE_KIB = 64 * 1024
SQLITE_AUTOCHECKPOINT_PAGES = 1000  # SQLite's default wal_autocheckpoint
#: The checkpointer copies the log at most this often, once a commit has woken it: a bulk write
#: commits many times a second, and each checkpoint syncs the file.
CHECKPOINT_POLL_SECONDS = 0.1
#: How long the checkpointer sleeps when nothing is committed in this process (another process,
#: such as `emissions-sandbox create-org`, writes without waking it).
CHECKPOINT_IDLE_SECONDS = 5.0


class _FairLock:
    """A FIFO lock: writers get the database in arrival order, so a busy worker that releases
    and re-acquires at once cannot starve request threads (threading.Lock is not fair)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._next_ticket = 0
        self._serving = 0

    def __enter__(self) -> None:
        with self._condition:
            ticket = self._next_ticket
            self._next_ticket += 1
            self._condition.wait_for(lambda: self._serving == ticket)

    def __exit__(self, *exc: object) -> None:
        with self._condition:
            self._serving += 1
            self._condition.notify_all()


class Database:
    """A sandbox database file; safe to share between the request threads and the worker."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._write_lock = _FairLock()
        self._local = threading.local()
        self._writer: sqlite3.Connection | None = None
        self._committed: list[Callable[[], None]] = []

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every write transaction commits, on the committing thread:
        background threads wait for it instead of polling an idle database."""
        self._committed.append(listener)

    def connect(self) -> sqlite3.Connection:
        """A new connection (autocommit; use `transaction()` for writes)."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def reader(self) -> sqlite3.Connection:
        """This thread's connection, for reads outside a transaction."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.connect()
            self._local.conn = conn
        return conn

    def _writer_connection(self) -> sqlite3.Connection:
        """The connection of every write transaction; only used with the write lock held."""
        if self._writer is None:
            self._writer = self.connect()
            self._writer.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB}")
        return self._writer

    def set_autocheckpoint(self, enabled: bool) -> None:
        """Whether a commit that takes the WAL past SQLite's threshold also checkpoints it."""
        pages = SQLITE_AUTOCHECKPOINT_PAGES if enabled else 0
        with self._write_lock:
            self._writer_connection().execute(f"PRAGMA wal_autocheckpoint={pages}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: commits on success, rolls back on error, one writer at a time.

        It runs on the writing connection, so `reader()` sees its writes once it has committed.
        """
        with self._write_lock:
            conn = self._writer_connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        for listener in self._committed:
            listener()

    def migrate(self) -> None:
        """Create or upgrade every table (ours and each extension's) and load reference data."""
        from emissions_sandbox import extensions
        from emissions_sandbox.accounts import jwt_secret
        from emissions_sandbox.reference_data import load_reference_data
        from emissions_sandbox.schema import SCHEMA_SQL

        conn = self.reader()
        with self._write_lock:
            conn.executescript(SCHEMA_SQL)
            for extension_schema in extensions.schema_sql():
                conn.executescript(extension_schema)
        with self.transaction() as tx:
            load_reference_data(tx)
            jwt_secret(tx)  # made here, so request threads only ever read it


class WalCheckpointer(BackgroundWorker):
    """Copies the WAL back into the database file, on its own thread and connection, while it
    runs: otherwise the commit that takes the WAL past 1,000 pages copies it all first, and a
    5,000-record POST writes several thousand pages, so each one paid for it, most of its
    commit's time. A PASSIVE checkpoint waits for no reader or writer."""

    thread_name = "wal-checkpointer"

    def __init__(
        self,
        db: Database,
        poll_seconds: float = CHECKPOINT_POLL_SECONDS,
        idle_seconds: float = CHECKPOINT_IDLE_SECONDS,
    ) -> None:
        super().__init__()
        self._db = db
        self._poll_seconds = poll_seconds
        self._idle_seconds = idle_seconds

    def start(self) -> None:
        self._db.set_autocheckpoint(False)
        self._db.on_commit(self.wake)
        super().start()

    def stop(self) -> None:
        super().stop()
        self._db.set_autocheckpoint(True)

    def _run(self) -> None:
        """Checkpoint once a commit has woken it and ``poll_seconds`` have let the commits of a
        burst land; an idle sandbox wakes it every ``idle_seconds`` only (polling it often was
        the larger part of what an idle sandbox spent)."""
        conn = self._db.connect()
        try:
            while not self._stop.is_set():
                woken = self._wake.wait(self._idle_seconds)
                if woken and self._stop.wait(self._poll_seconds):
                    return
                self._wake.clear()
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    log.exception("WAL checkpoint failed; retried at the next commit")
        finally:
            conn.close()
