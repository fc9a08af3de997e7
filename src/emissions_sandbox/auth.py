"""Who is calling: FastAPI dependencies for the interface's authentication schemes.

Order of checks: credentials (401), then the organization header (403/404), then membership (403).
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from dataclasses import dataclass

import jwt
from fastapi import Depends, Header, Request

from emissions_sandbox.accounts import KEY_PREFIX, hash_api_key, jwt_secret, membership
from emissions_sandbox.db import Database
from emissions_sandbox.errors import ServiceError

JWT_ALGORITHM = "HS256"


@dataclass(frozen=True)
class Principal:
    """The authenticated caller: records are attributed to `user_id` in `organization_id`."""

    user_id: str
    organization_id: str
    is_admin: bool
    api_key_id: str | None


def _unauthorized(detail: str, code: str = "INVALID_API_KEY") -> ServiceError:
    return ServiceError(401, code, detail, headers={"WWW-Authenticate": "Bearer"})


def _db(request: Request) -> sqlite3.Connection:
    database: Database = request.app.state.db
    return database.reader()


def _user_of_key(conn: sqlite3.Connection, key: str) -> tuple[str, str]:
    """(user_id, api_key_id) of an active key; 401 when missing, unknown or revoked (rule 4)."""
    row = conn.execute(
        "SELECT id, user_id, revoked_at FROM api_keys WHERE key_hash = ?", (hash_api_key(key),)
    ).fetchone()
    if row is None:
        raise _unauthorized("Invalid API key")
    if row["revoked_at"] is not None:
        raise _unauthorized("API key revoked")
    return str(row["user_id"]), str(row["id"])


# A token without a subject names no one, and one without `exp` would never expire (interface:
# JWT lifetime 1 hour): both are refused like any other invalid token.
REQUIRED_CLAIMS = ("sub", "exp")


def _user_of_token(conn: sqlite3.Connection, token: str) -> str:
    """The subject of a valid token; 401 `TOKEN_EXPIRED` or `INVALID_TOKEN` otherwise."""
    try:
        claims = jwt.decode(
            token,
            jwt_secret(conn),
            algorithms=[JWT_ALGORITHM],
            options={"require": list(REQUIRED_CLAIMS)},
        )
    except jwt.ExpiredSignatureError as exc:
        raise _unauthorized("Token expired", "TOKEN_EXPIRED") from exc
    except jwt.PyJWTError as exc:  # bad signature, malformed, a required claim missing
        raise _unauthorized("Invalid token", "INVALID_TOKEN") from exc
    subject = claims["sub"]
    if not isinstance(subject, str) or not subject:
        raise _unauthorized("Invalid token", "INVALID_TOKEN")
    return subject


def issue_token(conn: sqlite3.Connection, user_id: str, lifetime_seconds: int) -> str:
    now = int(time.time())
    claims = {"sub": user_id, "iat": now, "exp": now + lifetime_seconds}
    return jwt.encode(claims, jwt_secret(conn), algorithm=JWT_ALGORITHM)


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip() or " " in value.strip():
        raise _unauthorized("Malformed Authorization header", "INVALID_AUTHORIZATION_HEADER")
    return value.strip()


def _principal(
    conn: sqlite3.Connection, user_id: str, organization_id: str | None, api_key_id: str | None
) -> Principal:
    """Check the organization header and the user's membership (rules 4 and 5)."""
    if not organization_id:
        raise ServiceError(403, "ORGANIZATION_ID_REQUIRED", "x-organization-id header is required")
    try:
        uuid.UUID(organization_id)
    except ValueError:
        raise ServiceError(404, "ORGANIZATION_NOT_FOUND", "Organization not found") from None
    org = conn.execute(
        "SELECT api_access FROM organizations WHERE id = ?", (organization_id,)
    ).fetchone()
    if org is None:
        raise ServiceError(404, "ORGANIZATION_NOT_FOUND", "Organization not found")
    if not org["api_access"]:
        raise _unauthorized("Organization has no API access")
    is_admin = membership(conn, user_id, organization_id)
    if is_admin is None:
        raise ServiceError(
            403, "LOGGED_USER_NOT_MEMBER", "User does not belong to the organization"
        )
    return Principal(user_id, organization_id, is_admin, api_key_id)


# The dependencies are coroutines: FastAPI runs a plain function dependency on its thread pool,
# one hop per request before the route's own, for three indexed lookups that take microseconds
# (the hop was a noticeable share of a page read of the client's read-back: bench_sandbox).
async def require_api_key(
    request: Request,
    x_api_key: str | None = Header(None),
    x_organization_id: str | None = Header(None),
) -> Principal:
    """New scheme: `x-api-key` + `x-organization-id`."""
    conn = _db(request)
    if not x_api_key:
        raise _unauthorized("x-api-key header is required")
    user_id, key_id = _user_of_key(conn, x_api_key)
    return _principal(conn, user_id, x_organization_id, key_id)


async def require_api_key_or_jwt(
    request: Request,
    x_api_key: str | None = Header(None),
    authorization: str | None = Header(None),
    x_organization_id: str | None = Header(None),
    x_user_id: str | None = Header(None),
) -> Principal:
    """Facilities and v1 wastes: `x-api-key`, or `Authorization: Bearer <JWT or key>` (rule 1)."""
    conn = _db(request)
    if x_api_key:
        user_id, key_id = _user_of_key(conn, x_api_key)
        return _principal(conn, user_id, x_organization_id, key_id)
    credential = _bearer(authorization)
    if credential is None:
        raise _unauthorized("x-api-key or Authorization header is required")
    return _from_bearer(conn, credential, x_organization_id, x_user_id)


async def require_legacy(
    request: Request,
    authorization: str | None = Header(None),
    x_organization_id: str | None = Header(None),
    x_user_id: str | None = Header(None),
) -> Principal:
    """Legacy scheme: `Authorization: Bearer <key or token>` + `x-organization-id` + `x-user-id`."""
    conn = _db(request)
    credential = _bearer(authorization)
    if credential is None:
        raise _unauthorized("Authorization header is required")
    if not x_user_id:
        _from_bearer(conn, credential, x_organization_id, None)  # 401/403/404 take precedence
        raise ServiceError(403, "USER_ID_REQUIRED", "x-user-id header is required")
    return _from_bearer(conn, credential, x_organization_id, x_user_id)


def _from_bearer(
    conn: sqlite3.Connection, credential: str, organization_id: str | None, user_header: str | None
) -> Principal:
    """A bearer key attributes to `x-user-id` when given (legacy); a token to its subject."""
    if credential.startswith(KEY_PREFIX):
        key_user, key_id = _user_of_key(conn, credential)
        user_id, api_key_id = (user_header or key_user), key_id
    else:
        user_id, api_key_id = _user_of_token(conn, credential), None
        if user_header and user_header != user_id:
            raise ServiceError(403, "USER_MISMATCH", "x-user-id does not match the token")
    return _principal(conn, user_id, organization_id, api_key_id)


async def require_org_admin(principal: Principal = Depends(require_api_key)) -> Principal:
    """Webhook management: an API key of an organization admin (rule 6)."""
    if not principal.is_admin:
        raise ServiceError(403, "ORG_ADMIN_REQUIRED", "An organization admin's API key is required")
    return principal
