"""What each resource declares of its coverage, walked over the registry, and what a load tells
the warehouse of it: its own rule, and that of the resource expected of its records."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from emissions_etl.coverage import CoverageRequest, read_coverage
from emissions_etl.loading.preparation import describe
from emissions_etl.resources import RESOURCES, resource_spec
from emissions_etl.warehouse import Warehouse
from tests.coverage.conftest import land


@pytest.mark.parametrize("name", list(RESOURCES))
def test_every_activity_resource_has_a_coverage_rule_and_no_aggregate_has_one(name: str) -> None:
    spec = RESOURCES[name]

    assert (spec.coverage is None) == spec.readback.is_aggregate
    entity = spec.coverage.entity if spec.coverage is not None else None
    if entity is not None:
        assert RESOURCES[entity.resource].readback.is_aggregate  # vehicles, facilities, employees


def test_vehicles_loaded_before_any_fuel_file_are_each_expected_every_month(
    tmp_path: Path,
) -> None:
    warehouse = Warehouse(tmp_path / "w.duckdb")
    with warehouse.writer() as writer:
        describe(writer, resource_spec("vehicles"))  # what a load of the fleet file does first
        land(writer, "vehicles", [("veh-1", None, 0.0, {"license_plate": "1111AAA"})])
        land(writer, "purchases", [("pu-1", dt.date(2025, 1, 10), 5.0, {})])  # the first year

    rows = read_coverage(warehouse, CoverageRequest(year=2025, as_of=dt.date(2025, 4, 1))).rows
    rules = warehouse.query("SELECT resource FROM coverage_rules ORDER BY 1")["resource"]

    assert rules.tolist() == ["vehicle_consumptions"]
    assert rows[["resource", "entity", "status"]].values.tolist() == [
        ["vehicle_consumptions", "1111AAA", "missing"]] * 3  # fmt: skip
