"""Purchases: one POST per purchase line, calculated in the request, updated in place with PATCH.

Spend-based by default. A purchase the service cannot calculate (a sector it has no factor for,
a unit of the wrong kind, a custom factor it does not hold) is still created, with status
``error`` and no co2e: its row loads and counts as failed, it is not a reject. A purchase the
service holds ``in_progress`` refuses changes (409 ``PURCHASE_IN_PROGRESS``): the changed row
counts as failed and is sent again by the next run.

No natural key: rows are keyed by ``client_row_id`` (kept in the warehouse, never sent) or
their place. A killed run's purchases are found by listing purchases of the same type.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.client.json_types import QueryParams
from emissions_etl.domain.references import References
from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.json_values import JsonValue
from emissions_etl.resources._records import keep_origin, query_value
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl.warehouse import CoverageRule, InventoryRule
from emissions_etl_schemas.purchases import INPUT_ALIASES, REQUIRED_INPUT_COLUMNS, PurchaseInput

#: Interface: Purchase (the fields a client sends), in its order.
RECORD_FIELDS = (
    "product_name", "description", "sector", "country", "quantity", "unit_id", "purchase_date",
    "purchase_type", "expense_type", "recycled", "supplier_id", "custom_emission_factor_id",
    "frequency",
)  # fmt: skip
#: GHG Protocol Scope 3 Standard, category 1 "Purchased goods and services"; category 2 "Capital
#: goods" for fixed assets (machines, vehicles, buildings), which the record marks as
#: ``expense_type`` ``capex`` (facts §8; the legacy API's purchase type ``capital_goods``).
PURCHASE_CATEGORY = (
    "CASE WHEN json_extract_string(record, '$.expense_type') = 'capex' "
    "OR json_extract_string(record, '$.purchase_type') = 'capital_goods' THEN 2 ELSE 1 END"
)


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """EUR when the unit is empty; spend-based when the type is."""
    typed["unit"] = typed["unit"].fillna("EUR")
    typed["purchase_type"] = typed["purchase_type"].fillna("spend_based")
    return typed


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows as they are: the unit is the service's ``unit_id`` as written (EUR, USD, kg, t)."""
    records = pd.DataFrame(
        {
            "product_name": valid["product_name"],
            "description": valid["description"],
            "sector": valid["sector"],
            "country": valid["country"],
            "quantity": valid["quantity"].astype("float64"),
            "unit_id": valid["unit"],
            "purchase_date": valid["purchase_date"],
            "purchase_type": valid["purchase_type"],
            "expense_type": valid["expense_type"],
            "recycled": valid["recycled"].astype("float64"),
            "supplier_id": valid["supplier_id"],
            "custom_emission_factor_id": valid["custom_emission_factor_id"].str.lower(),
            "frequency": valid["frequency"],
        }
    )
    return keep_origin(records, valid), empty_rejects()


def same_type(payload: Mapping[str, JsonValue]) -> QueryParams:
    """The list query narrowing a purchase's candidates: its purchase type."""
    return {"purchase_type": query_value(payload["purchase_type"])}


SPEC = ResourceSpec(
    name="purchases",
    description="Purchased goods and services (spend-based or supplier-specific; one POST each).",
    schema=PurchaseInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(),
    prepare=prepare,
    to_records=to_records,
    write=SingleCreate(
        create_path="/v1/purchases",
        item_path="/v1/purchases/{id}",
        update_method="PATCH",  # facts §8: partial update, co2e recalculated
        busy_codes=frozenset({"PURCHASE_IN_PROGRESS"}),
    ),
    readback=Readback(
        activity_date_field="purchase_date",
        get_path="/v1/purchases/{id}",
        unsettled=frozenset({"pending"}),  # facts §8: co2e may be null while pending
    ),
    finding=Finding(
        list_path="/v1/purchases",
        query=same_type,
        match_fields=("product_name", "purchase_date", "quantity", "sector", "country", "unit_id"),
        # Left empty, the service takes a purchase as bought once.
        compared_when_sent=("frequency",),
    ),
    record_fields=RECORD_FIELDS,
    date_fields=("purchase_date",),
    view_columns=(
        ViewColumn("product_name", meaning="What was bought."),
        ViewColumn("purchase_date", "DATE", meaning="Day of the purchase (invoice date)."),
        ViewColumn("sector", meaning="The supplier's sector (a NAICS code or its name)."),
        ViewColumn("country", meaning="Where it was bought, two-letter ISO code."),
        ViewColumn(
            "quantity",
            "DOUBLE",
            meaning="Amount spent (spend-based) or mass bought (supplier-specific), in unit_id.",
        ),
        ViewColumn("unit_id", meaning="The service's id of the quantity's unit (EUR, USD, kg, t)."),
        ViewColumn("purchase_type", meaning="spend_based or supplier_specific."),
        ViewColumn("expense_type", meaning="capex or opex."),
        ViewColumn("recycled", "DOUBLE", meaning="Recycled share of the content, 0 to 1."),
        ViewColumn("supplier_id", meaning="The supplier's id or tax number."),
        ViewColumn(
            "error_code", meaning="The service's code when it could not calculate the record."
        ),
    ),
    inventory=InventoryRule(scope="3", category=PURCHASE_CATEGORY),
    # Expected at the organization's level: a month without any, between months with some, is
    # a gap (its records are not any one entity's).
    coverage=CoverageRule(),
    input_column_of_field={"unit_id": "unit"},
)

__all__ = ["SPEC"]
