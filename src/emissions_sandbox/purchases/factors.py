"""co2e of a purchase (README: purchases decisions).

spend_based: quantity (money) → USD at the fixed rate of data/purchase_units.csv × the sector's
EPA factor (kg CO2e per 2022 USD, data/purchase_sector_factors.csv); supplier_specific: quantity
(mass) in tonnes × the custom factor (kg CO2e per tonne). Both × (1 − recycled).
"""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Outcome:
    co2e: float | None
    error_code: str | None  # SECTOR_NOT_FOUND, UNIT_NOT_CONVERTIBLE, CUSTOM_EF_NOT_FOUND


def read_data_csv(name: str) -> list[dict[str, str]]:
    """Rows of data/<name>; lines starting with '#' are comments."""
    text = (resources.files("emissions_sandbox") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


@cache
def sector_factors() -> dict[str, float]:
    """kg CO2e per USD, keyed by NAICS code, `NAICS <code>` and sector name (case-folded)."""
    table: dict[str, float] = {}
    for row in read_data_csv("purchase_sector_factors.csv"):
        factor = float(row["kg_co2e_per_unit"])
        for key in (row["naics_code"], f"naics {row['naics_code']}", row["sector_name"]):
            table[key.casefold()] = factor
    return table


@cache
def purchase_units() -> dict[str, dict[str, float | None]]:
    def number(value: str) -> float | None:
        return float(value) if value else None

    return {
        row["unit_id"].casefold(): {
            "usd_per_unit": number(row["usd_per_unit"]),
            "tonnes_per_unit": number(row["tonnes_per_unit"]),
        }
        for row in read_data_csv("purchase_units.csv")
    }


def purchase_co2e(conn: sqlite3.Connection, purchase: Mapping[str, Any]) -> Outcome:
    unit = purchase_units().get(str(purchase["unit_id"]).casefold(), {})
    kept = 1.0 - (purchase["recycled"] or 0.0)  # recycled content is counted as carbon-free
    if purchase["purchase_type"] == "supplier_specific":
        custom = conn.execute(
            """SELECT factor_kg_co2e_per_t FROM custom_emission_factors
            WHERE id = ? AND organization_id = ? AND deleted_at IS NULL""",
            (purchase["custom_emission_factor_id"], purchase["organization_id"]),
        ).fetchone()
        if custom is None:
            return Outcome(None, "CUSTOM_EF_NOT_FOUND")
        tonnes_per_unit = unit.get("tonnes_per_unit")
        if tonnes_per_unit is None:
            return Outcome(None, "UNIT_NOT_CONVERTIBLE")
        tonnes = purchase["quantity"] * tonnes_per_unit
        return Outcome(tonnes * custom["factor_kg_co2e_per_t"] * kept, None)
    factor = sector_factors().get(str(purchase["sector"]).strip().casefold())
    if factor is None:
        return Outcome(None, "SECTOR_NOT_FOUND")
    usd_per_unit = unit.get("usd_per_unit")
    if usd_per_unit is None:
        return Outcome(None, "UNIT_NOT_CONVERTIBLE")
    return Outcome(purchase["quantity"] * usd_per_unit * factor * kept, None)
