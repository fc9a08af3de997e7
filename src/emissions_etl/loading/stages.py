"""Where a load spends its time, stage by stage (read, validate, upload, calculate, land).

The figures go on the run summary and into the benchmark's output, so a slow load says why.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class StageClock:
    """Accumulates wall-clock seconds per named stage."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - started

    def timed(self, name: str, items: Iterable[T]) -> Iterator[T]:
        """Yields ``items``, counting the time spent producing each one under ``name``."""
        iterator = iter(items)
        while True:
            with self.stage(name):
                try:
                    item = next(iterator)
                except StopIteration:
                    return
            yield item
