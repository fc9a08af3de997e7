"""co2e of a business travel: DESNZ 2024 factor (data/business_travel_factors.csv) × distance ×
travel_number × (2 for a round trip). Flights use the factors with radiative forcing."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from emissions_sandbox.gazetteer import find_place

FACTORS_CSV = Path(__file__).resolve().parent.parent / "data" / "business_travel_factors.csv"
KEY_COLUMNS = ("transport_type", "vehicle_size", "fuel_type", "flight_type", "cabin_class")
ANY = "*"
SHORT_HAUL_MAX_KM = 3_700.0  # DESNZ haul bands: short-haul typically up to about 3,700 km
# the record's null → the value looked up (car: average size, unknown fuel; flight: average cabin)
DEFAULTS = {"vehicle_size": "average", "fuel_type": "unknown", "cabin_class": "average"}


@dataclass(frozen=True)
class Factor:
    kg_co2e_per_unit: float
    unit: str
    source: str


@cache
def factor_table() -> dict[tuple[str, ...], Factor]:
    with FACTORS_CSV.open(newline="", encoding="utf-8") as handle:
        return {
            tuple(row[c] for c in KEY_COLUMNS): Factor(
                float(row["kg_co2e_per_unit"]), row["unit"], row["source"]
            )
            for row in csv.DictReader(handle)
        }


def flight_type_of(travel: Mapping[str, Any]) -> str:
    """The given band, else domestic within one country, else short- or long-haul by distance."""
    if travel["flight_type"]:
        return str(travel["flight_type"])
    if travel["origin"] and travel["destination"]:
        origin, destination = find_place(travel["origin"]), find_place(travel["destination"])
        if origin and destination and origin.country_code == destination.country_code:
            return "domestic"
    if travel["distance_km"] <= SHORT_HAUL_MAX_KM:
        return "short_haul_international"
    return "long_haul_international"


def factor_for(travel: Mapping[str, Any]) -> Factor:
    """The factor row for the record's mode and mode fields; KeyError when the table lacks it."""
    key = dict.fromkeys(KEY_COLUMNS, ANY)
    mode = travel["transport_type"]
    key["transport_type"] = mode
    if mode == "car":
        key["vehicle_size"] = travel["vehicle_size"] or DEFAULTS["vehicle_size"]
        key["fuel_type"] = travel["fuel_type"] or DEFAULTS["fuel_type"]
    elif mode == "motorbike":
        key["vehicle_size"] = travel["vehicle_size"] or DEFAULTS["vehicle_size"]
    elif mode == "aircraft":
        key["flight_type"] = flight_type_of(travel)
        key["cabin_class"] = travel["cabin_class"] or DEFAULTS["cabin_class"]
    return factor_table()[tuple(key[c] for c in KEY_COLUMNS)]


def co2e_of(travel: Mapping[str, Any]) -> float:
    """kg CO2e; car and motorbike factors (per vehicle.km) are counted once per traveller."""
    trips = 2 if travel["round_trip"] else 1
    factor = factor_for(travel).kg_co2e_per_unit
    return factor * float(travel["distance_km"]) * int(travel["travel_number"]) * trips
