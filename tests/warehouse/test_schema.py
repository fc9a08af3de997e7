"""The schema is created on the first writer and left alone (versioned) by later ones."""

from __future__ import annotations

import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse import SCHEMA_VERSION, Warehouse

TABLES = {
    "schema_version",
    "load_runs",
    "source_rows",
    "remote_ids",
    "pending_uploads",
    "rejects",
    "remote_records",
    "facilities",
    "resource_catalog",
    "view_version",
    "inventory_rules",
    "filed_inventories",
    "filed_inventory_records",
    "coverage_rules",
    "coverage_expectations",
    "filed_inventory_estimates",
}
VIEWS = {
    "emissions",
    "load_run_summary",
    "rejects_latest",
    "ghg_categories",
    "ghg_inventory",
    "ghg_inventory_records",
    "coverage",
    "coverage_records",
}


def _objects(warehouse: Warehouse) -> dict[str, set[str]]:
    found = warehouse.query("SELECT table_name, table_type FROM information_schema.tables")
    return {
        "tables": set(found.loc[found["table_type"] == "BASE TABLE", "table_name"]),
        "views": set(found.loc[found["table_type"] == "VIEW", "table_name"]),
    }


def test_the_first_writer_creates_every_table_and_view(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass

    assert _objects(warehouse) == {"tables": TABLES, "views": VIEWS}


def test_opening_writers_again_applies_each_migration_once_and_keeps_the_data(
    warehouse: Warehouse,
) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "a.xlsx", {})
    for _ in range(2):
        with warehouse.writer():
            pass

    # One row per migration applied, the newest being the version this code writes.
    versions = warehouse.query("SELECT version FROM schema_version ORDER BY version")
    assert versions["version"].tolist() == list(range(1, SCHEMA_VERSION + 1))
    assert warehouse.query("SELECT run_id FROM load_runs")["run_id"].tolist() == [run_id]


def test_query_before_any_load_says_there_is_no_warehouse(warehouse: Warehouse) -> None:
    with pytest.raises(WarehouseError, match="no warehouse here yet"):
        warehouse.query("SELECT 1")


def test_a_bad_query_raises_warehouse_error_with_one_line(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass

    with pytest.raises(WarehouseError) as raised:
        warehouse.query("SELECT nope FROM emissions")

    assert "\n" not in str(raised.value)
