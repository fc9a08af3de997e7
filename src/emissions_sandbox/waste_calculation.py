"""co2e of one waste: quantity in tonnes × factor in kg CO2e per tonne (interface: calculation
is the service's; factor chosen by LER + RD code, or the record's custom factor)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class WasteResult:
    quantity: float | None  # tonnes
    co2e: float | None  # kg CO2e
    error_code: str | None = None
    error_params: dict[str, Any] | None = None


@dataclass
class FactorCache:
    """Reference factors and units, read once; custom factors re-read per chunk (they change)."""

    waste_efs: dict[str, float] = field(default_factory=dict)
    tonnes_per_unit: dict[str, float | None] = field(default_factory=dict)
    custom: dict[str, float | None] = field(default_factory=dict)

    def refresh_custom(self, conn: sqlite3.Connection, ids: Iterable[str | None]) -> None:
        if not self.waste_efs:
            for row in conn.execute("SELECT id, factor_kg_co2e_per_t FROM waste_efs"):
                self.waste_efs[row[0]] = float(row[1])
            for row in conn.execute("SELECT id, tonnes_per_unit FROM units"):
                self.tonnes_per_unit[row[0]] = row[1]
        wanted = sorted({i for i in ids if i})
        self.custom = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in conn.execute(
                f"SELECT id, factor_kg_co2e_per_t, deleted_at FROM custom_emission_factors"
                f" WHERE id IN ({marks})",
                part,
            ):
                self.custom[row[0]] = None if row[2] else float(row[1])


def calculate_waste(row: sqlite3.Row, factors: FactorCache) -> WasteResult:
    tonnes_per_unit = factors.tonnes_per_unit.get(row["unit_id"])
    if tonnes_per_unit is None:
        return WasteResult(None, None, "UNIT_NOT_CONVERTIBLE", {"unit_id": row["unit_id"]})
    quantity = row["base_quantity"] * tonnes_per_unit
    custom_id = row["custom_ef_record_id"]
    if custom_id:
        factor = factors.custom.get(custom_id)
        if factor is None:
            return WasteResult(
                quantity, None, "CUSTOM_EF_NOT_FOUND", {"custom_ef_record_id": custom_id}
            )
    elif row["waste_efs_id"]:
        found = factors.waste_efs.get(row["waste_efs_id"])
        if found is None:
            return WasteResult(
                quantity, None, "WASTE_EF_NOT_FOUND", {"waste_efs_id": row["waste_efs_id"]}
            )
        factor = found
    else:
        return WasteResult(quantity, None, "EMISSION_FACTOR_MISSING", {})
    return WasteResult(quantity, quantity * factor)
