"""Idempotency-Key handling for bulk POSTs: keys are scoped per organization and endpoint, and
remember a hash of the canonical body and the job they created (interface: POST /v2/wastes)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError


def body_hash(body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def require_key(key: str | None) -> str:
    if not key or not key.strip():
        raise ServiceError(
            422,
            "IDEMPOTENCY_KEY_REQUIRED",
            "The Idempotency-Key header is required",
            errors=[
                {
                    "index": None,
                    "field": "Idempotency-Key",
                    "code": "REQUIRED",
                    "message": "header missing",
                }
            ],
        )
    return key


def replayed_job(
    conn: sqlite3.Connection, organization_id: str, endpoint: str, key: str, digest: str
) -> str | None:
    """The job a previous identical request created; 422 when the key came with another body."""
    row = conn.execute(
        "SELECT body_hash, job_id FROM idempotency_keys"
        " WHERE organization_id = ? AND endpoint = ? AND key = ?",
        (organization_id, endpoint, key),
    ).fetchone()
    if row is None:
        return None
    if row["body_hash"] != digest:
        raise ServiceError(
            422,
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was used with a different request body",
        )
    return str(row["job_id"])


def remember(
    conn: sqlite3.Connection,
    organization_id: str,
    endpoint: str,
    key: str,
    digest: str,
    job_id: str,
) -> None:
    conn.execute(
        "INSERT INTO idempotency_keys (organization_id, endpoint, key, body_hash, job_id,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (organization_id, endpoint, key, digest, job_id, utc_now()),
    )
