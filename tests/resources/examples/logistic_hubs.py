from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["name", "type", "category", "address", "country", "supercharger", "facility"]
ROWS: list[list[object]] = [
    ["Hub Madrid Sur", "owned", "warehouse_ambient", "Calle de la Logística 4, Getafe", "ES",
     "no", "Madrid Warehouse"],
    ["Hub Sevilla", "Propio", "Storage transhipment ambient", "Polígono La Isla, Dos Hermanas",
     "ES", "sí", "Sevilla Logistics Hub"],
    ["Cross-dock Zaragoza (DHL)", "subcontracted", "transshipment_mixed", "PLAZA, Zaragoza",
     "ES", None, None],
    ["Puerto de Valencia (MSC)", "subcontratado", "maritime_container_terminals_ambient",
     "Puerto de Valencia", None, "no", None],
    ["Hub Barcelona", "owned", "warehouse_mixed", None, "ES", "yes", "Barcelona Plant"],
    ["Almacén Lisboa (3PL)", "subcontracted", None, "Bobadela, Lisboa", "PT", None, None],
]  # fmt: skip

EXAMPLE = Example(
    resource="logistic_hubs",
    header=HEADER,
    rows=ROWS,
    change=Change(row=0, header="supercharger", value="yes"),
    # The interface gives no length for a hub's address; the service refuses over 500.
    refusal=Refusal(
        row=[
            "Hub Valencia",
            "owned",
            "warehouse_ambient",
            "Muelle de Poniente, Puerto de Valencia, acceso por la puerta 3; " * 10,
            "ES",
            "no",
            "Valencia Office",
        ],  # fmt: skip
        header="address",
        code="string_too_long",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/logistic-hubs")),
    parents=("facilities",),
    cleared=Cleared(row=0, header="address", field="address"),
)
