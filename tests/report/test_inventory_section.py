"""The report's GHG inventory: the ESRS E1-6 table in tonnes with one decimal, the scopes by
month, data quality per line, under the approach asked for."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse
from tests.inventory.conftest import build_inventory_warehouse

from .conftest import element_text, plotted_traces


@pytest.fixture
def inventory_warehouse(tmp_path: Path) -> Warehouse:
    return build_inventory_warehouse(tmp_path / "warehouse.duckdb")


def rows_of(page: str, table_class: str) -> list[str]:
    """Each body row's text of the table of that class, cells joined by ' | '."""
    import re

    table = re.search(rf'<table class="{table_class}">(.*?)</table>', page, flags=re.S)
    assert table is not None, table_class
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), flags=re.S)[1:]
    return [
        " | ".join(re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(
            r"<td[^>]*>(.*?)</td>", row, flags=re.S))
        for row in rows
    ]  # fmt: skip


def test_the_page_shows_the_inventory_table_by_scope_and_category(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    write_report(inventory_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "consolidation approach: operational control" in element_text(page, "ghg-inventory")
    rows = rows_of(page, "inventory")
    assert rows[:10] == [
        "Gross Scope 1 GHG emissions | 0.3 | 2 | 2 | 0 | 0",
        "Gross location-based Scope 2 GHG emissions | 0.1 | 1 | 1 | 0 | 0",
        "Gross market-based Scope 2 GHG emissions (not calculated) | \u2013 | \u2013 | \u2013 | "
        "\u2013 | \u2013",
        "Gross Scope 3 GHG emissions | 6.9 | 9 | 7 | 1 | 1",
        "Category 1: Purchased goods and services | 2.0 | 1 | 1 | 0 | 0",
        "Category 2: Capital goods | 3.0 | 1 | 1 | 0 | 0",
        "Category 4: Upstream transportation and distribution | 0.0 | 1 | 1 | 0 | 0",
        "Category 5: Waste generated in operations | 1.9 | 5 | 3 | 1 | 1",
        "Category 6: Business travel | 0.0 | 1 | 1 | 0 | 0",
        "Total GHG emissions (location-based) | 7.3 | 12 | 10 | 1 | 1",
    ]
    assert rows[-1] == "co2e of every activity record in the warehouse | 7.4 | 13 | 11 | 1 | 1"
    assert any(row.startswith("Not in the total: own fleet leg") for row in rows)


def test_the_scopes_are_charted_by_month(inventory_warehouse: Warehouse, tmp_path: Path) -> None:
    write_report(inventory_warehouse, tmp_path / "report.html")

    traces = plotted_traces((tmp_path / "report.html").read_text(encoding="utf-8"))
    by_scope = {trace["name"]: trace for trace in traces["chart-scopes-by-month"]}
    assert list(by_scope) == ["Scope 1", "Scope 2 (location-based)", "Scope 3"]
    assert by_scope["Scope 1"]["y"] == pytest.approx([100.0, 200.0])
    assert sum(by_scope["Scope 3"]["y"]) == pytest.approx(6_530.0 + 400.0)  # 2025's waste too


def test_data_quality_lists_each_line_and_resource_with_the_rows_rejected(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    write_report(inventory_warehouse, tmp_path / "report.html")

    rows = rows_of((tmp_path / "report.html").read_text(encoding="utf-8"), "inventory-quality")
    assert "Scope 3 \u00b7 5 Waste generated in operations | wastes | 5 | 3 | 1 | 1 | 2" in rows
    assert "Not in the total | logistics requests | 1 | 1 | 0 | 0 | 0" in rows
    assert not [row for row in rows if "employees" in row]


def test_another_approach_is_named_and_moves_the_leased_van(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    write_report(inventory_warehouse, tmp_path / "report.html", consolidation="financial_control")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert element_text(page, "consolidation-approach") == "financial control"
    assert "Category 8: Upstream leased assets | 0.2 | 1 | 1 | 0 | 0" in rows_of(page, "inventory")


def test_a_warehouse_written_before_the_inventory_says_so(tmp_path: Path) -> None:
    warehouse = build_inventory_warehouse(tmp_path / "warehouse.duckdb")
    con = duckdb.connect(str(warehouse.path))
    for view in ("ghg_inventory", "ghg_inventory_records"):
        con.execute(f"DROP VIEW {view}")
    con.close()

    write_report(warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "no GHG inventory yet" in element_text(page, "ghg-inventory")


def test_a_warehouse_of_several_organizations_says_the_inventory_is_per_organization(
    tmp_path: Path,
) -> None:
    warehouse = build_inventory_warehouse(tmp_path / "shared.duckdb", organization_id="org-a")
    con = duckdb.connect(str(warehouse.path))  # org-b's wastes, as org-b's loads land them
    con.execute("UPDATE remote_records SET organization_id = 'org-b' WHERE resource = 'wastes'")
    con.close()

    write_report(warehouse, tmp_path / "report.html")

    text = element_text((tmp_path / "report.html").read_text("utf-8"), "ghg-inventory")
    assert "holds 2 organizations (org-a, org-b)" in text
    assert "emissions-etl inventory --organization NAME" in text
