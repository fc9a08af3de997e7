"""Logistics requests (shipment legs): v1 bulk of up to 5,000 legs, calculated in the request,
``results[]``/``errors[]`` by index; a changed leg is batch-deleted and sent again.

The natural key is the service's own dedup key, (``movement_id``, ``movement_stretch``): a leg
sent again with the same key updates the service's record instead of adding one. A row without
``movement_id`` is keyed by its ``client_row_id`` (else its place in the file), and that key is
sent as its ``movement_id``: the service then dedups it too, so a re-sent row updates its leg
and the service's record names the row it came from.

``toc`` is checked against the service's TOC list and sent by name; ``hub`` (a hub's name)
becomes ``hub_id`` through the organization's logistic hubs.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.client import LimitPolicy
from emissions_etl.client.json_types import QueryParams
from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import RejectCode, empty_rejects
from emissions_etl.domain.row_keys import key_text, source_of_key
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
from emissions_etl_schemas.logistics_requests import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    LogisticsRequestInput,
)

HUBS = ReferenceList("logistic_hubs", "/v1/logistic-hubs", label="logistic hub", column="hub")
HUB_HINT = " If it is in a logistic_hubs file, that row did not load: fix it there first."

#: facts §4.1, in its order (the response's names).
RECORD_FIELDS = (
    "origin", "destination", "distance_km", "load", "load_unit", "load_factor", "toc",
    "category", "origin_country", "year", "cleaning", "movement_id", "client", "shipment_date",
    "movement_stretch", "movement_stage", "vehicle_license_plate", "trailer_license_plate",
    "subcontractor", "tkm", "hub_id", "package_key",
)  # fmt: skip
#: Columns sent as they are read.
_AS_READ = tuple(name for name in RECORD_FIELDS if name not in ("toc", "hub_id", "movement_id"))
#: GHG Protocol Scope 3 Standard, category 4 "Upstream transportation and distribution": the
#: transport services the company buys, inbound and outbound alike ("what the company pays for is
#: category 4, whichever way the goods go"). Category 9 is the transport of sold products that a
#: customer or another party pays for; the record says who moved a leg and for whom (facts §4.1:
#: ``subcontractor``, ``client``, ``movement_stage``), never who paid, and a leg the company sends
#: to its service is one it ordered: no leg is put in category 9 on its direction alone.
_SUBCONTRACTED = (
    "coalesce(TRY_CAST(json_extract_string(record, '$.subcontractor') AS BOOLEAN), false)"
)
#: A leg of the company's own fleet is the fuel its recharges measure (Scope 1 and 2, in
#: logistics_recharges); the leg's co2e estimates the same burn (facts §4.6: the GLEC report
#: compares the two), so adding it would count that fuel twice. (An SQL literal.)
_OWN_FLEET_REASON = "'own fleet leg: its fuel is counted in logistics_recharges'"


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """TOC names checked, hub names resolved to ids; unknown ones become rejects."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    toc_ids = refs["tocs"].resolve(valid["toc"])
    hub_ids = refs["logistic_hubs"].resolve(valid["hub"])
    no_toc = (valid["toc"].notna() & toc_ids.isna()).to_numpy()
    no_hub = (valid["hub"].notna() & hub_ids.isna()).to_numpy() & ~no_toc
    rejects = [
        empty_rejects(),
        unknown_rejects(valid[no_toc], column="toc", headers=headers, table=refs["tocs"]),
        unknown_rejects(
            valid[no_hub],
            column="hub",
            headers=headers,
            table=refs["logistic_hubs"],
            code=RejectCode.PARENT_NOT_LOADED,
            hint=HUB_HINT,
        ),
    ]
    keep = ~(no_toc | no_hub)
    rows = valid[keep]
    toc_names = {str(item["id"]): str(item["toc"]) for item in refs["tocs"].items}
    records = rows[list(_AS_READ)].copy()
    records["toc"] = toc_ids[keep].map(toc_names)
    records["hub_id"] = hub_ids[keep]
    # The service's dedup key: a row without a movement id sends its own key.
    records["movement_id"] = rows["movement_id"].fillna(rows["source_key"])
    return keep_origin(records[list(RECORD_FIELDS)], rows), pd.concat(rejects, ignore_index=True)


def movement_key(record: Mapping[str, JsonValue]) -> str | None:
    """A leg's row key: its movement and stretch (a movement id the loader made, a row's
    content key, verbatim)."""
    movement = record.get("movement_id")
    if not movement:
        return None
    if source_of_key(str(movement)) is not None:
        return str(movement)
    return key_text(movement) + "|" + key_text(record.get("movement_stretch") or "")


def same_movement(payload: Mapping[str, JsonValue]) -> QueryParams:
    """The list query returning a leg's candidates: every leg of its movement."""
    return {"movement_id": query_value(payload["movement_id"])}


SPEC = ResourceSpec(
    name="logistics_requests",
    description="Shipment legs (ISO 14083 / GLEC; v1 bulk, calculated in the request).",
    schema=LogisticsRequestInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=("movement_id", "movement_stretch"),
    to_records=to_records,
    lookups=(TOCS, HUBS),
    write=PerRecordBulk(
        bulk_path="/v1/logistics/requests/bulk",
        batch_delete_path="/v1/logistics/requests/batch-delete",
        delete_field="request_ids",
        in_flight=10,
    ),
    readback=Readback(
        activity_date_field="shipment_date",
        list_path="/v1/logistics/requests",
        list_query=same_movement,
        unsettled=frozenset({"pending"}),
    ),
    finding=Finding(
        list_path="/v1/logistics/requests",
        query=same_movement,
        match_fields=("movement_id", "movement_stretch"),
        upserted_by_service=True,
        key_of=movement_key,
    ),
    record_fields=RECORD_FIELDS,
    date_fields=("shipment_date",),
    depends_on=("logistic_hubs",),
    limits={
        ("POST", "/v1/logistics/requests/bulk"): LimitPolicy(max_concurrency=10),
        ("POST", "/v1/logistics/requests"): LimitPolicy(rate_per_second=30),
    },
    view_columns=(
        ViewColumn(
            "movement_id", meaning="Shipment id; with the stretch, the service's key of the leg."
        ),
        ViewColumn("movement_stretch", meaning="Leg of the shipment (1, 2, ...)."),
        ViewColumn("shipment_date", "DATE", meaning="Day the leg was shipped."),
        ViewColumn("origin", meaning="Where the leg starts."),
        ViewColumn("destination", meaning="Where the leg ends."),
        ViewColumn("distance_km", "DOUBLE", meaning="Distance of the leg in km."),
        ViewColumn("load", "DOUBLE", meaning="Load carried, in load_unit."),
        ViewColumn("load_unit", meaning="kg, ton, pallets, teu or feu."),
        ViewColumn(
            "toc",
            meaning="Vehicle type (transport operation category), e.g. articulated_truck_diesel.",
        ),
        ViewColumn("category", meaning="Transport mode: road, rail, maritime or air."),
        ViewColumn("tkm", "DOUBLE", meaning="Tonne-kilometres of the leg."),
        ViewColumn("hub_id", meaning="The service's id of the leg's logistic hub, if any."),
        ViewColumn("client", meaning="Customer of the shipment."),
    ),
    inventory=InventoryRule(
        scope=f"CASE WHEN {_SUBCONTRACTED} THEN 3 END",
        category=f"CASE WHEN {_SUBCONTRACTED} THEN 4 END",
        unclassified_reason=f"CASE WHEN NOT {_SUBCONTRACTED} THEN {_OWN_FLEET_REASON} END",
    ),
    # Expected at the organization's level: a month without any, between months with some, is
    # a gap (its records are not any one entity's).
    coverage=CoverageRule(),
    input_column_of_field={"hub_id": "hub"},
)

__all__ = ["SPEC"]
