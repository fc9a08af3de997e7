"""Purchases as a buying department's ledger has them, column for column with the interface's
Purchase table (interface: Purchase; facts §8).

Read the class as a table: one line per column, its type, whether it may be empty, and its rules.
Spend-based by default: the amount spent in a currency and the supplier's sector (a NAICS code or
its name) give the emissions; a supplier-specific purchase gives a mass and the organization's
own emission factor instead. ``unit`` is what the service's ``unit_id`` takes literally
(``EUR``, ``USD``, ``kg``, ``t``).
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_country_alpha2, is_uuid, ...)

CLIENT_ROW_ID_MAX = 255
#: facts §8: product_name and sector at most 255 characters, description at most 500.
NAME_MAX = 255
DESCRIPTION_MAX = 500
#: Plausibility bound: no single purchase line reaches a billion (euros, dollars, kg or t).
MAX_QUANTITY = 1_000_000_000
UNITS = ("EUR", "USD", "kg", "t")
UNIT_SYNONYMS = {
    "eur": "EUR", "€": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "$": "USD",
    "us$": "USD", "dollar": "USD", "dollars": "USD", "dolar": "USD", "dólar": "USD",
    "dolares": "USD", "dólares": "USD", "kgs": "kg", "kilo": "kg", "kilos": "kg",
    "kilogram": "kg", "kilograms": "kg", "kilogramos": "kg", "tn": "t", "ton": "t", "tons": "t",
    "tonne": "t", "tonnes": "t", "tonelada": "t", "toneladas": "t",
}  # fmt: skip
PURCHASE_TYPES = ("spend_based", "supplier_specific")
PURCHASE_TYPE_SYNONYMS = {
    "spend": "spend_based", "gasto": "spend_based", "por_gasto": "spend_based",
    "supplier": "supplier_specific", "proveedor": "supplier_specific",
    "especifico_proveedor": "supplier_specific", "específico_proveedor": "supplier_specific",
}  # fmt: skip
EXPENSE_TYPES = ("capex", "opex")
EXPENSE_SYNONYMS = {"inversion": "capex", "inversión": "capex", "gasto_operativo": "opex"}
FREQUENCIES = ("once", "weekly", "monthly", "quarterly", "yearly")
FREQUENCY_SYNONYMS = {
    "one_off": "once", "unica": "once", "única": "once", "puntual": "once", "semanal": "weekly",
    "mensual": "monthly", "trimestral": "quarterly", "anual": "yearly", "annual": "yearly",
}  # fmt: skip


# fmt: off
class PurchaseInput(pa.DataFrameModel):
    """One row of a purchases ledger (interface: Purchase; facts §8)."""

    product_name: Series[str] = pa.Field(str_length={"max_value": NAME_MAX}, description="What was bought, e.g. Office paper A4.", metadata={"example": "Office paper A4"})
    description: Series[str] = pa.Field(nullable=True, str_length={"max_value": DESCRIPTION_MAX}, description="Free text, at most 500 characters; may be empty.", metadata={"example": "Annual paper order"})
    sector: Series[str] = pa.Field(str_length={"max_value": NAME_MAX}, description="The supplier's sector: a NAICS code (322230) or its name (Stationery Product Manufacturing).", metadata={"example": "322230"})
    country: Series[str] = pa.Field(is_country_alpha2=(), description="Where it was bought: two-letter ISO code, e.g. ES.", metadata={"kind": "code", "example": "ES"})
    quantity: Series[float] = pa.Field(ge=0, le=MAX_QUANTITY, description="Amount spent (spend-based) or mass bought (supplier-specific), in the row's unit.", metadata={"example": 1250.0})
    unit: Series[str] = pa.Field(isin=UNITS, description="EUR, USD, kg or t (unit_id); EUR when left empty.", metadata={"synonyms": UNIT_SYNONYMS, "example": "EUR", "reject_code": "INVALID_UNIT"})
    purchase_date: Series[pa.DateTime] = pa.Field(description="Day of the purchase (invoice date).", metadata={"example": "2026-03-12"})
    purchase_type: Series[str] = pa.Field(nullable=True, isin=PURCHASE_TYPES, description="spend_based (default) or supplier_specific (needs custom_emission_factor_id).", metadata={"synonyms": PURCHASE_TYPE_SYNONYMS, "example": "spend_based"})
    expense_type: Series[str] = pa.Field(nullable=True, isin=EXPENSE_TYPES, description="capex or opex; may be empty.", metadata={"synonyms": EXPENSE_SYNONYMS, "example": "opex"})
    recycled: Series[float] = pa.Field(nullable=True, in_range={"min_value": 0, "max_value": 1}, description="Recycled share of the content, 0 to 1 (0.3 for 30 %); may be empty.", metadata={"example": 0.3})
    supplier_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": NAME_MAX}, description="Your supplier's id or tax number; may be empty.", metadata={"example": "B12345678"})
    custom_emission_factor_id: Series[str] = pa.Field(nullable=True, is_uuid=(), description="Id of the organization's own emission factor (supplier-specific purchases).", metadata={"example": "3f2b9c1e-8d4a-4f7b-9a51-2c6e0d9b7a10"})
    frequency: Series[str] = pa.Field(nullable=True, isin=FREQUENCIES, description="once (default), weekly, monthly, quarterly or yearly.", metadata={"synonyms": FREQUENCY_SYNONYMS, "example": "once"})
    client_row_id: Series[str] = pa.Field(nullable=True, str_length={"max_value": CLIENT_ROW_ID_MAX}, description="Your id for the row (kept here, not sent), at most 255 characters; file#sheet!row when empty.", metadata={"example": "PO-2026-0001"})

    class Config:
        name = "PurchaseInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
# fmt: on


#: Columns without which a row means nothing; the rest have defaults or may be empty.
REQUIRED_INPUT_COLUMNS = ("product_name", "sector", "country", "quantity", "purchase_date")

#: Header spellings of ERP exports and people -> canonical column (compared after normalising:
#: lowercase; spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "product": "product_name",
        "item": "product_name",
        "article": "product_name",
        "producto": "product_name",
        "artículo": "product_name",
        "articulo": "product_name",
        "concepto": "product_name",
        "descripción": "description",
        "descripcion": "description",
        "notes": "description",
        "naics": "sector",
        "naics code": "sector",
        "sector code": "sector",
        "industry": "sector",
        "actividad": "sector",
        "país": "country",
        "pais": "country",
        "country code": "country",
        "amount": "quantity",
        "importe": "quantity",
        "cantidad": "quantity",
        "net amount": "quantity",
        "base imponible": "quantity",
        "currency": "unit",
        "moneda": "unit",
        "divisa": "unit",
        "unit_id": "unit",
        "unidad": "unit",
        "date": "purchase_date",
        "invoice date": "purchase_date",
        "fecha": "purchase_date",
        "fecha factura": "purchase_date",
        "fecha compra": "purchase_date",
        "type": "purchase_type",
        "method": "purchase_type",
        "tipo de compra": "purchase_type",
        "expense": "expense_type",
        "tipo de gasto": "expense_type",
        "recycled content": "recycled",
        "reciclado": "recycled",
        "supplier": "supplier_id",
        "vendor": "supplier_id",
        "vendor id": "supplier_id",
        "proveedor": "supplier_id",
        "nif proveedor": "supplier_id",
        "cif proveedor": "supplier_id",
        "custom factor": "custom_emission_factor_id",
        "emission factor id": "custom_emission_factor_id",
        "factor propio": "custom_emission_factor_id",
        "frecuencia": "frequency",
        "row id": "client_row_id",
        "po number": "client_row_id",
        "purchase order": "client_row_id",
        "nº pedido": "client_row_id",
        "pedido": "client_row_id",
        "invoice": "client_row_id",
        "factura": "client_row_id",
    }
)
