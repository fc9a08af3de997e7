from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["employee", "start_date", "end_date", "commuting_type", "transport_type", "total_km",
          "weekly_travels", "daily_trips", "vehicle_size", "fuel_type", "carpool",
          "client_row_id"]  # fmt: skip
ROWS: list[list[object]] = [
    ["ana.garcia@example.es", "2026-01-01", "2026-06-30", "in_itinere", "car", 15, "Mon-Fri", 2,
     "medium", "petrol", "no", "ENC-001"],
    ["jordi.puig@example.es", "2026-01-01", "2026-06-30", None, "tren", 32.5, "0,1,2,3", 2,
     None, None, None, "ENC-002"],
    ["Miguel Torres", "2026-01-01", "2026-03-31", "in itinere", "bicicleta", 4,
     "Monday;Wednesday;Friday", 2, None, None, None, "ENC-003"],
    ["Miguel Torres", "2026-04-01", "2026-06-30", "in_itinere", "metro", 6, "Mon-Fri", 2, None,
     None, None, "ENC-004"],
    ["carmen.ruiz@example.es", "2026-01-01", "2026-06-30", "in_itinere", "teletrabajo", None,
     None, None, None, None, None, "ENC-005"],
    ["Lucía Fernández", "2026-01-01", "2026-02-28", "in_labore", "car", 80, "Tue;Thu", 1,
     "large", "diesel", "sí", "ENC-006"],
]  # fmt: skip

EXAMPLE = Example(
    resource="commuting_periods",
    header=HEADER,
    rows=ROWS,
    change=Change(row=0, header="total_km", value=17),
    # A courier's 30 trips a day: the interface gives no bound, the service allows 20.
    refusal=Refusal(
        row=[
            "ana.garcia@example.es",
            "2026-01-01",
            "2026-06-30",
            "in_labore",
            "motorbike",
            5,
            "Mon-Fri",
            30,
            "small",
            "petrol",
            "no",
            "ENC-099",
        ],  # fmt: skip
        header="daily_trips",
        code="less_than_equal",
    ),
    count=lambda client: sum(len(e["periods"]) for e in client.iter_items("/v1/employees")),
    parents=("employees",),
    cleared=Cleared(row=0, header="vehicle_size", field="vehicle_size"),
)
