"""Business travels as a person's travel log has them, column for column with the interface's
Business travel table (interface: Business travels, rules 1 to 3; facts §7).

Read the class as a table: one line per column, its type, whether it may be empty, and its rules.
A trip gives either its distance or both places (the service then calculates the distance);
car and motorbike trips may say the vehicle's size and fuel, flights their type and cabin.
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers one_of_value_or_pair, only_for, ...)

#: The interface: ``client_row_id`` is at most 255 characters (kept here, never sent).
CLIENT_ROW_ID_MAX = 255
#: Plausibility bound: one trip does not go round the Earth (40,075 km).
MAX_DISTANCE_KM = 40_000
#: Interface: Limits, travel_number 1 to 1000.
MAX_TRAVELLERS = 1000
#: The service stores places of at most 255 characters.
PLACE_MAX = 255
TRANSPORT_TYPES = ("car", "metro", "train", "trolleybus", "bus", "motorbike", "aircraft", "ferry")
TRANSPORT_SYNONYMS = {
    "coche": "car", "auto": "car", "automovil": "car", "automóvil": "car", "taxi": "car",
    "rental_car": "car", "company_car": "car", "tren": "train", "rail": "train", "ave": "train",
    "high_speed_train": "train", "autobus": "bus", "autobús": "bus", "coach": "bus",
    "autocar": "bus", "underground": "metro", "subway": "metro", "tube": "metro",
    "trolebus": "trolleybus", "trolebús": "trolleybus", "moto": "motorbike",
    "motorcycle": "motorbike", "motocicleta": "motorbike", "plane": "aircraft",
    "flight": "aircraft", "air": "aircraft", "avion": "aircraft", "avión": "aircraft",
    "vuelo": "aircraft", "barco": "ferry", "boat": "ferry", "ship": "ferry",
}  # fmt: skip
VEHICLE_SIZES = ("small", "medium", "large", "average")
SIZE_SYNONYMS = {
    "pequeño": "small", "pequeno": "small", "mediano": "medium", "grande": "large",
    "medio": "average",
}  # fmt: skip
FUEL_TYPES = (
    "petrol", "diesel", "cng", "lpg", "unknown", "plug_in_hybrid_electric", "battery_electric",
)  # fmt: skip
FUEL_SYNONYMS = {
    "gasoline": "petrol", "gasolina": "petrol", "gasoil": "diesel", "gasóleo": "diesel",
    "gasoleo": "diesel", "glp": "lpg", "autogas": "lpg", "gnc": "cng",
    "phev": "plug_in_hybrid_electric",
    "plug_in_hybrid": "plug_in_hybrid_electric", "hibrido_enchufable": "plug_in_hybrid_electric",
    "híbrido_enchufable": "plug_in_hybrid_electric", "electric": "battery_electric",
    "electrico": "battery_electric", "eléctrico": "battery_electric", "ev": "battery_electric",
    "bev": "battery_electric", "desconocido": "unknown",
}  # fmt: skip
FLIGHT_TYPES = ("domestic", "short_haul_international", "long_haul_international")
FLIGHT_SYNONYMS = {
    "national": "domestic", "nacional": "domestic", "doméstico": "domestic",
    "domestico": "domestic",
    "short_haul": "short_haul_international", "short": "short_haul_international",
    "corto_radio": "short_haul_international", "long_haul": "long_haul_international",
    "long": "long_haul_international", "largo_radio": "long_haul_international",
}  # fmt: skip
CABIN_CLASSES = ("economy", "premium_economy", "business", "first", "average")
CABIN_SYNONYMS = {
    "turista": "economy", "economica": "economy", "económica": "economy", "coach": "economy",
    "premium": "premium_economy", "preferente": "business", "primera": "first",
    "first_class": "first",
}  # fmt: skip


# fmt: off
class BusinessTravelInput(pa.DataFrameModel):
    """One row of a travel log (interface: Business travel; facts §7)."""

    travel_date: Series[pa.DateTime] = pa.Field(description="Day of the trip (the outbound day of a round trip).", metadata={"example": "2026-02-16"})
    transport_type: Series[str] = pa.Field(isin=TRANSPORT_TYPES, description="car, metro, train, trolleybus, bus, motorbike, aircraft or ferry (tren, avión, coche... are read too).", metadata={"synonyms": TRANSPORT_SYNONYMS, "example": "train"})
    distance_km: Series[float] = pa.Field(nullable=True, gt=0, le=MAX_DISTANCE_KM, description="One-way distance in km; leave empty when origin and destination are given.", metadata={"example": 505.0})
    origin: Series[str] = pa.Field(nullable=True, str_length={"max_value": PLACE_MAX}, description="Where the trip starts, e.g. Madrid or Madrid, Spain; with destination instead of a distance.", metadata={"example": "Madrid"})
    destination: Series[str] = pa.Field(nullable=True, str_length={"max_value": PLACE_MAX}, description="Where the trip ends, e.g. Barcelona; with origin instead of a distance.", metadata={"example": "Barcelona"})
    travel_number: Series[pd.Int64Dtype] = pa.Field(nullable=True, in_range={"min_value": 1, "max_value": MAX_TRAVELLERS}, description="Travellers on the trip, 1 to 1000; 1 when left empty.", metadata={"example": 2})
    round_trip: Series[pd.BooleanDtype] = pa.Field(nullable=True, description="yes for a round trip (the distance counts twice); no when left empty.", metadata={"example": "yes"})
    vehicle_size: Series[str] = pa.Field(nullable=True, isin=VEHICLE_SIZES, description="Car or motorbike only: small, medium, large or average.", metadata={"synonyms": SIZE_SYNONYMS, "example": "medium"})
    fuel_type: Series[str] = pa.Field(nullable=True, isin=FUEL_TYPES, description="Car or motorbike only: petrol, diesel, cng, lpg, unknown, plug_in_hybrid_electric or battery_electric.", metadata={"synonyms": FUEL_SYNONYMS, "example": "diesel"})
    flight_type: Series[str] = pa.Field(nullable=True, isin=FLIGHT_TYPES, description="Aircraft only: domestic, short_haul_international or long_haul_international.", metadata={"synonyms": FLIGHT_SYNONYMS, "example": "short_haul_international"})
    cabin_class: Series[str] = pa.Field(nullable=True, isin=CABIN_CLASSES, description="Aircraft only: economy, premium_economy, business, first or average.", metadata={"synonyms": CABIN_SYNONYMS, "example": "economy"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Your id for the row (kept here, not sent), at most 255 characters; file#sheet!row when empty.", metadata={"example": "TRV-2026-0001"})

    class Config:
        name = "BusinessTravelInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        one_of_value_or_pair = {"given": "distance_km", "pair": ["origin", "destination"]}
        only_for = {"selector": "transport_type", "allowed": ["car", "motorbike"], "fields": ["vehicle_size", "fuel_type"]}
        also_only_for = {"selector": "transport_type", "allowed": ["aircraft"], "fields": ["flight_type", "cabin_class"]}
# fmt: on


#: Columns without which a row means nothing; the rest may be empty or absent.
REQUIRED_INPUT_COLUMNS = ("travel_date", "transport_type")

#: Header spellings of travel agencies' exports and people -> canonical column (compared after
#: normalising: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "date": "travel_date",
        "travel date": "travel_date",
        "departure date": "travel_date",
        "fecha": "travel_date",
        "fecha viaje": "travel_date",
        "fecha del viaje": "travel_date",
        "mode": "transport_type",
        "transport": "transport_type",
        "means of transport": "transport_type",
        "medio de transporte": "transport_type",
        "transporte": "transport_type",
        "km": "distance_km",
        "distance": "distance_km",
        "distance (km)": "distance_km",
        "distancia": "distance_km",
        "distancia km": "distance_km",
        "from": "origin",
        "origen": "origin",
        "departure": "origin",
        "to": "destination",
        "destino": "destination",
        "arrival": "destination",
        "travellers": "travel_number",
        "travelers": "travel_number",
        "passengers": "travel_number",
        "pax": "travel_number",
        "viajeros": "travel_number",
        "pasajeros": "travel_number",
        "number of travellers": "travel_number",
        "round trip": "round_trip",
        "return": "round_trip",
        "ida y vuelta": "round_trip",
        "size": "vehicle_size",
        "car size": "vehicle_size",
        "tamaño": "vehicle_size",
        "fuel": "fuel_type",
        "combustible": "fuel_type",
        "flight": "flight_type",
        "tipo de vuelo": "flight_type",
        "cabin": "cabin_class",
        "class": "cabin_class",
        "clase": "cabin_class",
        "row id": "client_row_id",
        "trip id": "client_row_id",
        "booking ref": "client_row_id",
        "booking reference": "client_row_id",
        "localizador": "client_row_id",
        "id viaje": "client_row_id",
    }
)
