"""The example queries of the warehouse README run against a loaded warehouse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import emissions_etl.warehouse
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse

from .conftest import mapping_frame, rejects_frame, remote_frame, source_frame

README = Path(emissions_etl.warehouse.__file__).with_name("README.md")
EXAMPLES = re.findall(r"```sql\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def loaded(warehouse: Warehouse) -> Warehouse:
    with warehouse.writer() as writer:
        writer.inventory.declare_inventory_rule("wastes", resource_spec("wastes").inventory)
        writer.coverage.declare_coverage_rule("wastes", resource_spec("wastes").coverage)
        run_id = writer.runs.start_run("wastes", "wastes.xlsx", {})
        writer.runs.land_source_rows(run_id, "wastes", source_frame(["r1", "r2"]))
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1", "r2": "id-2"}))
        writer.records.land_remote_records("wastes", remote_frame({"id-1": "r1"}))
        failed = remote_frame({"id-2": "r2"}).assign(
            status="error", co2e_kg=None, payload='{"error_code": "NO_FACTOR"}'
        )
        writer.records.land_remote_records("wastes", failed)
        writer.runs.land_rejects(run_id, "wastes", rejects_frame([9]))
        writer.runs.finish_run(run_id, outcome="partial", counts={"rows_read": 3, "rows_loaded": 2})
    return warehouse


def test_the_readme_has_example_queries() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("sql", EXAMPLES, ids=[f"example-{n}" for n in range(len(EXAMPLES))])
def test_each_readme_example_runs_and_returns_rows(loaded: Warehouse, sql: str) -> None:
    assert not loaded.query(sql).empty


def test_the_inventory_example_gives_the_wastes_line(loaded: Warehouse) -> None:
    [sql] = [example for example in EXAMPLES if "ghg_inventory" in example]

    lines = loaded.query(sql)

    assert lines[["scope", "category", "records"]].values.tolist() == [[3, 5, 2]]
    assert lines["category_name"].tolist() == ["Waste generated in operations"]
