"""Run an iterator on a thread of its own, one item ahead of its consumer.

A load reads and validates the next batch while the one before is being sent: the main thread
mostly waits for the service's answers, so reading ahead takes the reading off the critical
path (pandas and the CSV parser do most of their work without the GIL).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from queue import Empty, Full, Queue
from typing import TypeVar

T = TypeVar("T")

#: How often a blocked side checks whether the other side has gone.
_POLL_SECONDS = 0.1


class _End:
    """The producer has no more items."""


def prefetched(items: Iterator[T], *, ahead: int = 1, name: str = "prefetch") -> Iterator[T]:
    """Yield what ``items`` yields, produced on a daemon thread at most ``ahead`` items early.

    An exception raised by ``items`` is raised here, at the item where it happened. When the
    consumer stops early (an error, a ``break``), the producer stops too and ``items`` is
    closed on its own thread.
    """
    queue: Queue[T | _End | BaseException] = Queue(maxsize=ahead)
    stopped = threading.Event()

    def put(value: T | _End | BaseException) -> bool:
        while not stopped.is_set():
            try:
                queue.put(value, timeout=_POLL_SECONDS)
                return True
            except Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(item):
                    break
            else:
                put(_End())
        except BaseException as error:  # handed to the consumer, raised there
            put(error)
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    producer = threading.Thread(target=produce, name=name, daemon=True)
    producer.start()
    try:
        while True:
            try:
                value = queue.get(timeout=_POLL_SECONDS)
            except Empty:
                if not producer.is_alive() and queue.empty():
                    raise RuntimeError(f"{name}: the producer ended without a word") from None
                continue
            if isinstance(value, _End):
                return
            if isinstance(value, BaseException):
                raise value
            yield value
    finally:
        stopped.set()
        producer.join(timeout=30)
