"""Business travels: one POST per trip, calculated asynchronously (status ``pending`` until the
service's worker sets co2e), updated in place with PATCH.

No natural key: a travel log has no identity the service keeps, so rows are keyed by their
``client_row_id`` (kept in the warehouse, never sent: the record has no such field) or their
place. A killed run's trips are found by listing that day's trips of that mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
from emissions_etl_schemas.business_travels import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    BusinessTravelInput,
)

#: Interface: Business travel, in its order; all but the first two may be left out.
RECORD_FIELDS = (
    "travel_date", "transport_type", "distance_km", "origin", "destination", "travel_number",
    "round_trip", "vehicle_size", "fuel_type", "flight_type", "cabin_class",
)  # fmt: skip


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows as they are (no ids to resolve); one traveller and one way when left empty."""
    records = pd.DataFrame(
        {
            "travel_date": valid["travel_date"],
            "transport_type": valid["transport_type"],
            "distance_km": valid["distance_km"].astype("float64"),
            "origin": valid["origin"],
            "destination": valid["destination"],
            "travel_number": valid["travel_number"].fillna(1).astype("int64"),
            "round_trip": valid["round_trip"].fillna(False).astype(bool),
            "vehicle_size": valid["vehicle_size"],
            "fuel_type": valid["fuel_type"],
            "flight_type": valid["flight_type"],
            "cabin_class": valid["cabin_class"],
        }
    )
    return keep_origin(records, valid), empty_rejects()


def trips_of_the_day(payload: Mapping[str, JsonValue]) -> QueryParams:
    """The list query narrowing a trip's candidates: its day (inclusive bounds) and mode."""
    day = query_value(payload["travel_date"])
    return {
        "start_date": day,
        "end_date": day,
        "transport_type": query_value(payload["transport_type"]),
    }


def travel_dates(records: Sequence[Mapping[str, JsonValue]]) -> QueryParams:
    """The one list query covering ``records``: their travel dates, first to last (the list's
    bounds are inclusive)."""
    days = [str(record["travel_date"])[:10] for record in records]
    return {"start_date": min(days), "end_date": max(days)}


SPEC = ResourceSpec(
    name="business_travels",
    description="Business trips by car, train, plane... (one POST each, asynchronous co2e).",
    schema=BusinessTravelInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(),
    to_records=to_records,
    # The interface shows ``Authorization: Bearer <API key>`` for these endpoints; the service
    # (and the sandbox) take the client's ``x-api-key`` as well.
    write=SingleCreate(
        create_path="/v1/business-travels",
        item_path="/v1/business-travels/{id}",
        update_method="PATCH",  # facts §7: partial update, co2e recalculated
    ),
    # Read back by pages of the list of their dates (a GET each took half a 5,000-trip load).
    readback=Readback(
        activity_date_field="travel_date",
        get_path="/v1/business-travels/{id}",
        list_path="/v1/business-travels",
        range_query=travel_dates,
        unsettled=frozenset({"pending"}),
    ),
    # No key the service keeps: a trip is found by its content, among the trips of the
    # batch's dates (after a crash: of that day and mode).
    finding=Finding(
        list_path="/v1/business-travels",
        query=trips_of_the_day,
        match_fields=(*RECORD_FIELDS,),
        # Given the places, the service calculates the distance: compared only when sent.
        compared_when_sent=("distance_km",),
        range_query=travel_dates,
    ),
    record_fields=RECORD_FIELDS,
    date_fields=("travel_date",),
    # GHG Protocol Scope 3 Standard, category 6 "Business travel": employees travelling for work
    # in vehicles owned or operated by third parties (planes, trains, taxis, rental cars).
    inventory=InventoryRule(scope="3", category="6"),
    # Expected at the organization's level: a month without any, between months with some, is
    # a gap (its records are not any one entity's).
    coverage=CoverageRule(),
    view_columns=(
        ViewColumn(
            "travel_date", "DATE", meaning="Day of the trip (the outbound day of a round trip)."
        ),
        ViewColumn(
            "transport_type",
            meaning="car, metro, train, trolleybus, bus, motorbike, aircraft or ferry.",
        ),
        ViewColumn(
            "distance_km",
            "DOUBLE",
            meaning="One-way distance in km; the service's own when origin and destination were "
            "given.",
        ),
        ViewColumn("origin", meaning="Where the trip starts (an address)."),
        ViewColumn("destination", meaning="Where the trip ends (an address)."),
        ViewColumn("travel_number", "INTEGER", meaning="Travellers on the trip, 1 to 1000."),
        ViewColumn(
            "round_trip", "BOOLEAN", meaning="True for a round trip (the distance counts twice)."
        ),
        ViewColumn(
            "vehicle_size", meaning="Car or motorbike only: small, medium, large or average."
        ),
        ViewColumn(
            "fuel_type",
            meaning="Car or motorbike only: petrol, diesel, cng, lpg, unknown, "
            "plug_in_hybrid_electric or battery_electric.",
        ),
        ViewColumn(
            "flight_type",
            meaning="Aircraft only: domestic, short_haul_international or long_haul_international.",
        ),
        ViewColumn(
            "cabin_class",
            meaning="Aircraft only: economy, premium_economy, business, first or average.",
        ),
    ),
)

__all__ = ["SPEC"]
