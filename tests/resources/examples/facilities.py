from __future__ import annotations

from tests.pipeline.tenancy import FACILITIES
from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["name", "type", "country", "address", "logistic_factor", "categories", "cups_list"]
ROWS: list[list[object]] = [
    ["Valencia Office", "Office", "ES", "Calle de Colón 10, Valencia", 0.8, "electricity, water",
     "ES0021000000000001AB"],
    ["Sevilla Logistics Hub", "warehouse", "es", "Polígono La Isla, Dos Hermanas", 0.9,
     "Electricidad; recarga", None],
    ["Bilbao Office", "office", "ES", "Gran Vía 20, Bilbao", None, "heat", None],
    ["Zaragoza Cross-dock", "warehouse", "ES", "Plaza, Zaragoza", 1, None,
     "ES0031405000000002CD1P; ES0031405000000003EF"],
    ["Lisboa Warehouse", "warehouse", "PT", None, 0.75, "electricity", None],
    ["Málaga Store", "store", "ES", "Calle Larios 5, Málaga", 0.5, None, None],
]  # fmt: skip

EXAMPLE = Example(
    resource="facilities",
    header=HEADER,
    rows=ROWS,
    change=Change(row=1, header="logistic_factor", value=0.7),
    # The interface gives no length for a facility's name; the service refuses over 255.
    refusal=Refusal(
        row=["Centro de distribución " * 14, "warehouse", "ES", None, 0.8, None, None],
        header="name",
        code="string_too_long",
    ),
    # The test organization has its own facilities already (tests.pipeline.tenancy).
    count=lambda client: sum(
        1 for item in client.iter_items("/v1/facilities") if item["name"] not in FACILITIES
    ),
    cleared=Cleared(row=0, header="address", field="address"),
)
