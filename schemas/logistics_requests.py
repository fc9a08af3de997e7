"""Logistics requests (shipment legs) as a transport planner's or a TMS's export has them, column
for column with the request of facts §4.1 (interface: Logistics; the payload is "not shown").

Read the class as a table: one line per column, its type, whether it may be empty, and its rules.
A leg gives its distance or both places (or both: the distance wins), and its vehicle type
(``toc``, by name) or the transport mode (``category``); ``hub`` names a logistic hub of the
organization (``hub_id``).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers value_or_pair, at_least_one_of, ...)

TEXT_MAX = 255
#: Plausibility bounds: a leg does not go round the Earth; no load reaches a million tonnes.
MAX_DISTANCE_KM = 40_000
MAX_LOAD = 1_000_000_000
MAX_TKM = 10_000_000_000
LOAD_UNITS = ("kg", "ton", "pallets", "teu", "feu")
LOAD_UNIT_SYNONYMS = {
    "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogramos": "kg", "t": "ton", "tn": "ton",
    "tons": "ton", "tonne": "ton", "tonnes": "ton", "tonelada": "ton", "toneladas": "ton",
    "pallet": "pallets", "palet": "pallets", "palets": "pallets", "paletas": "pallets",
    "pal": "pallets", "plt": "pallets",
}  # fmt: skip
CATEGORIES = ("road", "rail", "maritime", "air")
CATEGORY_SYNONYMS = {
    "carretera": "road", "truck": "road", "camion": "road", "camión": "road", "ftl": "road",
    "ltl": "road", "van": "road", "furgoneta": "road", "rail": "rail", "train": "rail",
    "tren": "rail", "ferrocarril": "rail", "sea": "maritime", "ocean": "maritime",
    "ship": "maritime", "mar": "maritime", "maritimo": "maritime", "marítimo": "maritime",
    "barco": "maritime", "aereo": "air", "aéreo": "air", "plane": "air", "avion": "air",
    "avión": "air", "air_freight": "air",
}  # fmt: skip


# fmt: off
class LogisticsRequestInput(pa.DataFrameModel):
    """One leg of a shipment (facts §4.1; sandbox README: Logistics)."""

    movement_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Shipment id, the service's dedup key with the stretch; the row's own id when empty.", metadata={"example": "MOV-2026-001234"})
    movement_stretch: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Leg of the shipment (1, 2, ...); may be empty for a one-leg shipment.", metadata={"example": "1"})
    shipment_date: Series[pa.DateTime] = pa.Field(description="Day the leg was shipped.", metadata={"example": "2026-02-10"})
    origin: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Where the leg starts, City or City, Country; with destination when there is no distance.", metadata={"example": "Madrid, Spain"})
    destination: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Where the leg ends, City or City, Country.", metadata={"example": "Barcelona, Spain"})
    distance_km: Series[float] = pa.Field(nullable=True, gt=0, le=MAX_DISTANCE_KM, description="Distance in km; when given, the places are not looked up.", metadata={"example": 620.0})
    load: Series[float] = pa.Field(nullable=True, gt=0, le=MAX_LOAD, description="Load in load_unit; the vehicle type's default load when empty.", metadata={"example": 12000.0})
    load_unit: Series[str] = pa.Field(nullable=True, isin=LOAD_UNITS, description="kg (default), ton, pallets, teu or feu.", metadata={"synonyms": LOAD_UNIT_SYNONYMS, "example": "kg"})
    load_factor: Series[float] = pa.Field(nullable=True, gt=0, le=1, description="Share of the load that counts, above 0 up to 1 (default 1).", metadata={"example": 1.0})
    toc: Series[str] = pa.Field(nullable=True, description="Vehicle type (transport operation category) by name, e.g. articulated_truck_diesel; or give category.", metadata={"example": "articulated_truck_diesel"})
    category: Series[str] = pa.Field(nullable=True, isin=CATEGORIES, description="road, rail, maritime or air: the mode's average vehicle when toc is empty.", metadata={"synonyms": CATEGORY_SYNONYMS, "example": "road"})
    origin_country: Series[str] = pa.Field(nullable=True, is_country_code=(), description="Country code for regional factors, e.g. ES; GLO when empty.", metadata={"kind": "code", "example": "ES"})
    year: Series[pd.Int64Dtype] = pa.Field(nullable=True, in_range={"min_value": 1990, "max_value": 2100}, description="Factor year; the current year when empty.", metadata={"example": 2026})
    cleaning: Series[pd.BooleanDtype] = pa.Field(nullable=True, description="yes when the vehicle was cleaned for the load; no when empty.", metadata={"example": "no"})
    client: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Customer of the shipment; may be empty.", metadata={"example": "Distribuciones Norte"})
    movement_stage: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Stage of the movement (first mile, line haul...); may be empty.", metadata={"example": "line haul"})
    vehicle_license_plate: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Plate of the vehicle; may be empty.", metadata={"example": "4821 LKM"})
    trailer_license_plate: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Plate of the trailer; may be empty.", metadata={"example": "R 1234 BCD"})
    subcontractor: Series[pd.BooleanDtype] = pa.Field(nullable=True, description="yes when a subcontractor moved the leg; no when empty.", metadata={"example": "yes"})
    tkm: Series[float] = pa.Field(nullable=True, gt=0, le=MAX_TKM, description="Measured tonne-kilometres, used as given; may be empty.", metadata={"example": 7440.0})
    hub: Series[str] = pa.Field(nullable=True, description="Logistic hub of the leg by name (hub_id); may be empty.", metadata={"example": "Hub Madrid Sur"})
    package_key: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Package label or tracking code grouping legs; may be empty.", metadata={"example": "PKG-88123"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": TEXT_MAX}, description="Your id for the row (kept here, not sent); the leg's movement_id when that is empty.", metadata={"example": "TMS-2026-00017"})

    class Config:
        name = "LogisticsRequestInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        value_or_pair = {"given": "distance_km", "pair": ["origin", "destination"]}
        at_least_one_of = {"columns": ["toc", "category"]}
# fmt: on


REQUIRED_INPUT_COLUMNS = ("shipment_date",)

#: Header spellings of TMS exports and people -> canonical column (compared after normalising:
#: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "movement": "movement_id",
        "shipment id": "movement_id",
        "shipment": "movement_id",
        "envío": "movement_id",
        "envio": "movement_id",
        "expedición": "movement_id",
        "expedicion": "movement_id",
        "nº expedición": "movement_id",
        "stretch": "movement_stretch",
        "leg": "movement_stretch",
        "tramo": "movement_stretch",
        "date": "shipment_date",
        "ship date": "shipment_date",
        "fecha": "shipment_date",
        "fecha envío": "shipment_date",
        "fecha envio": "shipment_date",
        "from": "origin",
        "origen": "origin",
        "to": "destination",
        "destino": "destination",
        "km": "distance_km",
        "distance": "distance_km",
        "distancia": "distance_km",
        "weight": "load",
        "weight (kg)": "load",
        "peso": "load",
        "carga": "load",
        "unit": "load_unit",
        "unidad": "load_unit",
        "unidad carga": "load_unit",
        "vehicle type": "toc",
        "tipo vehículo": "toc",
        "tipo vehiculo": "toc",
        "mode": "category",
        "modo": "category",
        "transport mode": "category",
        "country": "origin_country",
        "país origen": "origin_country",
        "pais origen": "origin_country",
        "customer": "client",
        "cliente": "client",
        "stage": "movement_stage",
        "etapa": "movement_stage",
        "plate": "vehicle_license_plate",
        "matrícula": "vehicle_license_plate",
        "matricula": "vehicle_license_plate",
        "trailer": "trailer_license_plate",
        "remolque": "trailer_license_plate",
        "matrícula remolque": "trailer_license_plate",
        "subcontratado": "subcontractor",
        "subcontracted": "subcontractor",
        "carrier subcontracted": "subcontractor",
        "hub_id": "hub",
        "hub name": "hub",
        "centro logístico": "hub",
        "almacén": "hub",
        "package": "package_key",
        "tracking": "package_key",
        "bulto": "package_key",
        "row id": "client_row_id",
    }
)
