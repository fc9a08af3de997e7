from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["facility", "identification_name", "start_date", "end_date", "base_quantity", "unit",
          "ler_code", "rd_code", "destination"]  # fmt: skip


def _row(n: int, quantity: float = 100.0) -> list[object]:
    return ["Madrid Warehouse", f"INV-{n:04d}", f"2026-0{n % 9 + 1}-01", f"2026-0{n % 9 + 1}-28",
            quantity, "kg", "20 01 01", "R3", "Gestora Norte"]  # fmt: skip


EXAMPLE = Example(
    resource="wastes",
    header=HEADER,
    rows=[_row(n) for n in range(6)],
    change=Change(row=2, header="base_quantity", value=250.0),
    # The interface gives no length for identification_name; the service refuses over 255.
    refusal=Refusal(
        row=[
            "Madrid Warehouse",
            "X" * 300,
            "2026-01-01",
            "2026-01-31",
            5.0,
            "kg",
            "20 01 01",
            "R3",
            "Gestora Norte",
        ],  # fmt: skip
        header="identification_name",
        code="TOO_LONG",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v2/wastes")),
    cleared=Cleared(row=0, header="destination", field="destination"),
)
