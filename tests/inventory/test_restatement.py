"""A restatement: a filed inventory beside its year now, line by line, and exactly the records
added, removed or recalculated since, each with its row (file, sheet, row)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.inventory import file_inventory, read_inventory, restate_against
from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.inventory.conftest import build_two_years_warehouse, change_everything


@pytest.fixture
def filed_then_changed(tmp_path: Path) -> tuple[Warehouse, str]:
    """2026 filed; then a waste of April added (row 2 of wastes.xlsx, as ``_land`` lands it),
    the February waste removed (it was row 3), the opex purchase recalculated (2,000 to 2,500
    kg), and 2025's purchase removed (not the filed year's: no change to it)."""
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")
    filed, _ = file_inventory(warehouse, year=2026, by="ana")
    change_everything(warehouse)
    return warehouse, filed.filed_id


def test_the_restatement_lists_exactly_the_records_changed_with_their_rows(
    filed_then_changed: tuple[Warehouse, str],
) -> None:
    warehouse, filed_id = filed_then_changed

    restated = restate_against(warehouse, filed_id, read_inventory(warehouse, year=2026))

    changed = [
        (r["change"], r["service_id"], r["file"], r["sheet"], r["row"])
        for r in restated.records.to_dict("records")
    ]
    assert changed == [
        ("added", "w-late", "wastes.xlsx", "Data", 2),
        ("removed", "w-feb", "wastes.xlsx", "Data", 3),
        ("recalculated", "p-opex", "purchases.xlsx", "Data", 2),
    ]
    removed = restated.records[restated.records["change"] == "removed"].iloc[0]
    assert (removed["line when filed"], removed["co2e_kg when filed"]) == (
        "Category 5: Waste generated in operations", 500.0
    )  # fmt: skip
    again = restated.records[restated.records["change"] == "recalculated"].iloc[0]
    assert (again["co2e_kg when filed"], again["co2e_kg"]) == (2_000.0, 2_500.0)


def test_each_line_has_its_figure_as_filed_and_now(
    filed_then_changed: tuple[Warehouse, str],
) -> None:
    warehouse, filed_id = filed_then_changed

    restated = restate_against(warehouse, filed_id, read_inventory(warehouse, year=2026))

    lines = restated.lines.set_index("line")
    total = lines.loc["Total GHG emissions (location-based)"]
    assert (total["filed (t)"], total["now (t)"]) == pytest.approx((6.88, 6.88 + 0.9 - 0.5 + 0.5))
    assert lines.loc["Category 5: Waste generated in operations", "difference (t)"] == (
        pytest.approx(0.4)
    )
    assert "1 added, 1 removed, 1 recalculated" in restated.summary()


def test_inventory_against_writes_the_lines_and_the_changed_records(
    filed_then_changed: tuple[Warehouse, str], tmp_path: Path
) -> None:
    warehouse, filed_id = filed_then_changed
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}

    done = run_etl(
        ["inventory", "--against", filed_id, "--out", str(tmp_path / "r.csv")],
        timeout=180,
        env={**clean, "EMISSIONS_WAREHOUSE": str(warehouse.path)},
    )  # fmt: skip
    xlsx = run_etl(
        ["inventory", "--year", "2026", "--against", filed_id, "--out", str(tmp_path / "r.xlsx")],
        timeout=180,
        env={**clean, "EMISSIONS_WAREHOUSE": str(warehouse.path)},
    )  # fmt: skip

    assert (done.returncode, xlsx.returncode) == (0, 0), done.stderr + xlsx.stderr
    assert f"restated against {filed_id}" in done.stdout
    with (tmp_path / "r.csv").open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert header[-2:] == [f"filed {filed_id} (t)", "difference since filed (t)"]
    total = next(row for row in rows if row[0] == "Total GHG emissions (location-based)")
    assert total[-2:] == ["6.9", "0.9"]
    with (tmp_path / "r.changes.csv").open(newline="", encoding="utf-8") as handle:
        changes = list(csv.DictReader(handle))
    assert [(c["change"], c["file"], c["row"]) for c in changes] == [
        ("added", "wastes.xlsx", "2"), ("removed", "wastes.xlsx", "3"),
        ("recalculated", "purchases.xlsx", "2"),
    ]  # fmt: skip
    sheet = openpyxl.load_workbook(tmp_path / "r.xlsx")["Changed since filed"]
    assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)] == [
        "added", "removed", "recalculated"
    ]  # fmt: skip


def test_the_report_restates_against_a_filed_inventory(
    filed_then_changed: tuple[Warehouse, str], tmp_path: Path
) -> None:
    warehouse, filed_id = filed_then_changed

    write_report(warehouse, tmp_path / "report.html", year=2026, against=filed_id)

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    section = page[page.index('id="restatement"') :]
    section = section[: section.index("</section>")]
    assert filed_id in section
    assert "1 added, 1 removed, 1 recalculated" in section
    assert section.count('class="change-') == 3


def test_a_restatement_under_another_approach_is_refused(
    filed_then_changed: tuple[Warehouse, str],
) -> None:
    warehouse, filed_id = filed_then_changed

    with pytest.raises(ValueError, match="--consolidation operational_control"):
        restate_against(
            warehouse, filed_id,
            read_inventory(warehouse, year=2026, approach="financial_control"),
        )  # fmt: skip
