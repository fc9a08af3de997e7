"""Commuting periods as a commuting survey or an HR tool has them, one row per employee, period
and way of travelling, column for column with ``POST /v1/employee-historic`` (facts §9.1).

The employee is named by e-mail or name (as in the employees file); ``weekly_travels`` accepts
``Mon-Fri``, ``0,1,2,3,4`` or ``Monday;Wednesday`` (0 is Monday).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_weekdays, required_unless, ...)
from emissions_etl_schemas.employees import SITUATION_WORDS, SITUATIONS

TRANSPORT_TYPES = ("car", "bus", "train", "metro", "tram", "motorbike", "bicycle", "walking", "telecommuting", "electric_kick_scooter", "trolleybus")
FUEL_TYPES = ("petrol", "diesel", "cng", "lpg", "unknown", "plug_in_hybrid_electric", "battery_electric")
CLIENT_ROW_ID_MAX = 255
#: Plausibility bounds: one trip of a commute, and trips a day.
MAX_TRIP_KM = 1_000
MAX_DAILY_TRIPS = 100
COMMUTING_WORDS = {"home_to_work": "in_itinere", "casa_trabajo": "in_itinere", "commute": "in_itinere", "commuting": "in_itinere", "itinere": "in_itinere",
                   "during_work": "in_labore", "work_travel": "in_labore", "labore": "in_labore", "en_jornada": "in_labore"}  # fmt: skip
TRANSPORT_WORDS = {
    "coche": "car", "automóvil": "car", "autobús": "bus", "autobus": "bus", "tren": "train", "cercanías": "train",
    "cercanias": "train", "tranvía": "tram", "tranvia": "tram", "moto": "motorbike", "motocicleta": "motorbike",
    "motorcycle": "motorbike", "bicicleta": "bicycle", "bici": "bicycle", "bike": "bicycle", "andando": "walking",
    "a_pie": "walking", "caminando": "walking", "walk": "walking", "teletrabajo": "telecommuting",
    "remote": "telecommuting", "home_office": "telecommuting", "patinete": "electric_kick_scooter",
    "patinete_eléctrico": "electric_kick_scooter", "patinete_electrico": "electric_kick_scooter",
    "e_scooter": "electric_kick_scooter", "trolebús": "trolleybus", "trolebus": "trolleybus",
}  # fmt: skip
SIZE_WORDS = {"pequeño": "small", "pequeno": "small", "mediano": "medium", "grande": "large", "medio": "average"}  # fmt: skip
FUEL_WORDS = {"gasolina": "petrol", "gasóleo": "diesel", "gasoleo": "diesel", "diésel": "diesel", "gnc": "cng", "glp": "lpg",
              "no_sé": "unknown", "no_se": "unknown", "híbrido_enchufable": "plug_in_hybrid_electric",
              "hibrido_enchufable": "plug_in_hybrid_electric", "phev": "plug_in_hybrid_electric",
              "eléctrico": "battery_electric", "electrico": "battery_electric", "electric": "battery_electric",
              "bev": "battery_electric"}  # fmt: skip
RENEWABLE_WORDS = {"sí": "yes", "si": "yes", "true": "yes", "no_sé": "do_not_know", "no_se": "do_not_know",
                   "ns": "do_not_know", "don't_know": "do_not_know", "dont_know": "do_not_know"}  # fmt: skip
MEDIUM_WORDS = {"formulario": "form", "encuesta": "form", "survey": "form", "qr_code": "qr", "código_qr": "qr"}  # fmt: skip


# fmt: off
class CommutingPeriodInput(pa.DataFrameModel):
    """One row of a commuting survey (facts §9.1: commuting period create)."""

    employee: Series[str] = pa.Field(description="The employee's e-mail, or name when they have none, as in the employees file.", metadata={"example": "ana.garcia@example.es"})
    start_date: Series[pa.DateTime] = pa.Field(description="First day of the period.", metadata={"example": "2026-01-01"})
    end_date: Series[pa.DateTime] = pa.Field(description="Last day of the period; after the start date.", metadata={"example": "2026-06-30"})
    commuting_type: Series[str] = pa.Field(isin=("in_itinere", "in_labore"), description="in_itinere (home to work; when empty) or in_labore (travel during work).", metadata={"synonyms": COMMUTING_WORDS, "example": "in_itinere"})
    transport_type: Series[str] = pa.Field(isin=TRANSPORT_TYPES, description="car, bus, train, metro, tram, motorbike, bicycle, walking, telecommuting, electric_kick_scooter, trolleybus.", metadata={"synonyms": TRANSPORT_WORDS, "example": "car"})
    total_km: Series[float] = pa.Field(nullable=True, ge=0, le=MAX_TRIP_KM, description="Km of one trip; required unless telecommuting.", metadata={"example": 15.0})
    weekly_travels: Series[str] = pa.Field(nullable=True, is_weekdays=(), description="Weekdays travelled: Mon-Fri, 0,1,2,3,4 (0 is Monday) or Monday;Wednesday; required unless telecommuting.", metadata={"kind": "weekdays", "example": "Mon-Fri"})
    daily_trips: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=MAX_DAILY_TRIPS, description="Trips a day (2 for there and back); 1 when empty.", metadata={"example": 2})
    vehicle_size: Series[str] = pa.Field(nullable=True, isin=("small", "medium", "large", "average"), description="Car or motorbike size: small, medium, large, average.", metadata={"synonyms": SIZE_WORDS, "example": "medium"})
    fuel_type: Series[str] = pa.Field(nullable=True, isin=FUEL_TYPES, description="Car or motorbike fuel: petrol, diesel, cng, lpg, unknown, plug_in_hybrid_electric, battery_electric.", metadata={"synonyms": FUEL_WORDS, "example": "petrol"})
    renewable_energy: Series[str] = pa.Field(nullable=True, isin=("yes", "no", "do_not_know"), description="Charged with renewable electricity: yes, no, do_not_know.", metadata={"synonyms": RENEWABLE_WORDS, "example": "do_not_know"})
    carpool: Series[pd.BooleanDtype] = pa.Field(nullable=True, description="Shares the car: yes or no (no when empty).", metadata={"example": "no"})
    situation: Series[str] = pa.Field(nullable=True, isin=SITUATIONS, description="The employee's situation in the period: active, inactive, terminated.", metadata={"synonyms": SITUATION_WORDS, "example": "active"})
    response_medium: Series[str] = pa.Field(nullable=True, isin=("manual", "qr", "form"), description="How the answer was collected: manual, qr, form.", metadata={"synonyms": MEDIUM_WORDS, "example": "form"})
    origin: Series[str] = pa.Field(nullable=True, description="Where the trip starts (free text).", metadata={"example": "Alcalá de Henares"})
    destination: Series[str] = pa.Field(nullable=True, description="Where the trip ends (free text).", metadata={"example": "Madrid Warehouse"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Your id for the row (a survey answer id); file#sheet!row when empty.")

    class Config:
        name = "CommutingPeriodInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        dates_strictly_in_order = {"first": "start_date", "last": "end_date"}
        only_for = {"selector": "transport_type", "allowed": ["car", "motorbike"], "fields": ["vehicle_size", "fuel_type"]}
        required_unless = {"selector": "transport_type", "excepted": ["telecommuting"], "fields": ["total_km", "weekly_travels"]}
# fmt: on


#: Columns without which a row means nothing (facts §9.1; the commuting type defaults).
REQUIRED_INPUT_COLUMNS = ("employee", "start_date", "end_date", "transport_type")

#: Header spellings of surveys and HR tools -> canonical column (compared after normalising:
#: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "employee_id": "employee",
        "email": "employee",
        "e-mail": "employee",
        "correo": "employee",
        "correo electrónico": "employee",
        "empleado": "employee",
        "desde": "start_date",
        "fecha inicio": "start_date",
        "from": "start_date",
        "hasta": "end_date",
        "fecha fin": "end_date",
        "to": "end_date",
        "tipo de desplazamiento": "commuting_type",
        "commute type": "commuting_type",
        "medio de transporte": "transport_type",
        "transporte": "transport_type",
        "mode": "transport_type",
        "km": "total_km",
        "km por trayecto": "total_km",
        "distance km": "total_km",
        "días": "weekly_travels",
        "dias": "weekly_travels",
        "días de la semana": "weekly_travels",
        "weekdays": "weekly_travels",
        "days": "weekly_travels",
        "trayectos al día": "daily_trips",
        "trayectos diarios": "daily_trips",
        "trips per day": "daily_trips",
        "tamaño": "vehicle_size",
        "tamaño del vehículo": "vehicle_size",
        "combustible": "fuel_type",
        "fuel": "fuel_type",
        "energía renovable": "renewable_energy",
        "comparte coche": "carpool",
        "coche compartido": "carpool",
        "situación": "situation",
        "medio de respuesta": "response_medium",
        "origen": "origin",
        "destino": "destination",
        "id respuesta": "client_row_id",
        "response id": "client_row_id",
    }
)
