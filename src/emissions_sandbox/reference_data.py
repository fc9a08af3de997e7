"""Global reference data (units, waste emission factors) loaded from the CSV files in data/.

Waste factor ids are uuid5 of (low_code, rd_code, region), so they are the same in every database.
"""

from __future__ import annotations

import csv
import sqlite3
import uuid
from functools import cache
from importlib import resources
from typing import Any

KILOGRAMS_ID = "61743a63-ff70-459c-9567-5eee8f7dfd5c"  # facts §1.1: the default unit
TONNES_ID = "c6d4a0f1-2b9e-4a57-9d1f-0b6f5a7e3c21"
WASTE_EF_NAMESPACE = uuid.UUID("5b0c7a2e-8f4d-4c39-a7f1-2d6e9b3c0a51")
REGIONS = ("GLO", "ES")


def waste_ef_id(low_code: str, rd_code: str, region: str) -> str:
    return str(uuid.uuid5(WASTE_EF_NAMESPACE, f"{low_code}|{rd_code}|{region}"))


def _rows(name: str) -> list[dict[str, str]]:
    text = (resources.files("emissions_sandbox") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


@cache
def waste_ef_rows() -> tuple[dict[str, Any], ...]:
    """Every (LER, RD, region) row with its factor, joined from the three CSV files."""
    factors = {(r["activity"], r["subtype"]): r for r in _rows("waste_factors.csv")}
    rd_codes = {r["rd_code"]: r for r in _rows("rd_codes.csv")}
    rows = []
    for code in _rows("waste_codes.csv"):
        factor = factors[(code["material"], code["treatment"])]
        rd = rd_codes[code["rd_code"]]
        for region in REGIONS:
            rows.append(
                {
                    "id": waste_ef_id(code["low_code"], code["rd_code"], region),
                    "low_code": code["low_code"],
                    "low_name": code["low_name"],
                    "low_description": code["low_name"],
                    "rd_code": code["rd_code"],
                    "rd_name": rd["rd_name"],
                    "rd_description": rd["rd_description"],
                    "region": region,
                    "material": code["material"],
                    "treatment": code["treatment"],
                    "factor_kg_co2e_per_t": float(factor["kg_co2e_per_unit"]),
                    "source": factor["source"],
                }
            )
    return tuple(rows)


def unit_rows() -> list[dict[str, Any]]:
    return [
        {**r, "tonnes_per_unit": float(r["tonnes_per_unit"]) if r["tonnes_per_unit"] else None}
        for r in _rows("units.csv")
    ]


def load_reference_data(conn: sqlite3.Connection) -> None:
    """Insert or refresh the reference rows (idempotent)."""
    conn.executemany(
        "INSERT OR REPLACE INTO units (id, name, type, tonnes_per_unit)"
        " VALUES (:id, :name, :type, :tonnes_per_unit)",
        unit_rows(),
    )
    conn.executemany(
        """INSERT OR REPLACE INTO waste_efs (id, low_code, low_name, low_description, rd_code,
        rd_name, rd_description, region, material, treatment, factor_kg_co2e_per_t, source)
        VALUES (:id, :low_code, :low_name, :low_description, :rd_code, :rd_name, :rd_description,
        :region, :material, :treatment, :factor_kg_co2e_per_t, :source)""",
        waste_ef_rows(),
    )
