"""The ``webhook-id``s already acted upon, so a re-delivered event is acknowledged and ignored.

The service delivers at least once: an attempt whose 2xx answer is lost is sent again with the
same ``webhook-id`` (Standard Webhooks: the id is the idempotency key). Bounded by count, oldest
forgotten first; retries of one event come within minutes, far inside the bound.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

DEFAULT_CAPACITY = 10_000


class SeenDeliveries:
    """A thread-safe, bounded set of webhook ids."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def add(self, webhook_id: str) -> bool:
        """Record ``webhook_id``; False when it was already there (a duplicate)."""
        with self._lock:
            if webhook_id in self._ids:
                return False
            self._ids[webhook_id] = None
            while len(self._ids) > self._capacity:
                self._ids.popitem(last=False)
            return True

    def discard(self, webhook_id: str) -> None:
        """Forget ``webhook_id``, so a retry of a delivery we failed to act on is taken."""
        with self._lock:
            self._ids.pop(webhook_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._ids)
