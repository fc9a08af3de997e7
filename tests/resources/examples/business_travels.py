from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["travel_date", "transport_type", "distance_km", "origin", "destination",
          "travel_number", "round_trip", "vehicle_size", "fuel_type", "flight_type",
          "cabin_class", "client_row_id"]  # fmt: skip

EXAMPLE = Example(
    resource="business_travels",
    header=HEADER,
    rows=[
        [
            "2026-01-12",
            "train",
            None,
            "Madrid",
            "Barcelona",
            1,
            "yes",
            None,
            None,
            None,
            None,
            "T-1",
        ],
        [
            "2026-01-20",
            "aircraft",
            None,
            "Madrid",
            "London",
            2,
            "no",
            None,
            None,
            "short_haul_international",
            "economy",
            "T-2",
        ],
        ["2026-02-03", "car", 320.0, None, None, 1, "no", "medium", "diesel", None, None, "T-3"],
        ["2026-02-15", "bus", 45.0, None, None, 12, "yes", None, None, None, None, "T-4"],
        [
            "2026-03-02",
            "aircraft",
            None,
            "Madrid",
            "New York",
            1,
            "yes",
            None,
            None,
            "long_haul_international",
            "business",
            "T-5",
        ],
        ["2026-03-10", "ferry", None, "Barcelona", "Palma", 3, "no", None, None, None, None, "T-6"],
    ],  # fmt: skip
    change=Change(row=1, header="travel_number", value=3),
    # Interface: Business travels, rule 4: a train across an ocean is 422 VALIDATION_ERROR.
    refusal=Refusal(
        row=[
            "2026-04-07",
            "train",
            None,
            "Madrid",
            "New York",
            1,
            "no",
            None,
            None,
            None,
            None,
            "T-9",
        ],  # fmt: skip
        header="transport_type",
        code="VALIDATION_ERROR",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/business-travels")),
    cleared=Cleared(row=2, header="vehicle_size", field="vehicle_size"),
)
