"""Tenancy: organizations, users, memberships and API keys (interface: Authentication).

Keys (`sk_live_<random>`, facts §6) and passwords are stored hashed; a key is shown once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import uuid
from dataclasses import dataclass

from emissions_sandbox.clock import utc_now

KEY_PREFIX = "sk_live_"


@dataclass(frozen=True)
class NewUser:
    user_id: str
    email: str
    password: str
    api_key: str


def hash_api_key(key: str) -> str:
    # keys carry 256 bits of randomness: a plain digest is enough to store them
    return hashlib.sha256(key.encode()).hexdigest()


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A salted SHA-256 of ``password``. Every password here is made by ``create_user``
    (``token_urlsafe(16)``: 128 random bits), never chosen by a person, so, as for keys, a
    digest is enough: a slow hash only protects guessable passwords (scrypt's cost was paid for
    every user, in every organization a test or a demo makes)."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.sha256(salt + password.encode()).hexdigest()
    return f"sha256${salt.hex()}${digest}"


def verify_password(password: str, stored: str) -> bool:
    """``password`` against a stored hash: ``hash_password``'s, or the scrypt of databases
    made before it."""
    try:
        scheme, salt_hex, digest_hex = stored.split("$")
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme == "scrypt":
        expected = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1).hex()
    elif scheme == "sha256":
        expected = hash_password(password, salt).split("$")[2]
    else:
        return False
    return hmac.compare_digest(expected, digest_hex)


def create_organization(conn: sqlite3.Connection, name: str, parent_id: str | None = None) -> str:
    if (
        parent_id is not None
        and not conn.execute("SELECT 1 FROM organizations WHERE id = ?", (parent_id,)).fetchone()
    ):
        raise ValueError(f"unknown parent organization {parent_id}")
    org_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO organizations (id, name, parent_id, created_at) VALUES (?, ?, ?, ?)",
        (org_id, name, parent_id, utc_now()),
    )
    return org_id


def create_api_key(conn: sqlite3.Connection, user_id: str, organization_id: str) -> str:
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO api_keys (id, user_id, organization_id, key_hash, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (str(uuid.uuid4()), user_id, organization_id, hash_api_key(key), utc_now()),
    )
    return key


def create_user(conn: sqlite3.Connection, organization_id: str, *, is_admin: bool) -> NewUser:
    """A user, member of the organization, with a password and one API key."""
    if not conn.execute("SELECT 1 FROM organizations WHERE id = ?", (organization_id,)).fetchone():
        raise ValueError(f"unknown organization {organization_id}")
    user_id = str(uuid.uuid4())
    email = f"user-{user_id[:8]}@sandbox.example"
    password = secrets.token_urlsafe(16)
    conn.execute(
        "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
        (user_id, email, hash_password(password), utc_now()),
    )
    conn.execute(
        "INSERT INTO memberships (user_id, organization_id, is_admin) VALUES (?, ?, ?)",
        (user_id, organization_id, int(is_admin)),
    )
    return NewUser(user_id, email, password, create_api_key(conn, user_id, organization_id))


def revoke_api_key(conn: sqlite3.Connection, key: str) -> bool:
    """Revoke at once and for good (interface: Authentication rule 3); False if unknown."""
    cursor = conn.execute(
        "UPDATE api_keys SET revoked_at = ? WHERE key_hash = ? AND revoked_at IS NULL",
        (utc_now(), hash_api_key(key)),
    )
    return cursor.rowcount > 0


def jwt_secret(conn: sqlite3.Connection) -> str:
    """The database's own HS256 secret, made on first use."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'jwt_secret'").fetchone()
    if row:
        return str(row["value"])
    secret = secrets.token_hex(32)
    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('jwt_secret', ?)", (secret,))
    return str(conn.execute("SELECT value FROM meta WHERE key = 'jwt_secret'").fetchone()[0])


def membership(conn: sqlite3.Connection, user_id: str, organization_id: str) -> bool | None:
    """None when the user is not a member; else whether they are admin.

    Membership of an ancestor organization counts for its children (README: decisions).
    """
    rows = conn.execute(
        """
        WITH RECURSIVE lineage(id, parent_id) AS (
            SELECT id, parent_id FROM organizations WHERE id = ?
            UNION ALL
            SELECT o.id, o.parent_id FROM organizations o JOIN lineage l ON o.id = l.parent_id
        )
        SELECT m.is_admin FROM memberships m JOIN lineage l ON m.organization_id = l.id
        WHERE m.user_id = ?
        """,
        (organization_id, user_id),
    ).fetchall()
    if not rows:
        return None
    return any(r["is_admin"] for r in rows)
