"""The service's three authentication schemes as ``httpx.Auth`` (interface: Authentication).

Secrets live in private attributes and never appear in a ``repr``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator

import httpx

from emissions_etl.client.problem import error_from_response

#: A token is renewed this many seconds before it expires, so no request carries a stale one.
JWT_RENEW_MARGIN = 60.0
#: Path segments the service's routes start with; whatever precedes them is the base-url prefix.
_ROUTE_ROOTS = ("/v1/", "/v2/", "/auth/")


class ApiKeyAuth(httpx.Auth):
    """New-API key: ``x-api-key`` and ``x-organization-id``."""

    def __init__(self, api_key: str, organization_id: str) -> None:
        self._api_key = api_key
        self.organization_id = organization_id

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["x-api-key"] = self._api_key
        request.headers["x-organization-id"] = self.organization_id
        yield request

    def __repr__(self) -> str:
        return f"ApiKeyAuth(organization_id={self.organization_id!r})"


class LegacyAuth(httpx.Auth):
    """Legacy API: ``Authorization: Bearer <key or token>``, organization and user ids."""

    def __init__(self, token: str, organization_id: str, user_id: str) -> None:
        self._token = token
        self.organization_id = organization_id
        self.user_id = user_id

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._token}"
        request.headers["x-organization-id"] = self.organization_id
        request.headers["x-user-id"] = self.user_id
        yield request

    def __repr__(self) -> str:
        return f"LegacyAuth(organization_id={self.organization_id!r}, user_id={self.user_id!r})"


class JwtAuth(httpx.Auth):
    """JWT from ``POST /auth/login``: logs in on first use, before expiry and again on a 401.

    Thread-safe: one client shared by threads logs in once.
    """

    requires_response_body = True  # the login response must be read to get the token

    def __init__(
        self,
        email: str,
        password: str,
        organization_id: str,
        user_id: str,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.email = email
        self._password = password
        self.organization_id = organization_id
        self.user_id = user_id
        self._clock = clock
        self._token: str | None = None
        self._renew_at = 0.0
        self._lock = threading.Lock()

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        # The lock is held across the login's yield: a sync auth flow runs in the caller's thread.
        with self._lock:
            if self._token is None or self._clock() >= self._renew_at:
                yield from self._login(request)
            token = self._token
        response = yield self._signed(request, token)
        if response.status_code != 401:
            return
        with self._lock:
            if self._token == token:  # nobody renewed it meanwhile
                yield from self._login(request)
            token = self._token
        yield self._signed(request, token)

    def _login(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        login = httpx.Request(
            "POST",
            request.url.copy_with(path=_base_path(request.url.path) + "/auth/login", query=None),
            json={"email": self.email, "password": self._password},
            headers={"user-agent": request.headers.get("user-agent", "")},
            extensions=request.extensions,  # keeps the client's timeouts
        )
        response = yield login
        if response.status_code >= 400:
            self._token = None
            raise error_from_response(response)
        body = response.json()
        self._token = str(body["access_token"])
        lifetime = float(body.get("expires_in") or 3600)
        self._renew_at = self._clock() + max(0.0, lifetime - JWT_RENEW_MARGIN)

    def _signed(self, request: httpx.Request, token: str | None) -> httpx.Request:
        request.headers["Authorization"] = f"Bearer {token}"
        request.headers["x-organization-id"] = self.organization_id
        request.headers["x-user-id"] = self.user_id
        return request

    def __repr__(self) -> str:
        return f"JwtAuth(organization_id={self.organization_id!r}, user_id={self.user_id!r})"


def _base_path(path: str) -> str:
    """The base-url prefix of a request path (``/api`` in ``/api/v1/units``; usually empty)."""
    for root in _ROUTE_ROOTS:
        index = path.find(root)
        if index >= 0:
            return path[:index]
    return ""
