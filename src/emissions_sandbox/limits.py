"""Rate and concurrency limits as FastAPI dependencies, per API key and per endpoint
(interface: Limits, rate-limit rules 1-4). Header formats: README "Wire contract"."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import Depends, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.errors import ServiceError


class _Counters:
    """Per-app state: request counts per (key, endpoint, window) and requests in flight."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.windows: dict[tuple[str, str], tuple[int, int]] = {}
        self.in_flight: dict[tuple[str, str], int] = {}


def _counters(request: Request) -> _Counters:
    state = request.app.state
    with _STATE_LOCK:
        if not hasattr(state, "limit_counters"):
            state.limit_counters = _Counters()
    counters: _Counters = state.limit_counters
    return counters


_STATE_LOCK = threading.Lock()


def _bucket_key(request: Request, principal: Principal) -> tuple[str, str]:
    route = request.scope.get("route")
    path = getattr(route, "path", request.url.path)
    return (principal.api_key_id or principal.user_id, f"{request.method} {path}")


def rate_limited(per_second: int = 30) -> Callable[..., Any]:
    """A dependency: at most `per_second` requests in each one-second window.

    Every response carries X-RateLimit-* and the IETF RateLimit / RateLimit-Policy headers; over
    the limit, 429 `Rate limit exceeded` with Retry-After.
    """

    def dependency(
        request: Request, response: Response, principal: Principal = Depends(require_api_key)
    ) -> None:
        counters = _counters(request)
        now = time.time()
        window = math.floor(now)
        key = _bucket_key(request, principal)
        with counters.lock:
            start, used = counters.windows.get(key, (window, 0))
            if start != window:
                start, used = window, 0
            allowed = used < per_second
            if allowed:
                used += 1
            counters.windows[key] = (start, used)
        reset_at = window + 1
        reset_in = max(1, math.ceil(reset_at - now))
        headers = {
            "X-RateLimit-Limit": str(per_second),
            "X-RateLimit-Remaining": str(per_second - used),
            "X-RateLimit-Reset": str(reset_at),
            "RateLimit-Policy": f"{per_second};w=1",
            "RateLimit": f"limit={per_second}, remaining={per_second - used}, reset={reset_in}",
        }
        if not allowed:
            headers["Retry-After"] = str(reset_in)
            raise ServiceError(429, None, "Rate limit exceeded", headers=headers)
        response.headers.update(headers)

    return dependency


def concurrency_limited(max_in_flight: int = 10) -> Any:
    """A dependency (``Depends``): at most `max_in_flight` requests at once; over it, 429 `Too
    many concurrent requests` with Retry-After and no X-RateLimit-* headers (rule 3).

    A request leaves the count when its operation ends, before its response is sent: a client
    that starts its eleventh request once one of ten has answered is within the limit, and must
    not meet a 429 because the server had not yet counted the answered one out."""

    def dependency(
        request: Request, principal: Principal = Depends(require_api_key)
    ) -> Iterator[None]:
        counters = _counters(request)
        key = _bucket_key(request, principal)
        with counters.lock:
            current = counters.in_flight.get(key, 0)
            if current >= max_in_flight:
                raise ServiceError(
                    429, None, "Too many concurrent requests", headers={"Retry-After": "1"}
                )
            counters.in_flight[key] = current + 1
        try:
            yield
        finally:
            with counters.lock:
                counters.in_flight[key] -= 1

    return Depends(dependency, scope="function")
