"""The waste record, twice: as a person's spreadsheet has it and as the service takes it.

Read each class as a table: one line per column, its type, whether it may be empty, and its
rules. ``WasteRecord`` mirrors the interface's "Waste record (v2 bulk create item)" table and
facts §1.1 field for field.
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
WASTE_UNITS = ("kg", "t")


# fmt: off
class WasteInput(pa.DataFrameModel):
    """One row of a waste spreadsheet, after its cells were read as numbers, dates and codes."""

    facility: Series[str] = pa.Field(str_length={"min_value": 1}, description="Facility name or id, e.g. Madrid Warehouse.")
    identification_name: Series[str] = pa.Field(str_length={"min_value": 1}, description="Waste identifier or invoice number, e.g. RSU-2026-001.")
    start_date: Series[pa.DateTime] = pa.Field(description="First day of the waste period.")
    end_date: Series[pa.DateTime] = pa.Field(description="Last day of the waste period; not before the start date.")
    base_quantity: Series[float] = pa.Field(gt=0, description="Quantity in the unit of the row; greater than 0.")
    unit: Series[str] = pa.Field(isin=WASTE_UNITS, description="kg or t; kg when left empty.")
    ler_code: Series[str] = pa.Field(is_ler_code=(), description="European Waste List code, 6 digits; 20 01 01 or 200101.")
    rd_code: Series[str] = pa.Field(is_rd_code=(), description="Treatment: R1 to R13 (recovery) or D1 to D15 (disposal).")
    destination: Series[str] = pa.Field(description="Treatment plant or waste manager; may be empty.")
    description: Series[str] = pa.Field(description="Free text; may be empty.")
    client_row_id: Series[str] = pa.Field(str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Your id for the row, at most 255 characters; file#sheet!row when empty.")

    class Config:
        name = "WasteInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        dates_in_order = {"first": "start_date", "last": "end_date"}


class WasteRecord(pa.DataFrameModel):
    """One waste record as POST /v2/wastes takes it (interface: Waste record; facts §1.1)."""

    facility_id: Series[str] = pa.Field(is_uuid=(), description="Id of the facility the waste belongs to.")
    identification_name: Series[str] = pa.Field(str_length={"min_value": 1}, description="Waste identifier or invoice number.")
    start_date: Series[pa.DateTime] = pa.Field(description="Start of the waste period.")
    end_date: Series[pa.DateTime] = pa.Field(description="End of the waste period; not before the start.")
    base_quantity: Series[float] = pa.Field(gt=0, description="Quantity in unit_id; greater than 0.")
    unit_id: Series[str] = pa.Field(nullable=True, is_uuid=(), description="Unit id; the service uses kilograms when empty.")
    waste_efs_id: Series[str] = pa.Field(nullable=True, is_uuid=(), description="Emission-factor row for the LER + RD pair.")
    description: Series[str] = pa.Field(description="Free text; default empty.")
    destination: Series[str] = pa.Field(description="Treatment plant; default empty.")
    total_km_to_waste_center: Series[float] = pa.Field(nullable=True, ge=0, description="Distance to the treatment plant in km.")
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Echoed on every result; at most 255 characters.")
    custom_ef_record_id: Series[str] = pa.Field(nullable=True, is_uuid=(), description="Custom emission-factor record; transient input.")

    class Config:
        name = "WasteRecord"
        strict = False
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
        "werk": "facility",
        "site": "facility",
        "facility name": "facility",
        "facility id": "facility",
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
