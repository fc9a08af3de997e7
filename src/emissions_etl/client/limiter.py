"""RateLimitTransport: keeps a load within the service's limits so it earns no 429 at all.

Interface: Limits. Limits apply per API key and endpoint: a token bucket per rate-limited endpoint
(corrected from ``X-RateLimit-*``) and a semaphore per concurrency-limited one. Other endpoints
pass straight through.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import httpx

from emissions_etl.client.retry import parse_retry_after


@dataclass(frozen=True)
class LimitPolicy:
    """What the service allows on one endpoint: a request rate and/or a number in flight."""

    rate_per_second: float | None = None
    max_concurrency: int | None = None


#: interface: Limits (request rate and concurrent requests rows).
DEFAULT_POLICIES: Mapping[tuple[str, str], LimitPolicy] = {
    ("POST", "/v1/logistics/requests"): LimitPolicy(rate_per_second=30),
    ("POST", "/v1/logistics/recharges"): LimitPolicy(rate_per_second=30),
    ("POST", "/v2/logistics/requests"): LimitPolicy(rate_per_second=30),
    ("POST", "/v1/logistics/requests/bulk"): LimitPolicy(max_concurrency=10),
    ("POST", "/v1/logistics/recharges/bulk"): LimitPolicy(max_concurrency=10),
    ("POST", "/v2/logistics/requests/bulk"): LimitPolicy(max_concurrency=10),
}

_EPSILON = 1e-9

#: Share of the allowed rate the client aims for, leaving room for network jitter.
RATE_HEADROOM = 0.95


class TokenBucket:
    """A thread-safe token bucket that never lets a one-second window exceed ``rate``.

    Capacity + refill per second = ``rate * RATE_HEADROOM``, so the bound holds whether the
    server counts with a bucket, a sliding or a fixed one-second window.
    """

    def __init__(
        self,
        rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        allowed = rate * RATE_HEADROOM
        self.capacity = float(max(1, math.floor(rate * 0.1)))
        self.refill_per_second = allowed - self.capacity if allowed > self.capacity else allowed
        self._tokens = self.capacity
        self._blocked_until = 0.0
        self._clock = clock
        self._wall_clock = wall_clock
        self._updated = clock()
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Take one token if available (returns 0), else return the seconds to wait first."""
        with self._lock:
            now = self._clock()
            self._refill(now)
            if now < self._blocked_until:
                return self._blocked_until - now
            if self._tokens >= 1 - _EPSILON:  # float refill may land a hair under 1
                self._tokens -= 1
                return 0.0
            return (1 - self._tokens) / self.refill_per_second

    def observe(self, headers: httpx.Headers, status: int) -> None:
        """Correct the bucket from the server's view (interface: Limits, rules 2 and 4)."""
        with self._lock:
            now = self._clock()
            self._refill(now)
            remaining = _number(headers.get("x-ratelimit-remaining"))
            if remaining is not None:
                self._tokens = min(self._tokens, remaining)
                reset = _number(headers.get("x-ratelimit-reset"))
                if remaining < 1 and reset is not None:
                    # Reset is a Unix timestamp: translate it to our monotonic clock.
                    self._block(now + max(0.0, reset - self._wall_clock()))
            if status == 429:
                self._tokens = min(self._tokens, 0.0)
                hinted = parse_retry_after(headers.get("retry-after"))
                self._block(now + (hinted if hinted is not None else 1.0))

    def _block(self, until: float) -> None:
        self._blocked_until = max(self._blocked_until, until)

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self.capacity, self._tokens + elapsed * self.refill_per_second)
        self._updated = now


class RateLimitTransport(httpx.BaseTransport):
    """Wraps a transport; waits for a token and holds a concurrency slot per (API key, endpoint)."""

    def __init__(
        self,
        inner: httpx.BaseTransport,
        *,
        policies: Mapping[tuple[str, str], LimitPolicy] | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._inner = inner
        chosen = DEFAULT_POLICIES if policies is None else policies
        self._routes = [
            (method.upper(), _template_pattern(template), template, policy)
            for (method, template), policy in chosen.items()
        ]
        self._clock = clock
        self._wall_clock = wall_clock
        self._sleep = sleep
        self._buckets: dict[tuple[str, str], TokenBucket] = {}
        self._slots: dict[tuple[str, str], threading.BoundedSemaphore] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        route = self._route(request)
        if route is None:
            return self._inner.handle_request(request)
        template, policy = route
        key = (_caller(request), template)
        bucket, slots = self._limits_for(key, policy)
        if slots is not None:
            slots.acquire()
        try:
            if bucket is not None:
                while (wait := bucket.reserve()) > 0:
                    self._sleep(wait)
            response = self._inner.handle_request(request)
        except BaseException:
            if slots is not None:
                slots.release()
            raise
        if bucket is not None:
            bucket.observe(response.headers, response.status_code)
        if slots is None:
            return response
        # The slot stays taken until the body is read: the server counts the request until then.
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_ReleasingStream(response.stream, slots.release),
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        self._inner.close()

    def _route(self, request: httpx.Request) -> tuple[str, LimitPolicy] | None:
        for method, pattern, template, policy in self._routes:
            if request.method == method and pattern.search(request.url.path):
                return template, policy
        return None

    def _limits_for(
        self, key: tuple[str, str], policy: LimitPolicy
    ) -> tuple[TokenBucket | None, threading.BoundedSemaphore | None]:
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None and policy.rate_per_second:
                bucket = TokenBucket(
                    policy.rate_per_second, clock=self._clock, wall_clock=self._wall_clock
                )
                self._buckets[key] = bucket
            slots = self._slots.get(key)
            if slots is None and policy.max_concurrency:
                slots = threading.BoundedSemaphore(policy.max_concurrency)
                self._slots[key] = slots
            return bucket, slots


class _ReleasingStream(httpx.SyncByteStream):
    """A response body that calls ``release`` once, when it is closed."""

    def __init__(
        self, inner: httpx.SyncByteStream | httpx.AsyncByteStream, release: Callable[[], None]
    ) -> None:
        self._inner = inner
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[bytes]:
        assert isinstance(self._inner, httpx.SyncByteStream)
        yield from self._inner

    def close(self) -> None:
        try:
            if isinstance(self._inner, httpx.SyncByteStream):
                self._inner.close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


def _template_pattern(template: str) -> re.Pattern[str]:
    """``/v1/facilities/{id}`` matches a request path ending so (a base-url prefix is allowed)."""
    parts = re.split(r"\{[^}]+\}", template.lstrip("/"))
    return re.compile("(?:^|/)" + "[^/]+".join(map(re.escape, parts)) + "$")


def _caller(request: httpx.Request) -> str:
    """Who the limits count against, as a hash: the raw key is never kept."""
    credential = request.headers.get("x-api-key") or request.headers.get("authorization") or ""
    return hashlib.sha256(credential.encode()).hexdigest()[:16]


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
