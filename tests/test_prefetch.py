"""prefetched: the items in order, read ahead on a thread, errors where they happened, and a
producer that stops when the consumer does."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from emissions_etl.loading.prefetch import prefetched


def test_items_come_in_order_and_are_produced_on_another_thread() -> None:
    threads: list[str] = []

    def numbers() -> Iterator[int]:
        for n in range(5):
            threads.append(threading.current_thread().name)
            yield n

    assert list(prefetched(numbers(), name="reader")) == [0, 1, 2, 3, 4]
    assert set(threads) == {"reader"}


def test_the_next_item_is_read_while_the_consumer_works_on_this_one() -> None:
    produced: list[float] = []

    def slow() -> Iterator[int]:
        for n in range(3):
            time.sleep(0.2)
            produced.append(time.monotonic())
            yield n

    started = time.monotonic()
    for _ in prefetched(slow()):
        time.sleep(0.2)  # the consumer's own work on the item
    # sequential would be 6 x 0.2 s; reading ahead overlaps the two sides
    assert time.monotonic() - started < 1.0


def test_an_error_of_the_producer_is_raised_at_its_item() -> None:
    def failing() -> Iterator[int]:
        yield 1
        raise ValueError("line 7 is not a number")

    items = prefetched(failing())
    assert next(items) == 1
    with pytest.raises(ValueError, match="line 7"):
        next(items)


def test_a_consumer_that_stops_early_stops_and_closes_the_producer() -> None:
    closed = threading.Event()
    produced: list[int] = []

    def endless() -> Iterator[int]:
        try:
            n = 0
            while True:
                produced.append(n)
                yield n
                n += 1
        finally:
            closed.set()

    for item in prefetched(endless(), ahead=1):
        if item == 2:
            break
    assert closed.wait(5)
    assert len(produced) <= 5  # at most a couple ahead of the consumer, not endless
