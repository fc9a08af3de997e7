"""The coverage of a year of planted gaps (``conftest``), on a DuckDB file and on a DuckLake:
every gap named once and nothing else, due and overdue as of the date, each estimate its
method's value, the inventory with estimates the inventory plus them, an expectations file
changing what is expected, for the view as for the command."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.coverage import CoverageRequest, read_coverage
from emissions_etl.inventory import Estimates, read_inventory
from emissions_etl.warehouse import COVERAGE_COLUMNS, Warehouse
from tests.coverage.conftest import AS_OF, GAPS, ORGANIZATION, YEAR, build_gaps_warehouse

KINDS = ["duckdb", "ducklake"]


def location(tmp_path: Path, kind: str) -> str:
    return str(tmp_path / "w.duckdb") if kind == "duckdb" else f"ducklake:{tmp_path / 'c.ducklake'}"


def coverage_of(warehouse: Warehouse, **request: object) -> pd.DataFrame:
    asked = {"year": YEAR, "as_of": AS_OF, **request}
    return read_coverage(warehouse, CoverageRequest(**asked)).rows  # type: ignore[arg-type]


def keyed(rows: pd.DataFrame) -> list[tuple[str, str, int]]:
    return [(r, e, pd.Timestamp(m).month) for r, e, m in
            zip(rows["resource"], rows["entity"], rows["month"], strict=True)]  # fmt: skip


@pytest.fixture
def gaps(tmp_path: Path) -> Warehouse:
    return build_gaps_warehouse(tmp_path / "w.duckdb")


@pytest.mark.parametrize("kind", KINDS)
def test_every_planted_gap_is_named_once_and_nothing_else(tmp_path: Path, kind: str) -> None:
    rows = coverage_of(build_gaps_warehouse(location(tmp_path, kind)))

    missing = keyed(rows[rows["status"] == "missing"])
    assert sorted(missing) == sorted(GAPS)
    assert len(missing) == len(set(missing))
    assert list(rows.columns) == list(COVERAGE_COLUMNS)
    assert set(rows["organization_id"]) == {ORGANIZATION}


def test_each_gap_is_due_on_the_tenth_of_the_next_month_and_overdue_after(
    gaps: Warehouse,
) -> None:
    rows = coverage_of(gaps)
    missing = rows[rows["status"] == "missing"]

    months = pd.to_datetime(missing["month"])
    expected_due = [(m + pd.DateOffset(months=1)).replace(day=10).date() for m in months]
    assert [pd.Timestamp(d).date() for d in missing["due_date"]] == expected_due
    assert missing["overdue"].tolist() == (months.dt.month != 12).tolist()  # due 2026-01-10
    assert not rows.loc[rows["status"] == "received", "overdue"].any()


@pytest.mark.parametrize("kind", KINDS)
def test_each_estimate_is_its_methods_value(tmp_path: Path, kind: str) -> None:
    rows = coverage_of(build_gaps_warehouse(location(tmp_path, kind)))
    missing = rows[rows["status"] == "missing"]

    found = {
        key: None if pd.isna(kg) else (pytest.approx(kg), method)
        for key, kg, method in zip(keyed(missing), missing["estimate_kg"],
                                   missing["estimate_method"], strict=True)  # fmt: skip
    }
    assert found == GAPS
    assert rows.loc[rows["status"] == "received", "estimate_kg"].isna().all()


def test_entities_are_expected_from_their_first_record_until_they_end(gaps: Warehouse) -> None:
    rows = coverage_of(gaps)
    months = {
        (resource, entity): sorted(pd.to_datetime(group["month"]).dt.month)
        for (resource, entity), group in rows.groupby(["resource", "entity"])
    }

    assert months[("vehicle_consumptions", "3333CCC")] == list(range(1, 7))  # archived
    assert months[("vehicle_consumptions", "4444DDD")] == list(range(1, 13))  # never sent
    assert months[("wastes", "Old Depot")] == [1, 2]  # archived
    assert ("wastes", "Bilbao Office") not in months  # no wastes: not expected
    assert months[("commuting_periods", "Bo Terminated")] == list(range(1, 7))
    assert months[("business_travels", "")] == list(range(1, 12))  # to the last with some
    assert months[("purchases", "")] == [2, 3, 4, 5]


def test_a_period_over_several_months_is_received_in_each_its_co2e_shared_by_days(
    gaps: Warehouse,
) -> None:
    rows = coverage_of(gaps)
    cy = rows[rows["entity"] == "cy@example.es"]

    assert (cy["status"] == "received").all()
    assert (cy["records"] == 1).all()
    days = [pd.Timestamp(m).days_in_month for m in cy["month"]]
    assert cy["co2e_kg"].tolist() == pytest.approx([float(d) for d in days])  # 365 kg a year


def test_a_month_not_ended_by_the_as_of_date_is_not_expected(gaps: Warehouse) -> None:
    rows = coverage_of(gaps, as_of=dt.date(2025, 7, 15))

    assert pd.to_datetime(rows["month"]).max() == pd.Timestamp(2025, 6, 1)
    late = rows[(rows["entity"] == "2222BBB") & (rows["status"] == "missing")]
    assert pd.to_datetime(late["month"]).dt.month.tolist() == [5, 6]
    assert late["overdue"].tolist() == [True, True]  # May due 10 June, June due 10 July


def test_the_due_day_moves_what_is_overdue(gaps: Warehouse) -> None:
    def december_overdue(due_day: int | None) -> list[bool]:
        rows = coverage_of(gaps, as_of=dt.date(2026, 1, 12), due_day=due_day)
        december = (pd.to_datetime(rows["month"]).dt.month == 12) & (rows["status"] == "missing")
        return rows.loc[december, "overdue"].tolist()

    assert set(december_overdue(None)) == {True}  # due 10 January
    assert set(december_overdue(15)) == {False}


def test_the_view_coverage_is_as_of_today_with_the_default_due_day(gaps: Warehouse) -> None:
    view = gaps.query("SELECT * FROM coverage")
    today = gaps.query("SELECT * FROM coverage_at(current_date, 10)")

    assert list(view.columns) == list(COVERAGE_COLUMNS)
    pd.testing.assert_frame_equal(view, today)


EXPECTATIONS = """
[vehicle_consumptions.entities."4444 ddd"]
expected = false

[vehicle_consumptions.entities."2222BBB"]
until = "2025-06"

[wastes]
cadence = "quarterly"

[business_travels]
until = "2025-12"
estimate = "none"
"""


@pytest.mark.parametrize("kind", KINDS)
def test_an_expectations_file_changes_what_is_expected_for_the_view_too(
    tmp_path: Path, kind: str
) -> None:
    warehouse = build_gaps_warehouse(location(tmp_path, kind))
    file = tmp_path / "expectations.toml"
    file.write_text(EXPECTATIONS, encoding="utf-8")

    rows = coverage_of(warehouse, expectations=file)

    missing = sorted(keyed(rows[rows["status"] == "missing"]))
    assert missing == sorted([
        ("vehicle_consumptions", "1111AAA", 3),
        ("vehicle_consumptions", "2222BBB", 5), ("vehicle_consumptions", "2222BBB", 6),
        ("commuting_periods", "ana@example.es", 3),
        ("business_travels", "", 8), ("business_travels", "", 12),
        ("purchases", "", 4),
    ])  # fmt: skip
    assert "4444DDD" not in set(rows["entity"])
    wastes = rows[rows["resource"] == "wastes"]
    assert set(wastes["cadence"]) == {"quarterly"}
    assert keyed(wastes[wastes["entity"] == "Madrid Warehouse"]) == [
        ("wastes", "Madrid Warehouse", m) for m in (1, 4, 7, 10)]  # fmt: skip
    assert rows.loc[rows["resource"] == "business_travels", "estimate_kg"].isna().all()
    view = warehouse.query(f"SELECT * FROM coverage_at(DATE '{AS_OF}', NULL) "
                           f"WHERE year(month) = {YEAR}")  # fmt: skip
    pd.testing.assert_frame_equal(view.reset_index(drop=True), rows)


@pytest.mark.parametrize("kind", KINDS)
def test_the_inventory_with_estimates_is_the_inventory_plus_the_estimates(
    tmp_path: Path, kind: str
) -> None:
    warehouse = build_gaps_warehouse(location(tmp_path, kind))
    rows = coverage_of(warehouse)

    plain = read_inventory(warehouse, year=YEAR)
    estimated = read_inventory(warehouse, year=YEAR, estimates=Estimates(as_of=AS_OF))

    added = (estimated.lines.set_index("line")["co2e_kg"]
             - plain.lines.set_index("line")["co2e_kg"]).dropna()  # fmt: skip
    assert added.to_dict() == pytest.approx(
        estimated.lines.set_index("line")["estimated_kg"].dropna().to_dict()
    )
    assert estimated.line("total_location")["estimated_kg"] == pytest.approx(
        rows["estimate_kg"].sum()
    )
    assert estimated.line("scope_1")["estimated_kg"] == pytest.approx(103.0 + 8 * 204.0)
    by_category = estimated.lines.set_index("line")["estimated_kg"]
    assert by_category["Category 5: Waste generated in operations"] == pytest.approx(40.0)
    assert by_category["Category 7: Employee commuting"] == pytest.approx(44.0)
    assert by_category["Category 6: Business travel"] == pytest.approx(1008.0)
    assert by_category["Category 1: Purchased goods and services"] == pytest.approx(200.0)
    pd.testing.assert_frame_equal(
        plain.lines.drop(columns="estimated_kg"),
        read_inventory(warehouse, year=YEAR).lines.drop(columns="estimated_kg"),
    )
    assert plain.lines["estimated_kg"].isna().all()
