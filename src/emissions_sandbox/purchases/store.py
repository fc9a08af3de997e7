"""The purchases table and the row functions the routes share."""

from __future__ import annotations

import sqlite3
from typing import Any

from emissions_sandbox import records
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.purchases.factors import purchase_co2e

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS purchases (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    created_by TEXT,
    product_name TEXT,
    description TEXT,
    sector TEXT,
    country TEXT,
    quantity REAL,
    unit_id TEXT,
    purchase_date TEXT,
    purchase_type TEXT,          -- spend_based, supplier_specific
    expense_type TEXT,           -- capex, opex
    status TEXT,                 -- active, pending, in_progress, in_review, inactive, error
    recycled REAL,
    supplier_id TEXT,
    custom_emission_factor_id TEXT,
    file_id TEXT,
    file_name TEXT,
    file_url TEXT,
    co2e REAL,
    error_code TEXT,
    frequency TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS purchases_by_org ON purchases (organization_id, created_at);
"""

PURCHASE_FIELDS = (
    "product_name",
    "description",
    "sector",
    "country",
    "quantity",
    "unit_id",
    "purchase_date",
    "purchase_type",
    "expense_type",
    "status",
    "recycled",
    "supplier_id",
    "custom_emission_factor_id",
    "file_id",
    "file_name",
    "file_url",
    "frequency",
)
WIRE_FIELDS = ("id", "organization_id", *PURCHASE_FIELDS, "co2e", "error_code")


def purchase_not_found(purchase_id: str) -> ServiceError:
    return ServiceError(404, "PURCHASE_NOT_FOUND", f"Purchase with id={purchase_id} not found")


def owned_purchase(conn: sqlite3.Connection, purchase_id: str, organization_id: str) -> Any:
    """The purchase, if it belongs to the organization; else 404 (interface: Purchases)."""
    return records.owned_or_404(conn, "purchases", purchase_id, organization_id, purchase_not_found)


def insert_purchase(
    conn: sqlite3.Connection, organization_id: str, user_id: str, fields: dict[str, Any]
) -> str:
    return records.insert_owned(
        conn, "purchases", organization_id, user_id, PURCHASE_FIELDS, fields
    )


def update_purchase(conn: sqlite3.Connection, purchase_id: str, changes: dict[str, Any]) -> None:
    records.update_columns(conn, "purchases", purchase_id, changes)


def recalculate_purchase(conn: sqlite3.Connection, purchase_id: str) -> None:
    """co2e and status in the request: `error` when it cannot be calculated; a purchase that
    was `error` and now calculates becomes `active`; any other status is the client's."""
    row = conn.execute("SELECT * FROM purchases WHERE id = ?", (purchase_id,)).fetchone()
    outcome = purchase_co2e(conn, row)
    status = row["status"]
    if outcome.error_code:
        status = "error"
    elif status == "error":
        status = "active"
    conn.execute(
        "UPDATE purchases SET co2e = ?, error_code = ?, status = ? WHERE id = ?",
        (outcome.co2e, outcome.error_code, status, purchase_id),
    )


def purchase_to_wire(row: Any) -> dict[str, Any]:
    return {
        **{key: row[key] for key in WIRE_FIELDS},
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
