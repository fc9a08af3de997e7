"""Tables of employees and commuting periods (a period is removed with its employee), with the
row functions the routes use."""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from emissions_sandbox import records
from emissions_sandbox.clock import utc_now

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS employees (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    created_by TEXT,
    name TEXT,
    email TEXT,
    situation TEXT NOT NULL,               -- active, inactive, terminated
    status TEXT NOT NULL,                  -- uploaded, loading
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS employees_by_org ON employees (organization_id, created_at);

CREATE TABLE IF NOT EXISTS employee_periods (
    id TEXT PRIMARY KEY,
    employee_id TEXT NOT NULL REFERENCES employees(id) ON DELETE CASCADE,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    commuting_type TEXT NOT NULL,
    transport_type TEXT NOT NULL,
    total_km REAL,
    weekly_travels TEXT,                   -- JSON array of weekday indices, 0 = Monday
    daily_trips INTEGER NOT NULL,
    vehicle_size TEXT,
    fuel_type TEXT,
    renewable_energy TEXT,
    carpool INTEGER NOT NULL,
    situation TEXT,
    response_medium TEXT,
    origin TEXT,
    destination TEXT,
    co2e REAL NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS employee_periods_by_employee
    ON employee_periods (employee_id, start_date);
"""

EMPLOYEE_FIELDS = ("name", "email", "situation", "status")
PERIOD_FIELDS = (
    "start_date", "end_date", "commuting_type", "transport_type", "total_km", "weekly_travels",
    "daily_trips", "vehicle_size", "fuel_type", "renewable_energy", "carpool", "situation",
    "response_medium", "origin", "destination", "co2e",
)  # fmt: skip


def period_json(row: sqlite3.Row) -> dict[str, Any]:
    item = {key: row[key] for key in ("id", "employee_id", *PERIOD_FIELDS, "created_at")}
    weekly = row["weekly_travels"]
    item["weekly_travels"] = json.loads(weekly) if weekly is not None else None
    item["carpool"] = bool(row["carpool"])
    return {**item, "updated_at": row["updated_at"]}


def employee_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    periods = conn.execute(
        "SELECT * FROM employee_periods WHERE employee_id = ? ORDER BY start_date, id",
        (row["id"],),
    ).fetchall()
    item = {key: row[key] for key in ("id", *EMPLOYEE_FIELDS, "organization_id", "created_at")}
    return {**item, "periods": [period_json(p) for p in periods], "updated_at": row["updated_at"]}


def insert_employee(
    conn: sqlite3.Connection, organization_id: str, user_id: str, fields: dict[str, Any]
) -> sqlite3.Row:
    employee_id = records.insert_owned(
        conn, "employees", organization_id, user_id, EMPLOYEE_FIELDS, fields
    )
    return get_employee(conn, organization_id, employee_id)  # type: ignore[return-value]


def get_employee(
    conn: sqlite3.Connection, organization_id: str, employee_id: str
) -> sqlite3.Row | None:
    return records.get_owned(conn, "employees", employee_id, organization_id)


def update_employee(conn: sqlite3.Connection, employee_id: str, changes: dict[str, Any]) -> None:
    records.update_columns(conn, "employees", employee_id, changes)


def delete_employee(conn: sqlite3.Connection, employee_id: str) -> None:
    """Hard delete; the periods (and their co2e) go by ON DELETE CASCADE."""
    conn.execute("DELETE FROM employees WHERE id = ?", (employee_id,))


def insert_period(conn: sqlite3.Connection, fields: dict[str, Any]) -> sqlite3.Row:
    period_id, now = str(uuid.uuid4()), utc_now()
    values = [fields[name] for name in PERIOD_FIELDS]
    conn.execute(
        f"INSERT INTO employee_periods (id, employee_id, {', '.join(PERIOD_FIELDS)}, created_at, "
        f"updated_at) VALUES (?, ?, {', '.join('?' * len(PERIOD_FIELDS))}, ?, ?)",
        (period_id, fields["employee_id"], *values, now, now),
    )
    row = conn.execute("SELECT * FROM employee_periods WHERE id = ?", (period_id,)).fetchone()
    assert row is not None
    return row


def delete_period(conn: sqlite3.Connection, organization_id: str, period_id: str) -> bool:
    """Hard delete of one commuting period of the organization's employees; False when there is
    no such period in the organization (its co2e goes with it)."""
    cursor = conn.execute(
        """DELETE FROM employee_periods WHERE id = ? AND employee_id IN
        (SELECT id FROM employees WHERE organization_id = ?)""",
        (period_id, organization_id),
    )
    return cursor.rowcount > 0
