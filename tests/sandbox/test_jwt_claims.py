"""Tokens signed with the sandbox's own secret but missing a claim it relies on are 401
`INVALID_TOKEN`: no subject (it used to answer 500), no expiry (it used to never expire).

Tokens are crafted here with the database's HS256 secret (`meta.jwt_secret`, made on first
login), so only the claims differ from a real one.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest

from tests.sandbox_fixture import SandboxServer, sandbox_client

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def secret(sandbox: SandboxServer) -> str:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        login = client.post(
            "/auth/login", json={"email": sandbox.org.email, "password": sandbox.org.password}
        )
    assert login.status_code == 200  # the first login makes the database's secret
    with sqlite3.connect(sandbox.db_path) as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = 'jwt_secret'").fetchone()
    return str(row[0])


@pytest.fixture
def anonymous(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        yield client


def _token(secret: str, **claims: Any) -> str:
    return jwt.encode(claims, secret, algorithm="HS256")


def _complete(sandbox: SandboxServer) -> dict[str, Any]:
    now = int(time.time())
    return {"sub": sandbox.org.user_id, "iat": now, "exp": now + 600}


def _without(claims: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: value for key, value in claims.items() if key != name}


# (path, extra headers beyond Authorization + x-organization-id): the JWT-accepting schemes
PATHS = [
    pytest.param("/v1/facilities", False, id="facilities"),
    pytest.param("/v1/business-travels", False, id="business-travels"),
    pytest.param("/_test/legacy", True, id="legacy-scheme"),
]


def _get(
    client: httpx.Client, sandbox: SandboxServer, path: str, token: str, legacy: bool
) -> httpx.Response:
    headers = {
        "Authorization": f"Bearer {token}",
        "x-organization-id": sandbox.org.organization_id,
    }
    if legacy:
        headers["x-user-id"] = sandbox.org.user_id
    return client.get(path, headers=headers)


def _assert_invalid_token(response: httpx.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.json() == {"detail": "Invalid token", "code": "INVALID_TOKEN"}
    assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(("path", "legacy"), PATHS)
def test_a_complete_token_is_accepted(
    sandbox: SandboxServer, anonymous: httpx.Client, secret: str, path: str, legacy: bool
) -> None:
    """The control: the same crafting with every claim gets through."""
    response = _get(anonymous, sandbox, path, _token(secret, **_complete(sandbox)), legacy)

    assert response.status_code == 200, response.text


@pytest.mark.parametrize(("path", "legacy"), PATHS)
@pytest.mark.parametrize("claim", ["sub", "exp"])
def test_a_token_missing_a_claim_is_invalid(
    sandbox: SandboxServer,
    anonymous: httpx.Client,
    secret: str,
    path: str,
    legacy: bool,
    claim: str,
) -> None:
    token = _token(secret, **_without(_complete(sandbox), claim))

    _assert_invalid_token(_get(anonymous, sandbox, path, token, legacy))


@pytest.mark.parametrize(
    "override",
    [
        pytest.param({"sub": None}, id="null-sub"),
        pytest.param({"sub": ""}, id="empty-sub"),
        pytest.param({"sub": 12345}, id="numeric-sub"),
        pytest.param({"exp": None}, id="null-exp"),
        pytest.param({"exp": "tomorrow"}, id="text-exp"),
    ],
)
def test_a_token_with_an_unusable_claim_is_invalid(
    sandbox: SandboxServer, anonymous: httpx.Client, secret: str, override: dict[str, Any]
) -> None:
    token = _token(secret, **{**_complete(sandbox), **override})

    _assert_invalid_token(_get(anonymous, sandbox, "/v1/facilities", token, False))


def test_a_token_without_exp_is_refused_even_when_freshly_issued(
    sandbox: SandboxServer, anonymous: httpx.Client, secret: str
) -> None:
    """`iat` of now does not stand in for an expiry."""
    token = _token(secret, sub=sandbox.org.user_id, iat=int(time.time()))

    _assert_invalid_token(_get(anonymous, sandbox, "/v1/units", token, False))
