from __future__ import annotations

from emissions_etl.client import EmissionsClient
from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["license_plate", "quantity", "unit", "start_date", "end_date", "client_row_id"]
ROWS: list[list[object]] = [
    ["1234 KLM", 85.4, "liters", "2026-01-01", "2026-01-31", "SOLRED-2026-0001"],
    ["5678-LMN", 92.0, "L", "2026-01-01", "2026-01-31", "SOLRED-2026-0002"],
    ["9012 MNP", 1450, "km", "2026-01-01", "2026-01-31", "KM-ENE-9012"],
    ["3456 NPR", 210.5, "kWh", "2026-01-01", "2026-01-31", "IBERDROLA-F-1001"],
    ["7890 PRS", 640.0, "litros", "2026-02-03", None, "SOLRED-2026-0003"],
    ["AA-12-BC", 70.2, "liters", "2026-02-01", "2026-02-28", None],
]


def count(client: EmissionsClient) -> int:
    return sum(
        1
        for vehicle in list(client.iter_items("/v1/vehicles"))
        for _ in client.iter_items(f"/v1/vehicles/{vehicle['id']}/consumptions")
    )


EXAMPLE = Example(
    resource="vehicle_consumptions",
    header=HEADER,
    rows=ROWS,
    change=Change(row=0, header="quantity", value=90.1),
    # Litres for the electric car: its fuel cannot be measured in litres.
    refusal=Refusal(
        row=["3456 NPR", 40.0, "liters", "2026-02-01", "2026-02-28", "SOLRED-2026-0099"],
        header="unit",
        code="UNIT_NOT_CONVERTIBLE",
    ),
    count=count,
    parents=("vehicles",),
    # An empty end date is a refuelling's: the period ends on its start date.
    cleared=Cleared(row=0, header="end_date", field="data.end_date", expected="2026-01-01"),
)
