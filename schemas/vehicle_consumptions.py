"""Vehicle consumptions as a fuel card export or a fleet log has them, one row per refuelling,
invoice or period, column for column with the consumption create.

Follows the consumption create (facts §9.4, the legacy CSV columns: vehicle_id, quantity,
unit_id, start_date, end_date, custom_id). The vehicle is named by its plate; ``client_row_id``
(a fuel card transaction or invoice reference) is sent as ``custom_id`` and identifies the row.
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers dates_in_order)

#: Sandbox and legacy CSV: custom_id is at most 255 characters.
CLIENT_ROW_ID_MAX = 255
#: Plausibility bound: no vehicle uses a million litres, kWh or km in one record.
MAX_QUANTITY = 1_000_000
#: Units a consumption may be given in (the fuel units of ``GET /v1/vehicle-fuels``), as read.
UNITS = ("liters", "kilograms", "tonnes", "kwh", "km")
UNIT_WORDS = {
    "l": "liters", "lt": "liters", "lts": "liters", "litre": "liters", "litres": "liters", "liter": "liters",
    "litro": "liters", "litros": "liters", "kg": "kilograms", "kgs": "kilograms", "kilo": "kilograms",
    "kilos": "kilograms", "kilogram": "kilograms", "kilogramos": "kilograms", "t": "tonnes",
    "tonne": "tonnes", "toneladas": "tonnes", "kw_h": "kwh", "kilowatt_hour": "kwh", "kilowatt_hours": "kwh",
    "kilometros": "km", "kilómetros": "km", "kilometres": "km", "kilometers": "km",
}  # fmt: skip


# fmt: off
class VehicleConsumptionInput(pa.DataFrameModel):
    """One row of a fuel card export or fleet log (facts §9.4: consumption columns)."""

    license_plate: Series[str] = pa.Field(description="Plate of the vehicle, as in the fleet file (spaces and hyphens ignored).", metadata={"kind": "code", "example": "1234 KLM"})
    quantity: Series[float] = pa.Field(gt=0, le=MAX_QUANTITY, description="Quantity in the row's unit; greater than 0.", metadata={"example": 85.4})
    unit: Series[str] = pa.Field(isin=UNITS, description="liters, kilograms, tonnes, kWh or km; one the vehicle's fuel can take.", metadata={"synonyms": UNIT_WORDS, "example": "liters", "reject_code": "INVALID_UNIT"})
    start_date: Series[pa.DateTime] = pa.Field(description="First day of the consumption (the refuelling day for a single ticket).", metadata={"example": "2026-01-01"})
    end_date: Series[pa.DateTime] = pa.Field(nullable=True, description="Last day of the consumption, not before the start date; the start date when empty (one refuelling).", metadata={"example": "2026-01-31"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Fuel card transaction or invoice reference, one per row (sent as custom_id); file#sheet!row when empty.", metadata={"example": "SOLRED-2026-000123"})

    class Config:
        name = "VehicleConsumptionInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        dates_in_order = {"first": "start_date", "last": "end_date"}
# fmt: on


#: Columns without which a row means nothing (facts §9.4: required consumption columns; an
#: empty end date is the start date).
REQUIRED_INPUT_COLUMNS = ("license_plate", "quantity", "unit", "start_date")

#: Header spellings of fuel card exports and people -> canonical column (compared after
#: normalising: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "vehicle_id": "license_plate",
        "plate": "license_plate",
        "matrícula": "license_plate",
        "matricula": "license_plate",
        "kennzeichen": "license_plate",
        "litros": "quantity",
        "cantidad": "quantity",
        "qty": "quantity",
        "menge": "quantity",
        "unit_id": "unit",
        "unidad": "unit",
        "einheit": "unit",
        "from": "start_date",
        "fecha inicio": "start_date",
        "desde": "start_date",
        "fecha": "start_date",
        "fecha operación": "start_date",
        "to": "end_date",
        "fecha fin": "end_date",
        "hasta": "end_date",
        "custom_id": "client_row_id",
        "referencia": "client_row_id",
        "nº operación": "client_row_id",
        "n operación": "client_row_id",
        "operación": "client_row_id",
        "operacion": "client_row_id",
        "id transacción": "client_row_id",
        "transaction id": "client_row_id",
        "invoice": "client_row_id",
        "factura": "client_row_id",
        "ticket": "client_row_id",
    }
)
