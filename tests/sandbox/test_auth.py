"""Authentication, over real HTTPS: every 401 and 403 case of the interface's Authentication."""

from __future__ import annotations

import hashlib
import sqlite3
import time

import httpx
import jwt
import pytest

from tests.sandbox_fixture import SandboxServer, create_org, run_cli, sandbox_client

pytestmark = pytest.mark.timeout(60)


def _jwt_secret(server: SandboxServer) -> str:
    with sqlite3.connect(server.db_path) as conn:
        return str(conn.execute("SELECT value FROM meta WHERE key = 'jwt_secret'").fetchone()[0])


def _login(server: SandboxServer) -> dict:
    with sandbox_client(server.base_url, server.ca_file) as client:
        response = client.post(
            "/auth/login", json={"email": server.org.email, "password": server.org.password}
        )
    assert response.status_code == 200
    return response.json()


def test_login_returns_a_bearer_token_valid_for_an_hour(sandbox: SandboxServer) -> None:
    token = _login(sandbox)
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 3600
    claims = jwt.decode(token["access_token"], options={"verify_signature": False})
    assert 3590 <= claims["exp"] - time.time() <= 3600


def test_login_with_a_wrong_password_is_401(sandbox: SandboxServer) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.post("/auth/login", json={"email": sandbox.org.email, "password": "x"})
    assert response.status_code == 401


def test_a_password_stored_by_an_older_sandbox_as_scrypt_still_logs_in(
    sandbox: SandboxServer,
) -> None:
    """Databases made before passwords were stored as salted SHA-256 keep scrypt hashes."""
    org = create_org(sandbox.db_path, "Made by an older sandbox")
    salt = bytes(range(16))
    digest = hashlib.scrypt(org.password.encode(), salt=salt, n=2**14, r=8, p=1).hex()
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE users SET password_hash = ? WHERE id = ?",
            (f"scrypt${salt.hex()}${digest}", org.user_id),
        )
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        right = client.post("/auth/login", json={"email": org.email, "password": org.password})
        wrong = client.post(
            "/auth/login", json={"email": org.email, "password": org.password + "x"}
        )
    assert right.status_code == 200, right.text
    assert wrong.status_code == 401


def test_facilities_accept_a_jwt(sandbox: SandboxServer) -> None:
    token = _login(sandbox)["access_token"]
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.get(
            "/v1/facilities",
            headers={
                "Authorization": f"Bearer {token}",
                "x-organization-id": sandbox.org.organization_id,
            },
        )
    assert response.status_code == 200


def test_an_expired_token_is_401(sandbox: SandboxServer) -> None:
    _login(sandbox)  # makes sure the database's secret exists
    expired = jwt.encode(
        {"sub": sandbox.org.user_id, "exp": int(time.time()) - 10},
        _jwt_secret(sandbox),
        algorithm="HS256",
    )
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.get(
            "/v1/facilities",
            headers={
                "Authorization": f"Bearer {expired}",
                "x-organization-id": sandbox.org.organization_id,
            },
        )
    assert response.status_code == 401
    assert response.json()["code"] == "TOKEN_EXPIRED"


def test_a_token_signed_with_another_secret_is_401(sandbox: SandboxServer) -> None:
    forged = jwt.encode(
        {"sub": sandbox.org.user_id, "exp": int(time.time()) + 60}, "x" * 32, algorithm="HS256"
    )
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.get(
            "/v1/facilities",
            headers={
                "Authorization": f"Bearer {forged}",
                "x-organization-id": sandbox.org.organization_id,
            },
        )
    assert response.status_code == 401


def test_a_malformed_authorization_header_is_401(sandbox: SandboxServer) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.get(
            "/v1/facilities",
            headers={
                "Authorization": "Token abc",
                "x-organization-id": sandbox.org.organization_id,
            },
        )
    assert response.status_code == 401
    assert response.json()["code"] == "INVALID_AUTHORIZATION_HEADER"


def test_a_missing_api_key_is_401_invalid_api_key(sandbox: SandboxServer) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as client:
        response = client.get(
            "/v2/ingest-jobs", headers={"x-organization-id": sandbox.org.organization_id}
        )
    assert response.status_code == 401
    assert response.json()["code"] == "INVALID_API_KEY"


def test_an_unknown_api_key_is_401(sandbox: SandboxServer) -> None:
    with sandbox.client(**{"x-api-key": "sk_live_unknown"}) as client:
        response = client.get("/v1/facilities")
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid API key", "code": "INVALID_API_KEY"}


def test_a_revoked_key_stops_working_at_once(sandbox: SandboxServer) -> None:
    user = run_cli(
        "create-user", "--db", str(sandbox.db_path), "--org", sandbox.org.organization_id
    )
    headers = {"x-api-key": user["api_key"], "x-organization-id": sandbox.org.organization_id}
    with sandbox_client(sandbox.base_url, sandbox.ca_file, **headers) as client:
        assert client.get("/v1/facilities").status_code == 200
        run_cli("revoke-key", "--db", str(sandbox.db_path), "--key", user["api_key"])
        response = client.get("/v1/facilities")
    assert response.status_code == 401
    assert response.json()["code"] == "INVALID_API_KEY"


def test_a_missing_organization_header_is_403(sandbox: SandboxServer) -> None:
    with sandbox_client(
        sandbox.base_url, sandbox.ca_file, **{"x-api-key": sandbox.org.api_key}
    ) as client:
        response = client.get("/v1/facilities")
    assert response.status_code == 403


def test_an_unknown_organization_is_404_organization_not_found(sandbox: SandboxServer) -> None:
    with sandbox.client(**{"x-organization-id": "00000000-0000-4000-8000-000000000000"}) as client:
        response = client.get("/v1/facilities")
    assert response.status_code == 404
    assert response.json()["code"] == "ORGANIZATION_NOT_FOUND"


def test_a_user_of_another_organization_is_403_not_member(sandbox: SandboxServer) -> None:
    with sandbox.client(**{"x-organization-id": sandbox.other_org.organization_id}) as client:
        response = client.get("/v1/facilities")
    assert response.status_code == 403
    assert response.json()["code"] == "LOGGED_USER_NOT_MEMBER"


def test_an_organization_without_api_access_is_401(sandbox: SandboxServer) -> None:
    org = run_cli("create-org", "--db", str(sandbox.db_path), "--name", "No API")
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE organizations SET api_access = 0 WHERE id = ?", (org["organization_id"],)
        )
    headers = {"x-api-key": org["api_key"], "x-organization-id": org["organization_id"]}
    with sandbox_client(sandbox.base_url, sandbox.ca_file, **headers) as client:
        response = client.get("/v1/facilities")
    assert response.status_code == 401


def test_a_parent_organization_member_reaches_its_child(sandbox: SandboxServer) -> None:
    child = run_cli(
        "create-org", "--db", str(sandbox.db_path), "--parent", sandbox.org.organization_id
    )
    with sandbox.client(**{"x-organization-id": child["organization_id"]}) as client:
        assert client.get("/v1/facilities").status_code == 200


def test_legacy_scheme_attributes_to_the_given_user(sandbox: SandboxServer) -> None:
    headers = {
        "Authorization": f"Bearer {sandbox.org.api_key}",
        "x-organization-id": sandbox.org.organization_id,
        "x-user-id": sandbox.member.user_id,
    }
    with sandbox_client(sandbox.base_url, sandbox.ca_file, **headers) as client:
        response = client.get("/_test/legacy")
    assert response.status_code == 200
    assert response.json()["user_id"] == sandbox.member.user_id


def test_legacy_scheme_without_user_header_is_403(sandbox: SandboxServer) -> None:
    headers = {
        "Authorization": f"Bearer {sandbox.org.api_key}",
        "x-organization-id": sandbox.org.organization_id,
    }
    with sandbox_client(sandbox.base_url, sandbox.ca_file, **headers) as client:
        response = client.get("/_test/legacy")
    assert response.status_code == 403
    assert response.json()["code"] == "USER_ID_REQUIRED"


def test_org_admin_route_refuses_a_member_with_org_admin_required(sandbox: SandboxServer) -> None:
    headers = {
        "x-api-key": sandbox.member.api_key,
        "x-organization-id": sandbox.org.organization_id,
    }
    with sandbox_client(sandbox.base_url, sandbox.ca_file, **headers) as client:
        response = client.get("/_test/org-admin")
    assert response.status_code == 403
    assert response.json()["code"] == "ORG_ADMIN_REQUIRED"


def test_org_admin_route_accepts_the_admin(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        assert client.get("/_test/org-admin").status_code == 200


def test_plain_http_is_not_served(sandbox: SandboxServer) -> None:
    with pytest.raises(httpx.HTTPError):
        httpx.get(sandbox.base_url.replace("https://", "http://") + "/v1/units", timeout=5)
