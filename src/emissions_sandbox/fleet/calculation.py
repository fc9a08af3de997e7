"""co2e of vehicle consumptions and the roll-up into their vehicle (README: fleet decisions).

A consumption in a fuel unit (liters, kilograms, kWh) is quantity × the fuel's DESNZ 2024 factor;
one in km is quantity × the DESNZ per-km factor of the car's size (its market segment's size when
it has none, else average); a vehicle with a custom factor takes mass units (quantity in tonnes ×
kg CO2e per tonne). A vehicle's co2e is the sum of its calculated consumptions, 0 without any.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from emissions_sandbox.clock import utc_now
from emissions_sandbox.fleet.reference import (
    DEFAULT_SIZE,
    KM_UNIT,
    km_factors,
    segment_sizes,
    units,
    vehicle_fuels,
)


@dataclass(frozen=True)
class Outcome:
    co2e: float | None
    error_code: str | None  # UNIT_NOT_CONVERTIBLE, CUSTOM_EF_NOT_FOUND, VEHICLE_FUEL_NOT_FOUND


def _failed(code: str) -> Outcome:
    return Outcome(None, code)


def size_for_km(vehicle: Mapping[str, Any]) -> str:
    if vehicle["size"]:
        return str(vehicle["size"])
    if vehicle["market_segment"]:
        return segment_sizes().get(vehicle["market_segment"], DEFAULT_SIZE)
    return DEFAULT_SIZE


def consumption_co2e(
    conn: sqlite3.Connection, vehicle: Mapping[str, Any], quantity: float, unit_id: str
) -> Outcome:
    """The co2e (kg) of `quantity` of `unit_id` used by `vehicle`, or why it cannot be had."""
    unit = units().get(unit_id)
    if unit is None:
        return _failed("UNIT_NOT_CONVERTIBLE")
    if vehicle["custom_emission_factor_id"]:  # facts §10: custom factors override the defaults
        custom = conn.execute(
            """SELECT factor_kg_co2e_per_t FROM custom_emission_factors
            WHERE id = ? AND organization_id = ? AND deleted_at IS NULL""",
            (vehicle["custom_emission_factor_id"], vehicle["organization_id"]),
        ).fetchone()
        if custom is None:
            return _failed("CUSTOM_EF_NOT_FOUND")
        if unit.tonnes_per_unit is None:
            return _failed("UNIT_NOT_CONVERTIBLE")
        return Outcome(quantity * unit.tonnes_per_unit * custom["factor_kg_co2e_per_t"], None)
    fuel = vehicle_fuels().get(vehicle["vehicle_fuel_id"] or "")
    if fuel is None:
        return _failed("VEHICLE_FUEL_NOT_FOUND")
    if unit.name == KM_UNIT:
        if vehicle["type"] != "passenger":  # DESNZ gives freight per tonne.km only
            return _failed("UNIT_NOT_CONVERTIBLE")
        table = km_factors()
        factor = table.get((size_for_km(vehicle), fuel.fuel), table.get((DEFAULT_SIZE, fuel.fuel)))
    else:
        factor = fuel.kg_co2e_per_unit.get(unit.name)
    if factor is None:
        return _failed("UNIT_NOT_CONVERTIBLE")
    return Outcome(quantity * factor, None)


def recalculate_vehicle(conn: sqlite3.Connection, vehicle_id: str) -> None:
    """Recalculate every consumption of the vehicle, then its co2e and status (inside a write
    transaction): `error` when a consumption cannot be calculated, else `active`."""
    vehicle = conn.execute("SELECT * FROM vehicles WHERE id = ?", (vehicle_id,)).fetchone()
    now = utc_now()
    consumptions = conn.execute(
        "SELECT id, quantity, unit_id, co2e, status FROM vehicle_consumptions WHERE vehicle_id = ?",
        (vehicle_id,),
    ).fetchall()
    total, any_error = 0.0, False
    for row in consumptions:
        outcome = consumption_co2e(conn, vehicle, row["quantity"], row["unit_id"])
        status = "error" if outcome.error_code else "active"
        any_error = any_error or outcome.error_code is not None
        total += outcome.co2e or 0.0
        if (outcome.co2e, status) != (row["co2e"], row["status"]):
            conn.execute(
                """UPDATE vehicle_consumptions SET co2e = ?, status = ?, error_code = ?,
                updated_at = ? WHERE id = ?""",
                (outcome.co2e, status, outcome.error_code, now, row["id"]),
            )
    conn.execute(
        "UPDATE vehicles SET co2e = ?, status = ? WHERE id = ?",
        (total, "error" if any_error else "active", vehicle_id),
    )
