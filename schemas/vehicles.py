"""Vehicles as a fleet manager's list has them, column for column with the vehicle create.

Mirrors the interface's "POST /v1/vehicles" body and facts §9.4. Where the API wants ids, the
names people write are accepted: ``vehicle_fuel`` (diesel, petrol, ...; resolved with the
vehicle's ``country``, else the global list) and ``unknown_vehicle`` (car, van, truck, ...).
A plate is read in upper case without spaces, hyphens or dots (``1234-KLM`` is ``1234KLM``).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_uuid, at_least_one_of, ...)

MARKET_SEGMENTS = ("mini", "supermini", "lower_medium", "upper_medium", "executive", "luxury", "sports", "dual_purpose_4x4", "mpv")
SIZES = ("small_car", "medium", "large_car", "average_car")
#: Plausibility bounds of a registration year (the service takes 1886 to 2100).
FIRST_YEAR, LAST_YEAR = 1950, 2030
TYPE_WORDS = {"turismo": "passenger", "pasajeros": "passenger", "personas": "passenger", "car": "passenger",
              "goods": "freight", "cargo": "freight", "carga": "freight", "mercancias": "freight", "mercancías": "freight"}  # fmt: skip
OWNERSHIP_WORDS = {"own": "owned", "propio": "owned", "propiedad": "owned", "rent": "rented", "rental": "rented",
                   "renting": "rented", "leasing": "rented", "lease": "rented", "alquilado": "rented", "alquiler": "rented"}  # fmt: skip
SEGMENT_WORDS = {"4x4": "dual_purpose_4x4", "suv": "dual_purpose_4x4", "monovolumen": "mpv", "deportivo": "sports",
                 "lujo": "luxury", "ejecutivo": "executive", "compacto": "lower_medium", "utilitario": "supermini"}  # fmt: skip
SIZE_WORDS = {"small": "small_car", "pequeño": "small_car", "pequeno": "small_car", "mediano": "medium",
              "large": "large_car", "grande": "large_car", "average": "average_car", "medio": "average_car"}  # fmt: skip
#: Fuel and vehicle-type words people write -> the names the service's reference lists use.
FUEL_WORDS: Mapping[str, str] = MappingProxyType({
    "gasoleo": "diesel", "gasóleo": "diesel", "gasoil": "diesel", "diésel": "diesel", "gasóleo a": "diesel",
    "gasolina": "petrol", "gasoline": "petrol", "benzine": "petrol", "glp": "lpg", "autogas": "lpg",
    "gnc": "cng", "gnv": "cng", "gas natural": "cng", "electrico": "electricity", "eléctrico": "electricity",
    "electric": "electricity", "ev": "electricity", "bev": "electricity",
})  # fmt: skip
VEHICLE_WORDS: Mapping[str, str] = MappingProxyType({
    "coche": "car", "turismo": "car", "todoterreno": "suv", "furgoneta": "van", "camion": "truck",
    "camión": "truck", "autobus": "bus", "autobús": "bus", "moto": "motorcycle", "motocicleta": "motorcycle",
})  # fmt: skip


# fmt: off
class VehicleInput(pa.DataFrameModel):
    """One row of a fleet list (interface: POST /v1/vehicles; facts §9.4)."""

    name: Series[str] = pa.Field(nullable=True, description="What the fleet calls the vehicle (its alias); may be empty.", metadata={"example": "Furgoneta reparto Madrid 1"})
    type: Series[str] = pa.Field(isin=("passenger", "freight"), description="passenger or freight.", metadata={"synonyms": TYPE_WORDS, "example": "freight"})
    ownership: Series[str] = pa.Field(isin=("owned", "rented"), description="owned or rented (renting and leasing are rented).", metadata={"synonyms": OWNERSHIP_WORDS, "example": "owned"})
    license_plate: Series[str] = pa.Field(description="License plate, one row per vehicle; consumption files name the vehicle by it.", metadata={"kind": "code", "example": "1234 KLM"})
    unknown_vehicle: Series[str] = pa.Field(description="Vehicle type for generic factors: car, suv, van, truck, bus, tractor, motorcycle, generic.", metadata={"example": "van"})
    country: Series[str] = pa.Field(is_country_code=(), description="ISO 3166-1 country code where the vehicle runs; picks the country's fuels.", metadata={"kind": "code", "example": "ES"})
    vehicle_fuel: Series[str] = pa.Field(nullable=True, description="Fuel: diesel, petrol, lpg, cng, electricity (gasóleo, gasolina... accepted); or give a custom factor.", metadata={"example": "diesel"})
    custom_emission_factor_id: Series[str] = pa.Field(nullable=True, is_uuid=(), description="Id of a custom emission factor of the organization, instead of a fuel.")
    registration_year: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=FIRST_YEAR, le=LAST_YEAR, description="Year of first registration, YYYY.", metadata={"example": 2021})
    market_segment: Series[str] = pa.Field(nullable=True, isin=MARKET_SEGMENTS, description="Car market segment: mini, supermini, lower_medium, upper_medium, executive, luxury, sports, dual_purpose_4x4, mpv.", metadata={"synonyms": SEGMENT_WORDS, "example": "lower_medium"})
    size: Series[str] = pa.Field(nullable=True, isin=SIZES, description="Car size: small_car, medium, large_car, average_car.", metadata={"synonyms": SIZE_WORDS, "example": "medium"})

    class Config:
        name = "VehicleInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        at_least_one_of = {"columns": ["vehicle_fuel", "custom_emission_factor_id"]}
# fmt: on


#: Columns without which a row means nothing (interface: required in the create body).
REQUIRED_INPUT_COLUMNS = ("type", "ownership", "license_plate", "unknown_vehicle", "country")

#: Header spellings -> canonical column (compared after normalising: lowercase; spaces,
#: underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "alias": "name",
        "vehicle name": "name",
        "descripción": "name",
        "descripcion": "name",
        "vehicle type": "type",
        "tipo": "type",
        "uso": "type",
        "propiedad": "ownership",
        "régimen": "ownership",
        "regimen": "ownership",
        "plate": "license_plate",
        "matrícula": "license_plate",
        "matricula": "license_plate",
        "kennzeichen": "license_plate",
        "unknown_vehicle_id": "unknown_vehicle",
        "vehicle category": "unknown_vehicle",
        "tipo de vehículo": "unknown_vehicle",
        "tipo de vehiculo": "unknown_vehicle",
        "categoría": "unknown_vehicle",
        "categoria": "unknown_vehicle",
        "país": "country",
        "pais": "country",
        "vehicle_fuel_id": "vehicle_fuel",
        "fuel": "vehicle_fuel",
        "combustible": "vehicle_fuel",
        "custom factor": "custom_emission_factor_id",
        "factor propio": "custom_emission_factor_id",
        "year": "registration_year",
        "año": "registration_year",
        "ano": "registration_year",
        "año de matriculación": "registration_year",
        "año matriculación": "registration_year",
        "segment": "market_segment",
        "segmento": "market_segment",
        "tamaño": "size",
        "tamano": "size",
        "car size": "size",
    }
)
