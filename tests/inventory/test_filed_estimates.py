"""An inventory filed with estimates keeps them, line by line: written again as it was filed
after the real data of a month it estimated has landed (on a DuckDB file and on a lake), it
shows the estimates it counted; the inventory now has that month's records instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.inventory import Estimates, file_inventory, read_filed, read_inventory
from emissions_etl.warehouse import Warehouse
from tests.coverage.conftest import AS_OF, YEAR, build_gaps_warehouse, day, land


@pytest.mark.parametrize("kind", ["duckdb", "ducklake"])
def test_a_filed_inventory_keeps_the_estimates_it_counted_after_the_data_lands(
    tmp_path: Path, kind: str
) -> None:
    location = (
        str(tmp_path / "w.duckdb") if kind == "duckdb" else f"ducklake:{tmp_path / 'c.ducklake'}"
    )
    warehouse = build_gaps_warehouse(location)
    filed, inventory = file_inventory(warehouse, year=YEAR, by="ana",
                                      estimates=Estimates(as_of=AS_OF))  # fmt: skip
    with warehouse.writer() as writer:  # 1111AAA's March, late
        land(writer, "vehicle_consumptions", [("c-veh-1-3", day(3, 20), 95.0, {
            "vehicle_id": "veh-1", "data": {"unit": "liters", "start_date": str(day(3, 5))}})])

    again = read_filed(Warehouse(location), filed.filed_id)
    now = read_inventory(Warehouse(location), year=YEAR, estimates=Estimates(as_of=AS_OF))

    counted = warehouse.query(
        "SELECT sum(estimate_kg) AS kg, count(DISTINCT resource) AS resources "
        "FROM filed_inventory_estimates WHERE filed_id = ?", [filed.filed_id]
    ).iloc[0]  # fmt: skip
    assert counted["kg"] == pytest.approx(inventory.line("total_location")["estimated_kg"])
    assert counted["resources"] == 5
    assert again.estimates_as_of == filed.estimates_as_of == AS_OF
    assert again.lines.equals(inventory.lines)  # exactly as filed
    scope_1 = (again.line("scope_1"), now.line("scope_1"))
    assert scope_1[0]["estimated_kg"] == pytest.approx(103.0 + 8 * 204.0)
    assert scope_1[1]["estimated_kg"] == pytest.approx(8 * 204.0)  # March is real now
    assert scope_1[1]["co2e_kg"] == pytest.approx(scope_1[0]["co2e_kg"] - 103.0 + 95.0)
