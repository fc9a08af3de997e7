"""POST /auth/login: email + password → a JWT valid for an hour (interface: Login)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from emissions_sandbox.accounts import verify_password
from emissions_sandbox.auth import issue_token
from emissions_sandbox.db import Database
from emissions_sandbox.errors import ServiceError

router = APIRouter(tags=["auth"])


class LoginBody(BaseModel):
    email: str
    password: str


class Token(BaseModel):
    access_token: str
    token_type: str
    expires_in: int


@router.post("/auth/login", response_model=Token, operation_id="login")
def login(body: LoginBody, request: Request) -> Token:
    db: Database = request.app.state.db
    conn = db.reader()
    user = conn.execute(
        "SELECT id, password_hash FROM users WHERE email = ?", (body.email,)
    ).fetchone()
    if user is None or not verify_password(body.password, user["password_hash"]):
        raise ServiceError(401, "INVALID_CREDENTIALS", "Invalid email or password")
    lifetime = request.app.state.settings.jwt_lifetime_seconds
    with db.transaction() as tx:  # the secret may be created on first use
        token = issue_token(tx, user["id"], lifetime)
    return Token(access_token=token, token_type="Bearer", expires_in=lifetime)
