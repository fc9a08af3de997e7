"""Writers of a lake commit at once: a commit that conflicts with another writer's is tried
again, after a pause with jitter, a bounded number of times (DuckLake detects the conflict and
rolls the transaction back; every writer operation is a replace by key, so running it again is
safe). A DuckDB file has one writer and never conflicts."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import duckdb

T = TypeVar("T")
P = ParamSpec("P")

#: Tries of one operation, and the first pause (doubled each time, with jitter).
ATTEMPTS = 8
FIRST_PAUSE_SECONDS = 0.05


def is_conflict(error: BaseException) -> bool:
    """A commit refused because another writer changed what it read or wrote."""
    return isinstance(error, duckdb.TransactionException) or "conflict" in str(error).lower()


def retried_on_conflict(
    operation: Callable[[], T], *, sleep: Callable[[float], None] = time.sleep
) -> T:
    """``operation()``, run again while it fails on a conflict (``ATTEMPTS`` at most)."""
    pause = FIRST_PAUSE_SECONDS
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return operation()
        except duckdb.Error as error:
            if attempt == ATTEMPTS or not is_conflict(error):
                raise
        sleep(pause * random.uniform(0.5, 1.5))
        pause *= 2
    raise AssertionError("unreachable")  # the loop returns or raises


def retrying(method: Callable[P, T]) -> Callable[P, T]:
    """A writer method run again on a conflict (see ``retried_on_conflict``)."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        return retried_on_conflict(lambda: method(*args, **kwargs))

    return wrapper
