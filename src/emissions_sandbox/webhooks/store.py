"""Tables of webhook endpoints and deliveries, and the row functions the routes and worker share.

Timestamps are stored as fixed-width UTC text (`...Z`), so SQL compares them in time order.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    url TEXT NOT NULL,
    description TEXT,
    event_types TEXT NOT NULL,              -- JSON array of event type names
    enabled INTEGER NOT NULL DEFAULT 1,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    disabled_reason TEXT,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_by_org
    ON webhook_endpoints (organization_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,                 -- the webhook-id header, the same on every attempt
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,                     -- the exact JSON sent, so every attempt signs it alike
    status TEXT NOT NULL,                   -- pending, succeeded, failed
    attempt_count INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER,
    last_error TEXT,
    next_attempt_at TEXT,                   -- null once the delivery has ended
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due
    ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_endpoint
    ON webhook_deliveries (endpoint_id, created_at);
"""

_ENDPOINT_FIELDS = (
    "id, url, description, event_types, enabled, consecutive_failures, disabled_reason, "
    "created_at, updated_at"
)
_DELIVERY_FIELDS = (
    "id, endpoint_id, event_id, event_type, status, attempt_count, last_status_code, "
    "last_error, next_attempt_at, created_at, updated_at"
)


def utc_text(moment: datetime) -> str:
    """A UTC timestamp as stored and served: `2026-10-05T12:00:00.000000Z`."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def now_text(after_seconds: float = 0.0) -> str:
    return utc_text(datetime.now(UTC) + timedelta(seconds=after_seconds))


def endpoint_json(row: sqlite3.Row) -> dict[str, Any]:
    """An endpoint row as served; the secret is never part of it."""
    item = {key: row[key] for key in _ENDPOINT_FIELDS.split(", ")}
    item["event_types"] = json.loads(item["event_types"])
    item["enabled"] = bool(item["enabled"])
    return item


def delivery_json(row: sqlite3.Row) -> dict[str, Any]:
    return {key: row[key] for key in _DELIVERY_FIELDS.split(", ")}


def insert_endpoint(
    conn: sqlite3.Connection,
    organization_id: str,
    url: str,
    description: str | None,
    event_types: list[str],
    enabled: bool,
    secret: str,
) -> sqlite3.Row:
    now = now_text()
    endpoint_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO webhook_endpoints (id, organization_id, url, description, event_types, "
        "enabled, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (endpoint_id, organization_id, url, description, json.dumps(event_types), enabled,
         secret, now, now),
    )  # fmt: skip
    return _one(conn, "SELECT * FROM webhook_endpoints WHERE id = ?", endpoint_id)


def get_endpoint(
    conn: sqlite3.Connection, organization_id: str, endpoint_id: str
) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM webhook_endpoints WHERE id = ? AND organization_id = ?",
        (endpoint_id, organization_id),
    ).fetchone()


def update_endpoint(conn: sqlite3.Connection, endpoint_id: str, changes: dict[str, Any]) -> None:
    """Apply `changes` (column → value); `event_types` is given as a list."""
    if "event_types" in changes:
        changes = {**changes, "event_types": json.dumps(changes["event_types"])}
    changes = {**changes, "updated_at": now_text()}
    assignments = ", ".join(f"{column} = ?" for column in changes)
    conn.execute(
        f"UPDATE webhook_endpoints SET {assignments} WHERE id = ?",
        (*changes.values(), endpoint_id),
    )


def delete_endpoint(conn: sqlite3.Connection, endpoint_id: str) -> None:
    conn.execute("DELETE FROM webhook_endpoints WHERE id = ?", (endpoint_id,))


def subscribed_endpoints(
    conn: sqlite3.Connection, organization_id: str, event_type: str
) -> list[sqlite3.Row]:
    """Enabled endpoints of the organization subscribed to `event_type` (interface: Events 3)."""
    rows = conn.execute(
        "SELECT * FROM webhook_endpoints WHERE organization_id = ? AND enabled = 1",
        (organization_id,),
    ).fetchall()
    return [row for row in rows if event_type in json.loads(row["event_types"])]


def insert_delivery(
    conn: sqlite3.Connection, endpoint_id: str, event_id: str, event_type: str, body: str
) -> sqlite3.Row:
    now = now_text()
    delivery_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, "
        "next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
        (delivery_id, endpoint_id, event_id, event_type, body, now, now, now),
    )
    return _one(conn, "SELECT * FROM webhook_deliveries WHERE id = ?", delivery_id)


def get_delivery(
    conn: sqlite3.Connection, endpoint_id: str, delivery_id: str
) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM webhook_deliveries WHERE id = ? AND endpoint_id = ?",
        (delivery_id, endpoint_id),
    ).fetchone()


def requeue_delivery(conn: sqlite3.Connection, delivery_id: str) -> None:
    """Make an ended delivery pending again, due now, with a fresh attempt count."""
    now = now_text()
    conn.execute(
        "UPDATE webhook_deliveries SET status = 'pending', attempt_count = 0, "
        "next_attempt_at = ?, updated_at = ? WHERE id = ?",
        (now, now, delivery_id),
    )


def _one(conn: sqlite3.Connection, sql: str, *params: Any) -> sqlite3.Row:
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row
