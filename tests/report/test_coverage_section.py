"""The report's coverage: a heat map of the year's expected months by entity, the gaps first,
coloured received, overdue, missing or not expected; the inventory with its estimates when
asked; and why the page has no coverage when it cannot have one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse
from tests.coverage.conftest import AS_OF, build_gaps_warehouse, land
from tests.inventory.conftest import build_inventory_warehouse

from .conftest import element_text


@pytest.fixture
def gaps(tmp_path: Path) -> Warehouse:
    return build_gaps_warehouse(tmp_path / "w.duckdb")


def heat_map(page: str) -> dict[tuple[str, str], list[str]]:
    """(resource, entity) -> each month's cell class, from the coverage table."""
    [table] = re.findall(r'<table class="coverage">(.*?)</table>', page, flags=re.S)
    rows = {}
    for row in re.findall(r"<tr><td>(.*?)</tr>", table, flags=re.S):
        resource = re.sub(r"<[^>]+>", "", row.split("</td>")[0]).strip()
        entity = re.findall(r"</td><td>([^<]*)</td>", row)[0]
        rows[(resource, entity)] = re.findall(r'class="cov (cov-[a-z]+)"', row)
    return rows


def test_the_heat_map_shows_each_entity_by_month_the_gaps_first(
    gaps: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    write_report(gaps, out, year=2025, as_of=AS_OF)
    page = out.read_text(encoding="utf-8")

    cells = heat_map(page)
    assert list(cells)[0] == ("vehicle consumptions", "4444DDD")  # the most overdue first
    assert cells[("vehicle consumptions", "1111AAA")] == [
        "cov-received", "cov-received", "cov-overdue", *["cov-received"] * 9]  # fmt: skip
    assert cells[("vehicle consumptions", "2222BBB")][-1] == "cov-missing"  # not yet due
    assert cells[("vehicle consumptions", "3333CCC")][6:] == ["cov-none"] * 6
    assert cells[("business travels", "(organization)")][7] == "cov-overdue"
    assert element_text(page, "coverage-year") == "2025"
    assert element_text(page, "coverage-counts") == "101 expected, 25 missing (23 overdue)"


def test_without_a_year_the_heat_map_is_of_the_last_month_ended(
    gaps: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    write_report(gaps, out, as_of=AS_OF)

    assert element_text(out.read_text(encoding="utf-8"), "coverage-year") == "2025"


def test_with_estimates_the_inventory_says_how_much_of_each_line_is_estimated(
    gaps: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    summary = write_report(gaps, out, year=2025, as_of=AS_OF, with_estimates=True)
    plain = write_report(gaps, tmp_path / "plain.html", year=2025, as_of=AS_OF)
    page = out.read_text(encoding="utf-8")

    assert summary.total_co2e_kg == pytest.approx(plain.total_co2e_kg + 3027.0)
    inventory = element_text(page, "ghg-inventory")
    assert "estimated (t) estimated (%)" in inventory
    assert "With the estimates of missing months as of 2026-01-05" in inventory
    assert "estimated (t)" not in element_text(plain.path.read_text(encoding="utf-8"),
                                               "ghg-inventory")  # fmt: skip


def test_a_warehouse_of_several_organizations_says_the_coverage_is_per_organization(
    tmp_path: Path,
) -> None:
    build_inventory_warehouse(tmp_path / "shared.duckdb", organization_id="org-a")
    with Warehouse(tmp_path / "shared.duckdb", organization_id="org-b").writer() as writer:
        land(writer, "purchases", [("pu-b", None, 1.0, {})])
    out = tmp_path / "report.html"
    write_report(Warehouse(tmp_path / "shared.duckdb"), out, as_of=AS_OF)

    text = element_text(out.read_text(encoding="utf-8"), "coverage")
    assert "No coverage on this page: this warehouse holds 2 organizations" in text
