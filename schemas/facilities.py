"""Facilities as a person's list of sites has them, column for column with the facility create.

Mirrors the interface's "Facility" table and facts §9.2 (create body and PUT as a partial
update). ``categories`` and ``cups_list`` are arrays in the API; a cell lists them separated by
commas or semicolons.
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_country_code, is_cups_list, ...)

#: Interface, Facility: 0 to 1, default 0.8 (the scope 2 share used in logistics reports).
DEFAULT_LOGISTIC_FACTOR = 0.8
#: Words people write for the consumption categories (facts §9.2: heat, electricity, water,
#: recharge), read case-blind.
CATEGORY_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "heating": "heat", "calor": "heat", "calefaccion": "heat", "calefacción": "heat",
        "electric": "electricity", "power": "electricity", "electricidad": "electricity", "luz": "electricity",
        "agua": "water",
        "charging": "recharge", "ev charging": "recharge", "recarga": "recharge", "recargas": "recharge",
    }
)  # fmt: skip


# fmt: off
class FacilityInput(pa.DataFrameModel):
    """One row of a facilities list (interface: Facility; facts §9.2)."""

    name: Series[str] = pa.Field(description="Facility name, one row per facility; other files name the facility by it.", metadata={"example": "Valencia Office"})
    type: Series[str] = pa.Field(description="Kind of site: office, warehouse, factory, store... (read in lower case).", metadata={"example": "office"})
    country: Series[str] = pa.Field(is_country_code=(), description="ISO 3166-1 country code, ES or ESP.", metadata={"kind": "code", "example": "ES"})
    address: Series[str] = pa.Field(nullable=True, description="Street address; the service geocodes the country from it.", metadata={"example": "Calle de Colón 10, 46004 Valencia"})
    logistic_factor: Series[float] = pa.Field(nullable=True, ge=0, le=1, description="Share of the site's scope 2 used in logistics reports, 0 to 1; 0.8 when empty.", metadata={"example": 0.8})
    categories: Series[str] = pa.Field(nullable=True, is_facility_categories=(), description="Consumption categories: heat, electricity, water, recharge, separated by commas.", metadata={"example": "electricity, water"})
    cups_list: Series[str] = pa.Field(nullable=True, is_cups_list=(), description="Electricity supply point codes (CUPS), separated by commas.", metadata={"kind": "code", "example": "ES0021000000000001AB"})
    facility_purpose_type: Series[str] = pa.Field(nullable=True, description="What the site is for, in the organization's words; may be empty.", metadata={"example": "administration"})

    class Config:
        name = "FacilityInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
# fmt: on


#: Columns without which a row means nothing (facts §9.2: name, type and country required).
REQUIRED_INPUT_COLUMNS = ("name", "type", "country")

#: Header spellings of ERP exports and people -> canonical column (compared after normalising:
#: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "facility name": "name",
        "site": "name",
        "site name": "name",
        "nombre": "name",
        "nombre del centro": "name",
        "centro": "name",
        "sede": "name",
        "facility type": "type",
        "site type": "type",
        "tipo": "type",
        "tipo de centro": "type",
        "país": "country",
        "pais": "country",
        "country code": "country",
        "dirección": "address",
        "direccion": "address",
        "street address": "address",
        "logistic factor": "logistic_factor",
        "factor logístico": "logistic_factor",
        "factor logistico": "logistic_factor",
        "consumption categories": "categories",
        "categorías": "categories",
        "categorias": "categories",
        "cups": "cups_list",
        "códigos cups": "cups_list",
        "codigos cups": "cups_list",
        "supply points": "cups_list",
        "purpose": "facility_purpose_type",
        "uso": "facility_purpose_type",
    }
)
