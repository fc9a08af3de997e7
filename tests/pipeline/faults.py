"""A transport that injects faults into real traffic to the served sandbox.

It wraps the real ``httpx.HTTPTransport``: requests it lets through reach the sandbox for real.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path

import httpx


class SimulatedCrash(BaseException):
    """Stands for the process dying: not an Exception, so no handler records anything."""


@dataclass
class Fault:
    """What to do to the ``times`` first requests matching method and path prefix."""

    method: str
    path_prefix: str
    action: str  # "status", "drop_response" or "crash"
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    hits: int = 0

    def matches(self, request: httpx.Request) -> bool:
        return (
            self.hits < self.times
            and request.method == self.method
            and request.url.path.startswith(self.path_prefix)
        )


class FaultTransport(httpx.BaseTransport):
    """Delegates to a real transport, except where a fault says otherwise."""

    def __init__(self, ca_file: Path, faults: list[Fault]) -> None:
        self._inner = httpx.HTTPTransport(verify=ssl.create_default_context(cafile=str(ca_file)))
        self.faults = faults
        self.requests: list[tuple[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        for fault in self.faults:
            if fault.matches(request):
                fault.hits += 1
                if fault.action == "status":
                    return httpx.Response(
                        fault.status, headers=fault.headers, json={"detail": "injected"}
                    )
                if fault.action == "crash":
                    raise SimulatedCrash(f"{request.method} {request.url.path}")
                response = self._inner.handle_request(request)
                response.read()
                response.close()
                raise httpx.ReadTimeout("injected: response lost", request=request)
        return self._inner.handle_request(request)

    def close(self) -> None:
        self._inner.close()
