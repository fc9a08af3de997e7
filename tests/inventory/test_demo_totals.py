"""The demo's summary ends with the GHG inventory's totals by scope."""

from __future__ import annotations

from rich.console import Console

from emissions_etl.cli.demo import print_inventory_totals
from emissions_etl.warehouse import Warehouse


def printed(warehouse: Warehouse, approach: str) -> list[str]:
    console = Console(record=True, width=200)
    print_inventory_totals(warehouse, console, consolidation=approach)
    return [line.strip() for line in console.export_text().splitlines()]


def test_the_demo_prints_the_totals_by_scope(inventory_warehouse: Warehouse) -> None:
    lines = printed(inventory_warehouse, "operational_control")

    assert "GHG inventory by scope (operational control; view ghg_inventory)" in lines
    rows = [" ".join(line.replace("│", " ").split()) for line in lines]
    assert "Gross Scope 1 GHG emissions 0.3 2" in rows
    assert "Gross location-based Scope 2 GHG emissions 0.1 1" in rows
    assert "Gross Scope 3 GHG emissions 6.9 9" in rows
    assert "Total GHG emissions (location-based) 7.3 12" in rows
    assert not [row for row in rows if "market-based" in row]


def test_the_demo_names_the_approach_it_used(inventory_warehouse: Warehouse) -> None:
    rows = [" ".join(line.replace("│", " ").split()) for line in
            printed(inventory_warehouse, "financial_control")]  # fmt: skip

    assert "Category 8: Upstream leased assets 0.2 1" in rows
    assert "GHG inventory by scope (financial control; view ghg_inventory)" in rows


def test_the_demo_says_the_inventorys_one_total_and_names_the_rest(
    inventory_warehouse: Warehouse,
) -> None:
    text = " ".join(" ".join(printed(inventory_warehouse, "operational_control")).split())

    assert (
        "total GHG emissions (operational control, location-based): 7.3 t co2e; all activity "
        "co2e 7.4 t (the lines after the total are not in it)"
    ) in text
