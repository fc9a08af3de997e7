"""``read_inventory`` on a warehouse whose figures are known (see conftest): the ESRS lines, the
year, the approach, months, facilities, data quality, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.errors import ConfigurationError, InputError
from emissions_etl.inventory import LINE_COLUMNS, read_inventory
from emissions_etl.warehouse import Warehouse


def kg_by_kind(lines: pd.DataFrame) -> dict[str, float | None]:
    return {
        row["line"]: None if pd.isna(row["co2e_kg"]) else round(float(row["co2e_kg"]), 3)
        for row in lines.to_dict("records")
    }


def test_the_lines_follow_esrs_e1_6_with_the_categories_and_what_is_outside_the_total(
    inventory_warehouse: Warehouse,
) -> None:
    inventory = read_inventory(inventory_warehouse, year=2026)

    assert tuple(inventory.lines.columns) == LINE_COLUMNS
    own_fleet = "Not in the total: own fleet leg: its fuel is counted in logistics_recharges"
    assert kg_by_kind(inventory.lines) == {
        "Gross Scope 1 GHG emissions": 300.0,
        "Gross location-based Scope 2 GHG emissions": 50.0,
        "Gross market-based Scope 2 GHG emissions": None,
        "Gross Scope 3 GHG emissions": 6_530.0,
        "Category 1: Purchased goods and services": 2_000.0,
        "Category 2: Capital goods": 3_000.0,
        "Category 4: Upstream transportation and distribution": 30.0,
        "Category 5: Waste generated in operations": 1_500.0,
        "Total GHG emissions (location-based)": 6_880.0,
        "Total GHG emissions (market-based)": None,
        own_fleet: 70.0,
        "co2e of every activity record in the warehouse": 6_950.0,
    }
    assert list(inventory.lines["kind"])[:4] == [
        "scope_1", "scope_2_location", "scope_2_market", "scope_3"
    ]  # fmt: skip


def test_the_activity_line_is_every_activity_record_and_never_an_aggregate(
    inventory_warehouse: Warehouse,
) -> None:
    inventory = read_inventory(inventory_warehouse)
    activity = inventory_warehouse.query(
        "SELECT sum(co2e_kg) AS kg, count(*) AS records FROM emissions WHERE NOT is_aggregate"
    ).iloc[0]

    line = inventory.line("activity")
    assert (float(line["co2e_kg"]), int(line["records"])) == (activity["kg"], activity["records"])
    assert float(line["co2e_kg"]) == 6_950.0 + 400.0 + 10.0  # every year, the undated travel too


def test_financial_control_moves_the_rented_vans_fuel_to_category_8_and_keeps_the_total(
    inventory_warehouse: Warehouse,
) -> None:
    inventory = read_inventory(inventory_warehouse, approach="financial_control", year=2026)

    lines = kg_by_kind(inventory.lines)
    assert lines["Gross Scope 1 GHG emissions"] == 100.0
    assert lines["Category 8: Upstream leased assets"] == 200.0
    assert lines["Total GHG emissions (location-based)"] == 6_880.0
    assert inventory.approach == "financial_control"


def test_a_year_leaves_out_other_years_and_undated_records_and_says_how_many(
    inventory_warehouse: Warehouse,
) -> None:
    every_year = read_inventory(inventory_warehouse)
    this_year = read_inventory(inventory_warehouse, year=2026)
    last_year = read_inventory(inventory_warehouse, year=2025)

    assert float(last_year.line("activity")["co2e_kg"]) == 400.0
    assert float(this_year.line("activity")["co2e_kg"]) == 6_950.0
    assert kg_by_kind(every_year.lines)["Category 6: Business travel"] == 10.0
    assert this_year.undated_records == 1


def test_months_and_facilities_add_up_to_the_activity_records(
    inventory_warehouse: Warehouse,
) -> None:
    inventory = read_inventory(inventory_warehouse, year=2026)

    months = inventory.by_month.groupby("month")["co2e_kg"].sum()
    assert months.to_dict() == {
        pd.Timestamp("2026-01-01"): 1_100.0,
        pd.Timestamp("2026-02-01"): 700.0,
        pd.Timestamp("2026-03-01"): 5_150.0,
    }
    assert inventory.by_facility["co2e_kg"].sum() == 6_950.0
    facilities = inventory.by_facility.dropna(subset=["facility"])
    assert dict(zip(facilities["facility"], facilities["co2e_kg"], strict=True)) == {
        "Barcelona Plant": 500.0,
        "Madrid Warehouse": 1_000.0,
    }


def test_data_quality_counts_records_by_line_and_rejected_rows_by_resource(
    inventory_warehouse: Warehouse,
) -> None:
    quality = read_inventory(inventory_warehouse, year=2026).quality

    wastes = quality[quality["resource"] == "wastes"].iloc[0]
    assert (wastes["scope"], wastes["category"]) == (3, 5)
    assert (wastes["records"], wastes["records_calculated"]) == (4, 2)
    assert (wastes["records_pending"], wastes["records_error"], wastes["rows_rejected"]) == (
        1, 1, 2
    )  # fmt: skip
    assert "employees" not in set(quality["resource"])  # an aggregate's rows: no category's


def test_an_inventory_is_one_organizations(two_organizations: Warehouse) -> None:
    org_a = read_inventory(two_organizations, organization="org-a", year=2026)
    org_b = read_inventory(two_organizations, organization="org-b", year=2026)

    assert (org_a.organization, float(org_a.line("activity")["co2e_kg"])) == ("org-a", 6_950.0)
    assert (org_b.organization, float(org_b.line("activity")["co2e_kg"])) == ("org-b", 260.0)
    assert org_b.quality["rows_rejected"].sum() == 0  # org-a's rejected rows are org-a's
    with pytest.raises(ConfigurationError, match=r"holds 2 organizations \(org-a, org-b\)"):
        read_inventory(two_organizations)


def test_an_organization_the_warehouse_holds_no_record_of_is_refused(
    inventory_warehouse: Warehouse,
) -> None:
    with pytest.raises(ConfigurationError, match="holds no record of it"):
        read_inventory(inventory_warehouse, organization="org-1")


def test_a_warehouse_without_the_inventory_views_is_unusable_input(tmp_path: Path) -> None:
    import duckdb

    path = tmp_path / "older.duckdb"
    duckdb.connect(str(path)).execute("CREATE TABLE load_runs (run_id VARCHAR)").close()

    with pytest.raises(InputError, match="no GHG inventory in this warehouse yet"):
        read_inventory(Warehouse(path))


def test_an_unknown_approach_is_refused_before_reading(inventory_warehouse: Warehouse) -> None:
    with pytest.raises(ValueError, match="use one of operational_control, financial_control"):
        read_inventory(inventory_warehouse, approach="equity")
