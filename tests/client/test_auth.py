from __future__ import annotations

import httpx
import pytest

from emissions_etl.client import ApiKeyAuth, EmissionsClient, JwtAuth, LegacyAuth
from emissions_etl.errors import AuthenticationError

SECRET = "sk_test_do_not_leak"


def echo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json=dict(request.headers))


def test_api_key_auth_sends_key_and_organization() -> None:
    with EmissionsClient(
        "https://service.test", ApiKeyAuth(SECRET, "org-1"), transport=httpx.MockTransport(echo)
    ) as client:
        headers = client.get_json("/v1/facilities/x")
    assert (headers["x-api-key"], headers["x-organization-id"]) == (SECRET, "org-1")


def test_legacy_auth_sends_bearer_organization_and_user() -> None:
    auth = LegacyAuth(SECRET, "org-1", "user-1")
    with EmissionsClient(
        "https://service.test", auth, transport=httpx.MockTransport(echo)
    ) as client:
        headers = client.get_json("/v1/facilities/x")
    assert headers["authorization"] == f"Bearer {SECRET}"
    assert (headers["x-organization-id"], headers["x-user-id"]) == ("org-1", "user-1")


@pytest.mark.parametrize(
    "auth",
    [
        ApiKeyAuth(SECRET, "org-1"),
        LegacyAuth(SECRET, "org-1", "user-1"),
        JwtAuth("ana@example.com", SECRET, "org-1", "user-1"),
    ],
)
def test_auth_repr_shows_no_secret(auth: httpx.Auth) -> None:
    assert SECRET not in repr(auth)
    assert "org-1" in repr(auth)


class TokenService:
    """Issues numbered tokens at /auth/login; accepts only the latest one."""

    def __init__(self, expires_in: int = 3600) -> None:
        self.expires_in = expires_in
        self.logins = 0
        self.valid: str | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/auth/login"):
            self.logins += 1
            self.valid = f"token-{self.logins}"
            body = {
                "access_token": self.valid,
                "token_type": "Bearer",
                "expires_in": self.expires_in,
            }
            return httpx.Response(200, json=body)
        if request.headers.get("authorization") != f"Bearer {self.valid}":
            return httpx.Response(401, json={"detail": "expired", "code": "INVALID_API_KEY"})
        return httpx.Response(200, json={"user": request.headers["x-user-id"]})

    def revoke(self) -> None:
        self.valid = "revoked"


def jwt_client(service: TokenService, clock: list[float] | None = None) -> EmissionsClient:
    now = clock or [0.0]
    auth = JwtAuth("ana@example.com", SECRET, "org-1", "user-1", clock=lambda: now[0])
    return EmissionsClient("https://service.test/api", auth, transport=httpx.MockTransport(service))


def test_jwt_logs_in_once_for_many_requests() -> None:
    service = TokenService()
    with jwt_client(service) as client:
        for _ in range(3):
            assert client.get_json("/v1/facilities") == {"user": "user-1"}
    assert service.logins == 1


def test_jwt_logs_in_again_on_401() -> None:
    service = TokenService()
    with jwt_client(service) as client:
        client.get_json("/v1/facilities")
        service.revoke()
        assert client.get_json("/v1/facilities") == {"user": "user-1"}
    assert service.logins == 2


def test_jwt_renews_before_expiry() -> None:
    service, clock = TokenService(expires_in=3600), [0.0]
    with jwt_client(service, clock) as client:
        client.get_json("/v1/facilities")
        clock[0] = 3590.0
        client.get_json("/v1/facilities")
    assert service.logins == 2


def test_jwt_login_follows_the_base_url_prefix() -> None:
    paths: list[str] = []
    service = TokenService()

    def record(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return service(request)

    auth = JwtAuth("ana@example.com", SECRET, "org-1", "user-1")
    with EmissionsClient(
        "https://service.test/api", auth, transport=httpx.MockTransport(record)
    ) as client:
        client.get_json("/v1/facilities")
    assert paths == ["/api/auth/login", "/api/v1/facilities"]


def test_jwt_bad_password_raises_authentication_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            401, json={"detail": "bad credentials", "code": "INVALID_CREDENTIALS"}
        )

    auth = JwtAuth("ana@example.com", SECRET, "org-1", "user-1")
    with (
        EmissionsClient(
            "https://service.test", auth, transport=httpx.MockTransport(refuse)
        ) as client,
        pytest.raises(AuthenticationError) as caught,
    ):
        client.get_json("/v1/facilities")
    assert caught.value.url == "/auth/login"
    assert SECRET not in str(caught.value) + repr(caught.value)
