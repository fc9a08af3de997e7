"""PrefectTokenSource: a coarse share of one API key's rate between workers on several machines.

A machine's processes share a LocalTokenSource file; machines share nothing but Prefect. Each
process leases ``occupy`` tokens at a time from a Prefect global concurrency limit used as a rate
limit (``rate_limit(name, occupy=k, strict=True)``: its slots decay at ``slot_decay_per_second``)
and spends them through its local source, which still keeps every server window within the
limit and settles each token from the server's headers. One Prefect call per ``occupy`` requests:
per-request calls top out near 10/s (etl-anchors §2.2), far under a 30/s budget.

Create one limit per rate-limited endpoint, named by ``limit_name`` (``name_of`` chooses another
name, e.g. a prefix per API key when workers use several keys):
``prefect gcl create emissions-etl-post-v1-logistics-requests --limit 20
--slot-decay-per-second 28.5``. The decay is what all workers together may use of the key's
30/s; the limit, two leases, bounds the burst above it. Measured (bench_limiter ``rate-prefect``,
two processes, a busy 2-core machine): 26 req/s with ``occupy`` 10, 22.5 with 5, no 429.
Concurrency slots are not shared through Prefect (a slot per request would cost an API call each
way): give each worker a share of the cap in its policies.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from collections.abc import Callable

from emissions_etl.client._shared_budget import LocalTokenSource
from emissions_etl.client._token_source import POLL_SECONDS, Bucket, Lease, TokenSource

DEFAULT_OCCUPY = 10


def limit_name(bucket: Bucket, prefix: str = "emissions-etl") -> str:
    """``emissions-etl-post-v1-logistics-requests``: Prefect names may not contain ``/``."""
    route = re.sub(r"[^a-z0-9]+", "-", bucket.route.lower()).strip("-")
    return f"{prefix}-{bucket.method.lower()}-{route}"


class PrefectTokenSource:
    """Rate tokens leased ``occupy`` at a time from Prefect, spent through ``inner``."""

    def __init__(
        self,
        inner: TokenSource | None = None,
        *,
        occupy: int = DEFAULT_OCCUPY,
        name_of: Callable[[Bucket], str] = limit_name,
        timeout_seconds: float | None = None,
    ) -> None:
        if occupy < 1:
            raise ValueError("occupy must be at least 1")
        self._inner = inner or LocalTokenSource()
        self._occupy = occupy
        self._name_of = name_of
        self._timeout = timeout_seconds
        self._leased: defaultdict[str, int] = defaultdict(int)
        self._leasing: set[str] = set()
        self._failure: BaseException | None = None
        self._lock = threading.Lock()

    def take(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        if bucket.kind != "rate":
            return self._inner.take(bucket, capacity, now, reclaim_delay)
        with self._lock:
            if self._failure is not None:
                raise self._failure
            leased = self._leased[bucket.name]
            # The next lease is asked for while half of this one is left, in the background,
            # so requests do not stop for the Prefect round trip.
            ask = leased <= self._occupy // 2 and bucket.name not in self._leasing
            if ask:
                self._leasing.add(bucket.name)
        if ask:
            threading.Thread(target=self._lease, args=(bucket,), daemon=True).start()
        if leased < 1:
            return POLL_SECONDS
        got = self._inner.take(bucket, capacity, now, reclaim_delay)
        if isinstance(got, Lease):
            with self._lock:
                self._leased[bucket.name] -= 1
        return got

    def give_back(self, lease: Lease, returns_at: float) -> None:
        self._inner.give_back(lease, returns_at)

    def match_server(
        self, bucket: Bucket, used: int, since: float, until: float, now: float
    ) -> None:
        self._inner.match_server(bucket, used, since, until, now)

    def close(self) -> None:
        self._inner.close()

    def _lease(self, bucket: Bucket) -> None:
        """Wait until Prefect grants ``occupy`` slots (strict: a missing limit is an error, not
        a silent run without a limit; it is raised by the next ``take``)."""
        granted = 0
        try:
            from prefect.concurrency.sync import rate_limit  # Prefect only where it is used

            rate_limit(
                self._name_of(bucket),
                occupy=self._occupy,
                timeout_seconds=self._timeout,
                strict=True,
            )
            granted = self._occupy
        except BaseException as exc:
            with self._lock:
                self._failure = exc
            raise
        finally:
            with self._lock:
                self._leased[bucket.name] += granted
                self._leasing.discard(bucket.name)
