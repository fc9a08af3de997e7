"""The inventory files: the ESRS table as CSV; a workbook with a sheet per view, opened back
with openpyxl."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.inventory import SHEETS, read_inventory, write_inventory_file
from emissions_etl.warehouse import Warehouse


def sheet_rows(path: Path, name: str) -> list[tuple[object, ...]]:
    return list(openpyxl.load_workbook(path)[name].iter_rows(values_only=True))


def test_the_csv_is_the_esrs_table_in_tonnes_with_one_decimal(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = write_inventory_file(
        read_inventory(inventory_warehouse, year=2026), tmp_path / "inv.csv", warehouse="w"
    )

    with out.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:8] == ["line", "scope", "category", "co2e (t)", "records", "calculated",
                           "pending", "errors"]  # fmt: skip
    by_line = {row[0]: row[1:8] for row in rows[1:]}
    assert by_line["Gross Scope 1 GHG emissions"] == ["1", "", "0.3", "2", "2", "0", "0"]
    assert by_line["Gross market-based Scope 2 GHG emissions"] == ["2", "", "", "", "", "", ""]
    assert by_line["Category 5: Waste generated in operations"] == [
        "3", "5", "1.5", "4", "2", "1", "1"
    ]  # fmt: skip
    assert by_line["Total GHG emissions (location-based)"][2] == "6.9"


def test_the_workbook_has_a_sheet_per_view_with_the_figures(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    inventory = read_inventory(inventory_warehouse, approach="financial_control", year=2026)
    out = write_inventory_file(inventory, tmp_path / "inv.xlsx", warehouse="warehouse.duckdb")

    workbook = openpyxl.load_workbook(out)
    assert workbook.sheetnames == list(SHEETS)
    table = {row[0]: row[1:] for row in sheet_rows(out, "By scope and category")[1:]}
    assert table["Category 8: Upstream leased assets"][:3] == (3, 8, pytest.approx(0.2))
    assert workbook["By scope and category"]["D2"].number_format == "#,##0.0"
    months = sheet_rows(out, "By month")
    assert months[0] == ("month", "Scope 1 (t)", "Scope 2 (location-based) (t)", "Scope 3 (t)",
                         "Total (Scopes 1 to 3) (t)", "Not in the total (t)")  # fmt: skip
    assert [row[0] for row in months[1:]] == ["2026-01", "2026-02", "2026-03"]
    assert months[3][1:] == pytest.approx((0.0, 0.05, 5.03, 5.08, 0.07))
    facilities = {row[0]: row[1:] for row in sheet_rows(out, "By facility")[1:]}
    assert facilities["Madrid Warehouse"] == pytest.approx((0.0, 0.0, 1.0, 1.0, 0.0))
    assert sum(row[3] + row[4] for row in facilities.values()) == pytest.approx(6.95)
    about = dict(sheet_rows(out, "About")[1:])
    assert about["consolidation approach"] == "financial_control"
    assert about["reporting year"] == "2026"
    assert "not named" in str(about["organization"])  # written before organizations were


def test_a_name_that_is_neither_xlsx_nor_csv_is_refused(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="must end in .xlsx or .csv"):
        write_inventory_file(read_inventory(inventory_warehouse), tmp_path / "x.ods", warehouse="w")
