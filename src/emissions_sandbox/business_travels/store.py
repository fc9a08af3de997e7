"""Tables of business travels and of each organization's record maximum, with the row
functions the routes and the worker share."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from emissions_sandbox import records
from emissions_sandbox.clock import utc_now

DEFAULT_MAX_RECORDS = 10_000  # interface: Limits, "a maximum exists; its value: not shown"

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS business_travels (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    created_by TEXT,
    travel_date TEXT NOT NULL,
    transport_type TEXT NOT NULL,
    distance_km REAL NOT NULL,             -- one way; computed when origin/destination are given
    origin TEXT,
    destination TEXT,
    travel_number INTEGER NOT NULL,
    round_trip INTEGER NOT NULL,
    vehicle_size TEXT,
    fuel_type TEXT,
    flight_type TEXT,
    cabin_class TEXT,
    status TEXT NOT NULL,                  -- pending, active, error
    co2e REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS business_travels_by_org
    ON business_travels (organization_id, travel_date);
CREATE INDEX IF NOT EXISTS business_travels_pending
    ON business_travels (status, updated_at);

-- The maximum number of business travel records of an organization (403 LIMIT_REACHED);
-- an organization without a row has DEFAULT_MAX_RECORDS. Set it with SQL (README).
CREATE TABLE IF NOT EXISTS business_travel_limits (
    organization_id TEXT PRIMARY KEY REFERENCES organizations(id),
    max_records INTEGER NOT NULL
);
"""

FIELDS = (
    "travel_date", "transport_type", "distance_km", "origin", "destination", "travel_number",
    "round_trip", "vehicle_size", "fuel_type", "flight_type", "cabin_class",
)  # fmt: skip


def travel_json(row: sqlite3.Row) -> dict[str, Any]:
    item = {key: row[key] for key in ("id", *FIELDS, "status", "co2e", "created_at")}
    return {**item, "round_trip": bool(row["round_trip"]), "updated_at": row["updated_at"]}


def max_records(conn: sqlite3.Connection, organization_id: str) -> int:
    row = conn.execute(
        "SELECT max_records FROM business_travel_limits WHERE organization_id = ?",
        (organization_id,),
    ).fetchone()
    return DEFAULT_MAX_RECORDS if row is None else int(row["max_records"])


def count_travels(conn: sqlite3.Connection, organization_id: str) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM business_travels WHERE organization_id = ?", (organization_id,)
    ).fetchone()
    return int(row[0])


def insert_travel(
    conn: sqlite3.Connection, organization_id: str, user_id: str, fields: dict[str, Any]
) -> sqlite3.Row:
    travel_id, now = str(uuid.uuid4()), utc_now()
    values = [fields[name] for name in FIELDS]
    conn.execute(
        f"INSERT INTO business_travels (id, organization_id, created_by, {', '.join(FIELDS)}, "
        f"status, co2e, created_at, updated_at) VALUES (?, ?, ?, {', '.join('?' * len(FIELDS))}, "
        "'pending', 0, ?, ?)",
        (travel_id, organization_id, user_id, *values, now, now),
    )
    return get_travel(conn, organization_id, travel_id)  # type: ignore[return-value]


def get_travel(
    conn: sqlite3.Connection, organization_id: str, travel_id: str
) -> sqlite3.Row | None:
    return records.get_owned(conn, "business_travels", travel_id, organization_id)


def replace_fields(conn: sqlite3.Connection, travel_id: str, fields: dict[str, Any]) -> None:
    """Store the merged fields of a PATCH; the record goes back to `pending` with co2e 0."""
    assignments = ", ".join(f"{name} = ?" for name in FIELDS)
    conn.execute(
        f"UPDATE business_travels SET {assignments}, status = 'pending', co2e = 0, "
        "updated_at = ? WHERE id = ?",
        (*(fields[name] for name in FIELDS), utc_now(), travel_id),
    )


def delete_travel(conn: sqlite3.Connection, travel_id: str) -> None:
    conn.execute("DELETE FROM business_travels WHERE id = ?", (travel_id,))


def pending_travels(conn: sqlite3.Connection, limit: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM business_travels WHERE status = 'pending' ORDER BY updated_at, id LIMIT ?",
        (limit,),
    ).fetchall()


def record_result(conn: sqlite3.Connection, travel_id: str, status: str, co2e: float) -> None:
    conn.execute(
        "UPDATE business_travels SET status = ?, co2e = ?, updated_at = ? WHERE id = ?",
        (status, co2e, utc_now(), travel_id),
    )
