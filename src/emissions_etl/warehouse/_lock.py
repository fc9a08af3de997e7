"""One writer at a time across processes: an exclusive ``flock`` on ``<warehouse>.lock``.

DuckDB itself lets only one process open the file read-write, but fails at once; this lock lets a
second load wait its turn, saying now and then who it waits for, and give up after a bound
with one line naming the holder (interface §7: one writer at a time).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

from emissions_etl.errors import WarehouseError

_POLL_SECONDS = 0.05
#: The first "waiting for" line comes after this long (a short wait says nothing), then one
#: every ``PROGRESS_EVERY_SECONDS``.
PROGRESS_AFTER_SECONDS = 2.0
PROGRESS_EVERY_SECONDS = 30.0

#: Receives the lines a waiting writer has for a person (a logger's method, a print).
Say = Callable[[str], None]


class WriterLock:
    """An exclusive advisory lock on a file next to the warehouse, holding the owner's pid."""

    def __init__(self, warehouse_path: Path) -> None:
        self.warehouse_path = warehouse_path
        self.path = warehouse_path.with_name(warehouse_path.name + ".lock")
        self._fd: int | None = None

    def acquire(self, wait_seconds: float, say: Say | None = None) -> None:
        """Take the lock, polling up to ``wait_seconds`` and telling ``say`` how long it has
        waited and for whom; then WarehouseError, one line naming the holder."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)

        def take() -> bool:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True

        def waiting(seconds: float) -> str:
            return (
                f"waiting for {self.warehouse_path}: another load (pid {_read_pid(fd)}) "
                f"is writing it; {seconds:.0f} s of at most {wait_seconds:g} s"
            )

        if not wait_for_turn(take, wait_seconds, say, waiting, _POLL_SECONDS):
            holder = _read_pid(fd)
            os.close(fd)
            raise WarehouseError(
                f"{self.warehouse_path} is being written by another load "
                f"(pid {holder}); waited {wait_seconds:g} s: try again once it ends"
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        """Release the lock (the pid stays in the file; it means nothing once unlocked)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def wait_for_turn(
    take: Callable[[], bool],
    wait_seconds: float,
    say: Say | None,
    waiting: Callable[[float], str],
    poll_seconds: float,
) -> bool:
    """Call ``take`` every ``poll_seconds`` until it gets the turn (True) or ``wait_seconds``
    have passed (False), telling ``say`` ``waiting(seconds so far)`` after
    PROGRESS_AFTER_SECONDS, then every PROGRESS_EVERY_SECONDS."""
    started = time.monotonic()
    deadline = started + max(wait_seconds, 0.0)
    next_word = started + PROGRESS_AFTER_SECONDS
    while not take():
        now = time.monotonic()
        if now >= deadline:
            return False
        if say is not None and now >= next_word:
            say(waiting(now - started))
            next_word = now + PROGRESS_EVERY_SECONDS
        time.sleep(poll_seconds)
    return True


def _read_pid(fd: int) -> str:
    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return text if text.isdigit() else "unknown"
