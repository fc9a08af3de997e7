"""Logistic hubs as a logistics team lists them, column for column with the hub create.

Mirrors the interface's "Logistic hub" table and facts §9.3: the name is unique per
organization, ``facility_id`` (written as the facility's name) is required for an owned hub and
has no meaning for a subcontracted one (the service forces it to null).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers only_for, required_when, ...)

#: Facts §9.3: the category enum of hubs.
CATEGORIES = (
    "transshipment_ambient", "transshipment_mixed", "storage_transhipment_ambient",
    "storage_transhipment_mixed", "warehouse_ambient", "warehouse_mixed",
    "liquid_bulk_terminals_ambient", "liquid_bulk_terminals_mixed",
    "maritime_container_terminals_ambient", "maritime_container_terminals_temperature_controlled",
)  # fmt: skip
TYPE_WORDS = {
    "own": "owned", "propio": "owned", "propia": "owned", "in_house": "owned",
    "subcontratado": "subcontracted", "subcontratada": "subcontracted", "third_party": "subcontracted",
    "3pl": "subcontracted", "externo": "subcontracted", "externa": "subcontracted",
}  # fmt: skip
CATEGORY_WORDS = {
    "warehouse": "warehouse_ambient", "almacen": "warehouse_ambient", "almacén": "warehouse_ambient",
    "cross_dock": "transshipment_ambient", "crossdock": "transshipment_ambient",
    "transbordo": "transshipment_ambient", "container_terminal": "maritime_container_terminals_ambient",
}  # fmt: skip


# fmt: off
class LogisticHubInput(pa.DataFrameModel):
    """One row of a hubs list (interface: Logistic hub; facts §9.3)."""

    name: Series[str] = pa.Field(description="Hub name, unique in the organization; logistics files name the hub by it.", metadata={"example": "Hub Madrid Sur"})
    type: Series[str] = pa.Field(isin=("owned", "subcontracted"), description="owned (run by the organization, linked to a facility) or subcontracted.", metadata={"synonyms": TYPE_WORDS, "example": "owned"})
    category: Series[str] = pa.Field(nullable=True, isin=CATEGORIES, description="Hub category (ISO 14083 hub types), e.g. warehouse_ambient.", metadata={"synonyms": CATEGORY_WORDS, "example": "warehouse_ambient"})
    address: Series[str] = pa.Field(nullable=True, description="Street address; the service geocodes the country from it.", metadata={"example": "Calle de la Logística 4, Getafe"})
    country: Series[str] = pa.Field(nullable=True, is_country_code=(), description="ISO 3166-1 country code; from the address when empty.", metadata={"kind": "code", "example": "ES"})
    supercharger: Series[pd.BooleanDtype] = pa.Field(nullable=True, description="Has electric vehicle fast chargers: yes or no (no when empty).", metadata={"example": "no"})
    facility: Series[str] = pa.Field(nullable=True, description="The facility (name or id) of an owned hub; empty for a subcontracted one.", metadata={"example": "Madrid Warehouse"})

    class Config:
        name = "LogisticHubInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        required_when = {"selector": "type", "allowed": ["owned"], "fields": ["facility"]}
        only_for = {"selector": "type", "allowed": ["owned"], "fields": ["facility"]}
# fmt: on


#: Columns without which a row means nothing (facts §9.3: name and type required).
REQUIRED_INPUT_COLUMNS = ("name", "type")

#: Header spellings -> canonical column (compared after normalising: lowercase; spaces,
#: underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "hub": "name",
        "hub name": "name",
        "nombre": "name",
        "nombre del hub": "name",
        "hub type": "type",
        "tipo": "type",
        "ownership": "type",
        "categoría": "category",
        "categoria": "category",
        "hub category": "category",
        "dirección": "address",
        "direccion": "address",
        "país": "country",
        "pais": "country",
        "fast charger": "supercharger",
        "cargador rápido": "supercharger",
        "cargador rapido": "supercharger",
        "facility_id": "facility",
        "facility name": "facility",
        "site": "facility",
        "centro": "facility",
        "instalación": "facility",
        "instalacion": "facility",
    }
)
