"""co2e of a commuting period: travel days in the period (dates on the listed weekdays) ×
daily_trips × total_km × the DESNZ 2024 factor of the mode (data/commuting_factors.csv)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from datetime import date
from functools import cache
from pathlib import Path

FACTORS_CSV = Path(__file__).resolve().parent.parent / "data" / "commuting_factors.csv"
ANY = "*"


@cache
def factor_table() -> dict[tuple[str, str, str], float]:
    """(transport_type, vehicle_size, fuel_type) → kg CO2e per km of one trip."""
    with FACTORS_CSV.open(newline="", encoding="utf-8") as handle:
        return {
            (row["transport_type"], row["vehicle_size"], row["fuel_type"]): float(
                row["kg_co2e_per_unit"]
            )
            for row in csv.DictReader(handle)
        }


def commuting_factor(transport_type: str, vehicle_size: str | None, fuel_type: str | None) -> float:
    """Car: size (default average) × fuel (default unknown); motorbike: size; others: the mode."""
    if transport_type == "car":
        key = (transport_type, vehicle_size or "average", fuel_type or "unknown")
    elif transport_type == "motorbike":
        key = (transport_type, vehicle_size or "average", ANY)
    else:
        key = (transport_type, ANY, ANY)
    return factor_table()[key]


def travel_days(start: date, end: date, weekdays: Iterable[int]) -> int:
    """Dates from `start` to `end` inclusive whose weekday (0 = Monday) is listed."""
    listed = set(weekdays)
    full_weeks, rest = divmod((end - start).days + 1, 7)
    first = start.weekday()
    return full_weeks * len(listed) + sum(1 for i in range(rest) if (first + i) % 7 in listed)


def period_co2e(
    *,
    start: date,
    end: date,
    weekly_travels: Iterable[int] | None,
    daily_trips: int,
    total_km: float | None,
    transport_type: str,
    vehicle_size: str | None,
    fuel_type: str | None,
) -> float:
    if not weekly_travels or not total_km:
        return 0.0
    factor = commuting_factor(transport_type, vehicle_size, fuel_type)
    return travel_days(start, end, weekly_travels) * daily_trips * total_km * factor
