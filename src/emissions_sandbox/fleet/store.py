"""Tables of vehicles and vehicle consumptions, and the row functions the routes share.

Reference lists (fuels, unknown vehicles) live in data/ CSV files, not in tables (reference.py).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from emissions_sandbox import records
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.fleet.reference import KM_UNIT, units

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS vehicles (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    created_by TEXT,
    name TEXT,
    type TEXT NOT NULL,                       -- passenger, freight
    ownership TEXT NOT NULL,                  -- owned, rented
    license_plate TEXT NOT NULL,
    country TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',    -- active, archived, error
    co2e REAL NOT NULL DEFAULT 0,             -- sum of the calculated consumptions
    vehicle_fuel_id TEXT,
    unknown_vehicle_id TEXT NOT NULL,
    custom_emission_factor_id TEXT,
    registration_year INTEGER,
    market_segment TEXT,
    size TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS vehicles_by_org ON vehicles (organization_id, created_at);

CREATE TABLE IF NOT EXISTS vehicle_consumptions (
    id TEXT PRIMARY KEY,
    vehicle_id TEXT NOT NULL REFERENCES vehicles(id) ON DELETE CASCADE,
    created_by TEXT,
    quantity REAL NOT NULL,
    unit_id TEXT NOT NULL,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    custom_id TEXT,
    status TEXT NOT NULL,                     -- active (calculated) or error
    co2e REAL,
    error_code TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS vehicle_consumptions_by_vehicle
    ON vehicle_consumptions (vehicle_id, created_at);
"""

VEHICLE_FIELDS = (
    "name",
    "type",
    "ownership",
    "license_plate",
    "country",
    "vehicle_fuel_id",
    "unknown_vehicle_id",
    "custom_emission_factor_id",
    "registration_year",
    "market_segment",
    "size",
)
# a change to any of these recalculates the vehicle (interface: Vehicle co2e)
CALCULATION_FIELDS = {"vehicle_fuel_id", "custom_emission_factor_id", "type", "size"}
CALCULATION_FIELDS |= {"registration_year", "market_segment"}


def vehicle_not_found(vehicle_id: str) -> ServiceError:
    return ServiceError(404, "VEHICLE_NOT_FOUND", f"Vehicle with id={vehicle_id} not found")


def owned_vehicle(conn: sqlite3.Connection, vehicle_id: str, organization_id: str) -> Any:
    """The vehicle, if it belongs to the organization; else 404 (interface: rule 1)."""
    return records.owned_or_404(conn, "vehicles", vehicle_id, organization_id, vehicle_not_found)


def insert_vehicle(
    conn: sqlite3.Connection, organization_id: str, user_id: str, fields: dict[str, Any]
) -> str:
    return records.insert_owned(conn, "vehicles", organization_id, user_id, VEHICLE_FIELDS, fields)


def update_vehicle(conn: sqlite3.Connection, vehicle_id: str, changes: dict[str, Any]) -> None:
    records.update_columns(conn, "vehicles", vehicle_id, changes)


def vehicle_to_wire(row: Any) -> dict[str, Any]:
    keys = ("id", "name", "type", "ownership", "license_plate", "country", "status", "co2e")
    return {
        **{key: row[key] for key in keys},
        "vehicle_fuel_id": row["vehicle_fuel_id"],
        "unknown_vehicle_type": None,  # interface: null in every example
        "registration_year": row["registration_year"],
        "market_segment": row["market_segment"],
        "size": row["size"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def consumption_to_wire(row: Any) -> dict[str, Any]:
    unit = units().get(row["unit_id"])
    unit_name = unit.name if unit else None
    is_distance = unit_name == KM_UNIT
    return {
        "id": row["id"],
        "vehicle_id": row["vehicle_id"],
        "status": row["status"],
        "co2e": row["co2e"],
        "error_code": row["error_code"],
        # interface: examples hold fuel_consumed, distance_km, fuel_efficiency and period
        "data": {
            "quantity": row["quantity"],
            "unit_id": row["unit_id"],
            "unit": unit_name,
            "start_date": row["start_date"],
            "end_date": row["end_date"],
            "custom_id": row["custom_id"],
            "period": f"{row['start_date']}/{row['end_date']}",
            "fuel_consumed": None if is_distance else row["quantity"],
            "distance_km": row["quantity"] if is_distance else None,
            "fuel_efficiency": None,
        },
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
