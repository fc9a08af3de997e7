"""Logistics recharges (fuel and electricity of the logistics fleet): v1 bulk of up to 5,000,
calculated in the request, ``results[]``/``errors[]`` by index; a changed row is batch-deleted
and sent again.

The natural key is the service's upsert key, (country, date, quantity, plate) (facts §4.4): a
recharge sent again with the same four updates the service's record instead of adding one. So a
row whose quantity (or date, country or plate) is corrected is another recharge to the service
and to the loader; the old one stays until it is deleted in the service.

``fuel`` resolves by name through the service's fuel catalogue (with the words Spanish fuel-card
statements use), ``toc`` by name to ``toc_id``; unknown ones are rejects naming what is known.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.client import LimitPolicy
from emissions_etl.client.json_types import QueryParams
from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.domain.row_keys import key_text
from emissions_etl.json_values import JsonValue
from emissions_etl.resources._records import keep_origin, query_value
from emissions_etl.resources._references import TOCS
from emissions_etl.resources._spec import (
    Finding,
    PerRecordBulk,
    Readback,
    ResourceSpec,
    ViewColumn,
)
from emissions_etl.warehouse import CoverageRule, InventoryRule
from emissions_etl_schemas.logistics_recharges import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    LogisticsRechargeInput,
)

FUELS = ReferenceList(
    "logistics_fuels",
    "/v1/logistics/fuels",
    label="fuel",
    column="fuel",
    # The catalogue's fuels of a logistics fleet (facts §4.4; GET /v1/logistics/fuels names
    # them so); a service may list more.
    offline_names=("diesel", "petrol", "lpg", "cng", "lng", "electricity"),
)
#: Words for the catalogue's fuels (``GET /v1/logistics/fuels`` names them in English).
FUEL_WORDS = {
    "gasoleo": "diesel", "gasóleo": "diesel", "gasoil": "diesel", "gas oil": "diesel",
    "gasóleo a": "diesel", "gasoleo a": "diesel", "diésel": "diesel", "gasolina": "petrol",
    "gasoline": "petrol", "sin plomo": "petrol", "glp": "lpg", "autogas": "lpg", "gnc": "cng",
    "gnl": "lng", "electricidad": "electricity", "eléctrica": "electricity",
    "electrica": "electricity", "electric": "electricity", "kwh": "electricity",
}  # fmt: skip
RECORD_FIELDS = ("fuel_id", "country", "date", "quantity", "vehicle_license_plate", "toc_id")
#: GHG Protocol Corporate Standard, chapter 4: fuel burnt in vehicles the company owns or controls
#: is Scope 1; the electricity it buys to charge them is Scope 2. Recharges are the logistics
#: fleet's own fuel and electricity (facts §4.4; §4.6: own fleet TTW in S1). The fuel is the
#: record's ``fuel_name`` when the service listed it, else the file's ``fuel`` read as
#: ``to_records`` reads it (spaces collapsed, lower case, FUEL_WORDS).
_FUEL = (
    "coalesce(json_extract_string(record, '$.fuel_name'), "
    "lower(trim(regexp_replace(json_extract_string(source, '$.fuel'), '\\s+', ' ', 'g'))))"
)
_ELECTRICITY = ", ".join(
    "'" + word + "'"
    for word in sorted({"electricity", *(w for w, f in FUEL_WORDS.items() if f == "electricity")})
)
_NO_FUEL_REASON = "'the record names no fuel: fuel (Scope 1) or electricity (Scope 2) is unknown'"


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fuel and TOC names resolved to ids; unknown ones become rejects."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    words = valid["fuel"].str.strip().str.lower()
    fuel_ids = refs[FUELS.name].resolve(words.map(lambda word: FUEL_WORDS.get(word, word)))
    toc_ids = refs[TOCS.name].resolve(valid["toc"])
    no_fuel = fuel_ids.isna().to_numpy()
    no_toc = (valid["toc"].notna() & toc_ids.isna()).to_numpy() & ~no_fuel
    rejects = [
        empty_rejects(),
        unknown_rejects(valid[no_fuel], column="fuel", headers=headers, table=refs[FUELS.name]),
        unknown_rejects(valid[no_toc], column="toc", headers=headers, table=refs[TOCS.name]),
    ]
    keep = ~(no_fuel | no_toc)
    rows = valid[keep]
    records = pd.DataFrame(
        {
            "fuel_id": fuel_ids[keep],
            "country": rows["country"],
            "date": rows["date"],
            "quantity": rows["quantity"].astype("float64"),
            "vehicle_license_plate": rows["vehicle_license_plate"],
            "toc_id": toc_ids[keep],
        }
    )
    return keep_origin(records, rows), pd.concat(rejects, ignore_index=True)


def recharge_key(record: Mapping[str, JsonValue]) -> str | None:
    """A recharge's row key: its country, date, quantity and plate (the service's upsert key)."""
    country, date, quantity, plate = (
        record.get(name) for name in ("country", "date", "quantity", "vehicle_license_plate")
    )
    if not country or not date or not isinstance(quantity, int | float | str) or not plate:
        return None
    return "|".join((key_text(country), str(date)[:10], f"{float(quantity):.15g}", key_text(plate)))


def same_plate_and_day(payload: Mapping[str, JsonValue]) -> QueryParams:
    """The list query returning a recharge's candidates: its plate's recharges of its day."""
    day = query_value(payload["date"])
    return {
        "vehicle_license_plate": query_value(payload.get("vehicle_license_plate")),
        "date_from": day,
        "date_until": day,
    }


SPEC = ResourceSpec(
    name="logistics_recharges",
    description="Fuel and electricity of the logistics fleet (v1 bulk, calculated in the request).",
    schema=LogisticsRechargeInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=("country", "date", "quantity", "vehicle_license_plate"),
    to_records=to_records,
    lookups=(FUELS, TOCS),
    write=PerRecordBulk(
        bulk_path="/v1/logistics/recharges/bulk",
        batch_delete_path="/v1/logistics/recharges/batch-delete",
        delete_field="recharge_ids",
        in_flight=10,
    ),
    readback=Readback(
        activity_date_field="date",
        list_path="/v1/logistics/recharges",
        list_query=same_plate_and_day,
        unsettled=frozenset({"pending"}),
    ),
    finding=Finding(
        list_path="/v1/logistics/recharges",
        query=same_plate_and_day,
        match_fields=("quantity", "country", "vehicle_license_plate"),
        upserted_by_service=True,
        key_of=recharge_key,
    ),
    record_fields=RECORD_FIELDS,
    date_fields=("date",),
    limits={
        ("POST", "/v1/logistics/recharges/bulk"): LimitPolicy(max_concurrency=10),
        ("POST", "/v1/logistics/recharges"): LimitPolicy(rate_per_second=30),
    },
    view_columns=(
        ViewColumn("date", "DATE", meaning="Day of the recharge."),
        ViewColumn(
            "fuel_id",
            meaning="The service's id of the fuel (diesel, petrol, lpg, cng, lng, electricity).",
        ),
        ViewColumn("country", meaning="Country of the recharge, two-letter ISO code."),
        ViewColumn(
            "quantity",
            "DOUBLE",
            meaning="Quantity in the fuel's unit: litres, kWh for electricity, kg for CNG.",
        ),
        ViewColumn("vehicle_license_plate", meaning="Plate of the vehicle recharged, if given."),
        ViewColumn(
            "toc_id",
            meaning="The service's id of the vehicle type (transport operation category), if "
            "given.",
        ),
    ),
    inventory=InventoryRule(
        scope=f"CASE WHEN {_FUEL} IN ({_ELECTRICITY}) THEN 2 WHEN {_FUEL} IS NOT NULL THEN 1 END",
        unclassified_reason=f"CASE WHEN {_FUEL} IS NULL THEN {_NO_FUEL_REASON} END",
    ),
    # Expected at the organization's level: a month without any, between months with some, is
    # a gap (its records are not any one entity's).
    coverage=CoverageRule(),
    input_column_of_field={"fuel_id": "fuel", "toc_id": "toc"},
)

__all__ = ["SPEC"]
