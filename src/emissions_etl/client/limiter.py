"""RateLimitTransport: uses the service's whole allowance and earns no 429 doing it.

Interface: Limits. Limits apply per API key and endpoint: a pool of ``limit`` rate tokens per
rate-limited endpoint, each given back when the server's window that counted its request has
surely ended (``_server_window``), and a pool of slots per concurrency-limited one, given back
when the answer's body is read. The pools live in a TokenSource (``_token_source``): this
process's memory, or a file every process on the machine shares. Other endpoints pass straight
through.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx

from emissions_etl.client._rate_headers import read_rate_headers
from emissions_etl.client._server_window import ServerWindow
from emissions_etl.client._shared_budget import LocalTokenSource
from emissions_etl.client._token_source import Bucket, Lease, TokenSource
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


#: How long a concurrency slot stays taken after its answer's body is read. The sandbox frees
#: its count after the body is sent (FastAPI runs a dependency's exit then), so a new request
#: sent the instant the body arrives can still find the old one counted.
SLOT_GRACE_SECONDS = 0.005


class RateLimitTransport(httpx.BaseTransport):
    """Wraps a transport; takes a rate token and a concurrency slot per (API key, endpoint).

    The tokens come from ``token_source``, by default a pool in this process's memory, or the
    SQLite file at ``shared_budget_path`` shared by every process of the machine that opens it;
    a given ``token_source`` is closed with the transport only when ``owns_token_source``.
    ``wall_clock`` and ``sleep`` are injectable for tests; without ``sleep`` a waiter also wakes
    as soon as another thread of this process gives a token back.
    """

    def __init__(
        self,
        inner: httpx.BaseTransport,
        *,
        policies: Mapping[tuple[str, str], LimitPolicy] | None = None,
        shared_budget_path: Path | None = None,
        token_source: TokenSource | None = None,
        owns_token_source: bool = False,
        wall_clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self._inner = inner
        chosen = DEFAULT_POLICIES if policies is None else policies
        self._routes = [
            (method.upper(), _template_pattern(template), template, policy)
            for (method, template), policy in chosen.items()
        ]
        self._owns_source = token_source is None or owns_token_source
        self._source = token_source or LocalTokenSource(shared_budget_path)
        self._wall = wall_clock
        self._sleep = sleep
        self._windows: dict[Bucket, ServerWindow] = {}
        self._gates: dict[Bucket, _Gate] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        route = self._route(request)
        if route is None:
            return self._inner.handle_request(request)
        template, policy = route
        caller = _caller(request)
        slot = None
        if policy.max_concurrency:
            slot_bucket = Bucket("slots", caller, request.method, template)
            slot = self._take(slot_bucket, policy.max_concurrency, reclaim_delay=0.0)
        try:
            if policy.rate_per_second:
                rate_bucket = Bucket("rate", caller, request.method, template)
                response = self._send_counted(request, rate_bucket, policy.rate_per_second)
            else:
                response = self._inner.handle_request(request)
        except BaseException:
            if slot is not None:
                self._give_back(slot, self._wall())
            raise
        if slot is None:
            return response
        # The slot stays taken until the body is read (the server counts the request until
        # then), and a moment longer: a server may let go of it only after sending the body.
        taken = slot

        def release() -> None:
            self._give_back(taken, self._wall() + SLOT_GRACE_SECONDS)

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_ReleasingStream(response.stream, release),
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            if self._owns_source:
                self._source.close()

    def _send_counted(
        self, request: httpx.Request, bucket: Bucket, rate_per_second: float
    ) -> httpx.Response:
        """Send with a rate token; settle the token from what the answer says of the window."""
        with self._lock:
            window = self._windows.setdefault(bucket, ServerWindow.for_rate(rate_per_second))
        lease = self._take(bucket, window.limit, reclaim_delay=window.window_seconds)
        sent = self._wall()
        try:
            response = self._inner.handle_request(request)
        except BaseException:
            # It may have reached the server and been counted: keep its token a full window.
            self._give_back(lease, self._wall() + window.window_seconds)
            raise
        received = self._wall()
        retry_after = parse_retry_after(response.headers.get("retry-after"))
        with self._lock:
            settled = window.settle(
                read_rate_headers(response.headers),
                sent,
                received,
                response.status_code,
                retry_after,
            )
            limit = window.limit
        self._give_back(lease, settled.returns_at)
        if settled.blocked_until is not None:  # interface: Limits, rule 4
            until = settled.blocked_until
            self._source.match_server(bucket, limit, until, until, received)
        elif settled.server_used:  # counts we never saw: another tool or machine on this key
            self._source.match_server(
                bucket, settled.server_used, settled.used_since, settled.used_until, received
            )
        return response

    def _take(self, bucket: Bucket, capacity: int, *, reclaim_delay: float) -> Lease:
        """A token of ``bucket``; one thread per bucket asks the source, the others queue."""
        gate = self._gate(bucket)
        with gate.turnstile:
            while True:
                seen = gate.generation
                got = self._source.take(bucket, capacity, self._wall(), reclaim_delay)
                if isinstance(got, Lease):
                    return got
                if self._sleep is not None:
                    self._sleep(got)
                    continue
                with gate.given_back:
                    if gate.generation == seen:
                        gate.given_back.wait(got)

    def _give_back(self, lease: Lease, returns_at: float) -> None:
        self._source.give_back(lease, returns_at)
        gate = self._gate(lease.bucket)
        with gate.given_back:
            gate.generation += 1
            gate.given_back.notify_all()

    def _gate(self, bucket: Bucket) -> _Gate:
        with self._lock:
            return self._gates.setdefault(bucket, _Gate())

    def _route(self, request: httpx.Request) -> tuple[str, LimitPolicy] | None:
        for method, pattern, template, policy in self._routes:
            if request.method == method and pattern.search(request.url.path):
                return template, policy
        return None


class _Gate:
    """Per bucket: threads queue at the turnstile; a give-back wakes the one waiting."""

    def __init__(self) -> None:
        self.turnstile = threading.Lock()
        self.given_back = threading.Condition()
        self.generation = 0


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
