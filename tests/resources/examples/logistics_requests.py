from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["movement_id", "movement_stretch", "shipment_date", "origin", "destination",
          "distance_km", "load", "load_unit", "toc", "category", "client", "hub"]  # fmt: skip

EXAMPLE = Example(
    resource="logistics_requests",
    header=HEADER,
    rows=[
        ["MOV-2026-0001", "1", "2026-01-10", "Madrid", "Barcelona", None, 12000, "kg",
         "articulated_truck_diesel", None, "Distribuciones Norte", "Hub Madrid Sur"],
        ["MOV-2026-0001", "2", "2026-01-11", "Barcelona", "Marseille", None, 12000, "kg", None,
         "road", "Distribuciones Norte", None],
        ["MOV-2026-0002", None, "2026-01-15", None, None, 350, 8, "pallets", "van_diesel", None,
         "Farmacia Central", "Hub Sevilla"],
        # No movement id: the row's own key is sent as one (the service's dedup key).
        [None, None, "2026-02-02", "Valencia", "Palma", None, 2, "teu", None, "maritime",
         "Baleares Food", None],
        ["MOV-2026-0003", "1", "2026-02-20", "Madrid", "Lisbon", 640, 20, "ton",
         "generic_average_rail", None, "Iberia Cargo", None],
        ["MOV-2026-0004", "1", "2026-03-05", None, None, 1200, 500, "kg", None, "air",
         "Distribuciones Norte", None],
    ],  # fmt: skip
    change=Change(row=2, header="load", value=9),
    # The service does not know the place (422 LOCATION_NOT_FOUND in the bulk's errors[]).
    refusal=Refusal(
        row=["MOV-2026-0009", "1", "2026-04-01", "Madrid", "Villarriba", None, 800, "kg",
             "van_diesel", None, "Distribuciones Norte", None],  # fmt: skip
        header="destination",
        code="LOCATION_NOT_FOUND",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/logistics/requests")),
    parents=("logistic_hubs",),
    cleared=Cleared(row=0, header="client", field="client"),
)
