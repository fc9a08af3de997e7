"""The fleet's reference data, read once from the CSV files in data/: vehicle fuels and their
units and factors, unknown vehicles, and the per-km factors by size. Ids are uuid5, the same in
every database."""

from __future__ import annotations

import csv
import uuid
from dataclasses import dataclass
from functools import cache
from importlib import resources

FLEET_NAMESPACE = uuid.UUID("0f3c1b9e-4d2a-4e57-9b8c-6a1d2e3f4b5c")
KM_UNIT = "km"
DEFAULT_SIZE = "average_car"


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    type: str
    tonnes_per_unit: float | None


@dataclass(frozen=True)
class VehicleFuel:
    id: str
    fuel: str
    country: str
    created_at: str
    kg_co2e_per_unit: dict[str, float]  # unit name → factor, for fuel quantities


@dataclass(frozen=True)
class UnknownVehicle:
    id: str
    type: str
    country: str
    created_at: str


def read_data_csv(name: str) -> list[dict[str, str]]:
    """Rows of data/<name>; lines starting with '#' are comments."""
    text = (resources.files("emissions_sandbox") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


def reference_id(kind: str, *keys: str) -> str:
    return str(uuid.uuid5(FLEET_NAMESPACE, "|".join((kind, *keys))))


@cache
def units() -> dict[str, Unit]:
    """Consumption units by id."""
    return {
        row["id"]: Unit(
            row["id"],
            row["name"],
            row["type"],
            float(row["tonnes_per_unit"]) if row["tonnes_per_unit"] else None,
        )
        for row in read_data_csv("fleet_units.csv")
    }


def unit_named(name: str) -> Unit:
    return next(unit for unit in units().values() if unit.name == name)


@cache
def vehicle_fuels() -> dict[str, VehicleFuel]:
    factors: dict[str, dict[str, float]] = {}
    for row in read_data_csv("vehicle_fuel_factors.csv"):
        factors.setdefault(row["fuel"], {})[row["unit_name"]] = float(row["kg_co2e_per_unit"])
    fuels = [
        VehicleFuel(
            reference_id("vehicle_fuel", row["fuel"], row["country"]),
            row["fuel"],
            row["country"],
            row["created_at"],
            factors[row["fuel"]],
        )
        for row in read_data_csv("vehicle_fuels.csv")
    ]
    return {fuel.id: fuel for fuel in fuels}


@cache
def unknown_vehicles() -> dict[str, UnknownVehicle]:
    rows = [
        UnknownVehicle(
            reference_id("unknown_vehicle", row["type"], row["country"]),
            row["type"],
            row["country"],
            row["created_at"],
        )
        for row in read_data_csv("unknown_vehicles.csv")
    ]
    return {row.id: row for row in rows}


@cache
def km_factors() -> dict[tuple[str, str], float]:
    """(size, fuel) → kg CO2e per vehicle.km."""
    return {
        (row["size"], row["fuel"]): float(row["kg_co2e_per_unit"])
        for row in read_data_csv("vehicle_km_factors.csv")
    }


@cache
def segment_sizes() -> dict[str, str]:
    return {
        row["market_segment"]: row["size"] for row in read_data_csv("vehicle_market_segments.csv")
    }
