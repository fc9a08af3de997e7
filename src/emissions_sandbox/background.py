"""The lifecycle every background worker of the sandbox shares: a daemon thread, a wake-up
event so new work starts at once, and a stop event honoured within one poll."""

from __future__ import annotations

import threading


class BackgroundWorker:
    """Subclasses implement ``_run``, looping until ``self._stop`` is set and waiting on
    ``self._wake`` between rounds."""

    thread_name = "sandbox-worker"

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def wake(self) -> None:
        """Called after work is written, so it starts without waiting for the next poll."""
        self._wake.set()

    def _run(self) -> None:
        raise NotImplementedError
