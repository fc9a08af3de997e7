"""Logistics recharges (fuel and electricity put into the logistics fleet) as a fleet manager's
list or a fuel-card statement has them, column for column with the recharge of facts §4.4
(interface: Logistics; the payload is "not shown").

Read the class as a table: one line per column, its type, whether it may be empty, and its rules.
``fuel`` and ``toc`` are names (``fuel_id``, ``toc_id``). The service keeps one recharge per
(country, date, quantity, plate): a second row with the same four is the same recharge.
"""

# ruff: noqa: E501  (one line per column, so the class reads as the table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_country_alpha2, ...)

TEXT_MAX = 255
#: Plausibility bound: one recharge line does not reach a million litres, kWh or kg.
MAX_QUANTITY = 1_000_000


# fmt: off
class LogisticsRechargeInput(pa.DataFrameModel):
    """One recharge (facts §4.4; sandbox README: Logistics, Recharges)."""

    fuel: Series[str] = pa.Field(description="Fuel by name (fuel_id): diesel, petrol, lpg, cng, lng, electricity; gasóleo, gasolina... are read too.", metadata={"example": "diesel"})
    country: Series[str] = pa.Field(is_country_alpha2=(), description="Country of the recharge, two-letter ISO code (electricity's factor depends on it).", metadata={"kind": "code", "example": "ES"})
    date: Series[pa.DateTime] = pa.Field(description="Day of the recharge.", metadata={"example": "2026-03-14"})
    quantity: Series[float] = pa.Field(gt=0, le=MAX_QUANTITY, description="Quantity in the fuel's unit: litres, kWh for electricity, kg for CNG.", metadata={"example": 312.45})
    vehicle_license_plate: Series[str] = pa.Field(nullable=True, description="Plate of the vehicle; may be empty.", metadata={"example": "4821 LKM"})
    toc: Series[str] = pa.Field(nullable=True, description="Vehicle type (transport operation category) by name (toc_id), e.g. van_diesel; may be empty.", metadata={"example": "articulated_truck_diesel"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Your id for the row (kept here, not sent); the service knows a recharge by country, date, quantity and plate.", metadata={"example": "60215043"})

    class Config:
        name = "LogisticsRechargeInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
# fmt: on


REQUIRED_INPUT_COLUMNS = ("fuel", "country", "date", "quantity")

#: Header spellings of fuel-card statements and people -> canonical column (compared after
#: normalising: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "fuel_id": "fuel",
        "fuel type": "fuel",
        "combustible": "fuel",
        "carburante": "fuel",
        "energía": "fuel",
        "energia": "fuel",
        "país": "country",
        "pais": "country",
        "country code": "country",
        "fecha": "date",
        "recharge date": "date",
        "fecha recarga": "date",
        "fecha repostaje": "date",
        "litres": "quantity",
        "liters": "quantity",
        "litros": "quantity",
        "kwh": "quantity",
        "cantidad": "quantity",
        "volume": "quantity",
        "plate": "vehicle_license_plate",
        "license plate": "vehicle_license_plate",
        "licence plate": "vehicle_license_plate",
        "matrícula": "vehicle_license_plate",
        "matricula": "vehicle_license_plate",
        "toc_id": "toc",
        "vehicle type": "toc",
        "tipo vehículo": "toc",
        "tipo vehiculo": "toc",
        "row id": "client_row_id",
        "transaction id": "client_row_id",
        "nº operación": "client_row_id",
        "operación": "client_row_id",
    }
)
