"""Years side by side, as ESRS E1-6 lays the table out: the base year, the year before and the
reporting year, every line, and the change from the year before in %; a year with no record
shows empty cells. Over two years of data (conftest: 2025 and 2026, nothing in 2024)."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.inventory import read_inventory, write_inventory_file
from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl

YEARS = ["2024 base year (t)", "2025 (t)", "2026 (t)", "change 2026/2025 (%)"]
OLD_COLUMNS = ["line", "scope", "category", "co2e (t)", "records", "calculated", "pending",
               "errors"]  # fmt: skip


def inventory(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(["inventory", *args], timeout=180, env={**clean, "COLUMNS": "200", **env})


def by_line(two_years: Warehouse) -> dict[str, dict[str, object]]:
    compared = read_inventory(two_years, year=2026, base_year=2024).comparison
    assert compared is not None
    return {row["line"]: row for row in compared.to_dict("records")}


def test_every_line_has_the_base_year_the_year_before_and_the_year(two_years: Warehouse) -> None:
    inventory = read_inventory(two_years, year=2026, base_year=2024)

    assert inventory.comparison is not None
    assert list(inventory.comparison.columns) == ["kind", "line", *YEARS]
    assert list(inventory.comparison["line"]) == list(inventory.lines["line"])
    lines = by_line(two_years)
    assert (lines["Gross Scope 1 GHG emissions"]["2025 (t)"],
            lines["Gross Scope 1 GHG emissions"]["2026 (t)"]) == (0.1, 0.3)  # fmt: skip
    total = lines["Total GHG emissions (location-based)"]
    assert (total["2025 (t)"], total["2026 (t)"]) == pytest.approx((1.525, 6.88))


def test_the_change_is_from_the_year_before_in_percent(two_years: Warehouse) -> None:
    lines = by_line(two_years)

    change = "change 2026/2025 (%)"
    assert lines["Gross Scope 1 GHG emissions"][change] == pytest.approx(200.0)
    assert lines["Total GHG emissions (location-based)"][change] == pytest.approx(
        (6_880 - 1_525) / 1_525 * 100
    )
    assert lines["Category 6: Business travel"][change] == pytest.approx(-100.0)
    # From nothing, no change can be said.
    assert lines["Category 2: Capital goods"][change] is None
    assert lines["Gross market-based Scope 2 GHG emissions"][change] is None


def test_a_year_without_records_shows_empty_cells_not_zeros(two_years: Warehouse) -> None:
    inventory = read_inventory(two_years, year=2026, base_year=2024)

    assert inventory.comparison is not None
    assert set(inventory.comparison["2024 base year (t)"]) == {None}
    assert [(c.year, c.is_base, c.has_records) for c in inventory.compared] == [
        (2024, True, False), (2025, False, True), (2026, False, True)
    ]  # fmt: skip


def test_a_line_of_one_year_is_a_line_of_the_other_at_zero(two_years: Warehouse) -> None:
    lines = by_line(two_years)

    assert lines["Category 6: Business travel"]["2026 (t)"] == 0.0  # 2025's trip only
    assert lines["Category 2: Capital goods"]["2025 (t)"] == 0.0  # 2026's machine only


def test_the_csv_keeps_its_columns_and_adds_the_years(two_years: Warehouse, tmp_path: Path) -> None:
    out = tmp_path / "inventory.csv"
    done = inventory("--warehouse", str(two_years.path), "--year", "2026", "--out", str(out),
                     EMISSIONS_BASE_YEAR="2024")  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "the total beside it: 2025 1.5 t, base year 2024 no record" in done.stdout
    with out.open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert header == [*OLD_COLUMNS, *YEARS]
    table = {row[0]: row[1:] for row in rows}
    assert table["Gross Scope 1 GHG emissions"] == [
        "1", "", "0.3", "2", "2", "0", "0", "", "0.1", "0.3", "200.0"
    ]  # fmt: skip
    assert table["Category 2: Capital goods"][-4:] == ["", "0.0", "3.0", ""]
    assert table["Total GHG emissions (location-based)"][-4:] == ["", "1.5", "6.9", "351.1"]


def test_the_workbook_shows_the_same_columns_with_one_decimal(
    two_years: Warehouse, tmp_path: Path
) -> None:
    inventory_ = read_inventory(two_years, year=2026, base_year=2024)
    out = write_inventory_file(inventory_, tmp_path / "inventory.xlsx", warehouse="w")

    workbook = openpyxl.load_workbook(out)
    sheet = workbook["By scope and category"]
    header = [cell.value for cell in sheet[1]]
    assert header == [*OLD_COLUMNS, *YEARS]
    total = next(row for row in sheet.iter_rows(min_row=2) if row[0].value.startswith("Total"))
    assert [cell.value for cell in total[8:]] == [None, 1.525, 6.88, pytest.approx(351.147541)]
    assert [cell.number_format for cell in total[9:]] == ["#,##0.0", "#,##0.0", "0.0"]
    about = dict(workbook["About"].iter_rows(min_row=2, values_only=True))
    assert about["years side by side"] == (
        "2024 (base year): no record, cells left empty, 2025, 2026"
    )


def test_without_a_year_the_base_year_variable_is_left_for_later(
    two_years: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "inventory.csv"
    every_year = inventory("--warehouse", str(two_years.path), "--out", str(out),
                           EMISSIONS_BASE_YEAR="2024")  # fmt: skip
    asked = inventory("--warehouse", str(two_years.path), "--out", str(out),
                      "--base-year", "2024")  # fmt: skip
    after = inventory("--warehouse", str(two_years.path), "--out", str(out),
                      "--year", "2025", "--base-year", "2026")  # fmt: skip

    assert every_year.returncode == 0, every_year.stderr
    assert "(operational_control, every year)" in every_year.stdout
    assert asked.returncode == 2
    assert "--base-year needs --year" in asked.stderr
    assert after.returncode == 2
    assert "--base-year 2026 is after the reporting year 2025" in after.stderr


def test_help_names_the_base_year_variable() -> None:
    done = run_etl(["inventory", "--help"], timeout=60, env={**os.environ, "COLUMNS": "200"})

    assert "--base-year" in done.stdout
    assert "EMISSIONS_BASE_YEAR" in done.stdout


def test_the_report_sets_the_years_side_by_side_too(two_years: Warehouse, tmp_path: Path) -> None:
    write_report(two_years, tmp_path / "report.html", year=2026, base_year=2024)

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="inventory">') :]
    table = table[: table.index("</thead>")]
    for header in YEARS:
        assert f">{header}<" in table
    assert '<strong id="reporting-year">2026</strong>' in page
