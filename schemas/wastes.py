"""Wastes as a person's spreadsheet has them, column for column with the v2 bulk record.

Read the class as a table: one line per column, its type, whether it may be empty, and its rules.
It mirrors the interface's "Waste record (v2 bulk create item)" table and facts §1.1; where the
API wants an id, the name people write is accepted (``facility``, ``unit``, ``ler_code`` +
``rd_code`` for ``waste_efs_id``).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_ler_code, is_rd_code, ...)

#: Interface, Limits: client_row_id is at most 255 characters.
CLIENT_ROW_ID_MAX = 255
#: Plausibility bound: no waste record of one period reaches 100,000 t (1e8 kg).
MAX_BASE_QUANTITY = 100_000_000
UNIT_SYNONYMS = {
    "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "kilogramos": "kg",
    "tn": "t", "ton": "t", "tons": "t", "tonne": "t", "tonnes": "t", "toneladas": "t", "tonelada": "t",
}  # fmt: skip


# fmt: off
class WasteInput(pa.DataFrameModel):
    """One row of a waste spreadsheet (interface: Waste record; facts §1.1)."""

    facility: Series[str] = pa.Field(description="Facility name or id (facility_id), e.g. Madrid Warehouse.", metadata={"example": "Madrid Warehouse"})
    identification_name: Series[str] = pa.Field(description="Waste identifier or invoice number, e.g. RSU-2026-001.", metadata={"example": "RSU-2026-001"})
    start_date: Series[pa.DateTime] = pa.Field(description="First day of the waste period.", metadata={"example": "2026-01-01"})
    end_date: Series[pa.DateTime] = pa.Field(description="Last day of the waste period; not before the start date.", metadata={"example": "2026-01-31"})
    base_quantity: Series[float] = pa.Field(gt=0, le=MAX_BASE_QUANTITY, description="Quantity in the row's unit; greater than 0.", metadata={"example": 120.5})
    unit: Series[str] = pa.Field(isin=("kg", "t"), description="kg or t (unit_id); kg when left empty.", metadata={"synonyms": UNIT_SYNONYMS, "example": "kg", "reject_code": "INVALID_UNIT"})
    ler_code: Series[str] = pa.Field(is_ler_code=(), description="European Waste List code, 6 digits; 20 01 01 or 200101.", metadata={"kind": "code", "example": "20 01 01"})
    rd_code: Series[str] = pa.Field(is_rd_code=(), description="Treatment: R1 to R13 (recovery) or D1 to D15 (disposal).", metadata={"kind": "code", "example": "R3"})
    destination: Series[str] = pa.Field(nullable=True, description="Treatment plant or waste manager; may be empty.", metadata={"example": "Gestora Norte"})
    description: Series[str] = pa.Field(nullable=True, description="Free text; may be empty.")
    total_km_to_waste_center: Series[float] = pa.Field(nullable=True, ge=0, le=40_000, description="Distance to the treatment plant in km.")
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Your id for the row, at most 255 characters; file#sheet!row when empty.")

    class Config:
        name = "WasteInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        dates_in_order = {"first": "start_date", "last": "end_date"}
# fmt: on


#: Columns without which a row means nothing; the rest have defaults.
REQUIRED_INPUT_COLUMNS = (
    "facility",
    "identification_name",
    "start_date",
    "end_date",
    "base_quantity",
    "ler_code",
    "rd_code",
)

#: Header spellings of ERP exports and people -> canonical column. Keys are compared after
#: normalising (lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "facility_id": "facility",
        "werk": "facility",
        "site": "facility",
        "facility name": "facility",
        "centro": "facility",
        "instalación": "facility",
        "abfallbezeichnung": "identification_name",
        "identification": "identification_name",
        "invoice": "identification_name",
        "invoice number": "identification_name",
        "waste id": "identification_name",
        "von": "start_date",
        "from": "start_date",
        "period start": "start_date",
        "fecha inicio": "start_date",
        "bis": "end_date",
        "to": "end_date",
        "period end": "end_date",
        "fecha fin": "end_date",
        "menge": "base_quantity",
        "quantity": "base_quantity",
        "qty": "base_quantity",
        "qty (kg)": "base_quantity",
        "cantidad": "base_quantity",
        "unit_id": "unit",
        "me": "unit",
        "einheit": "unit",
        "unidad": "unit",
        "ler": "ler_code",
        "ler-code": "ler_code",
        "low code": "ler_code",
        "codigo ler": "ler_code",
        "r/d": "rd_code",
        "rd": "rd_code",
        "treatment": "rd_code",
        "entsorger": "destination",
        "gestor": "destination",
        "text": "description",
        "notes": "description",
        "row id": "client_row_id",
    }
)
