"""A warehouse whose inventory is known by heart, landed through the warehouse's own writer as
a load lands it: every resource described and its rule declared, records as the service returns
them, aggregates that must never count, rejected rows, a record of another year, an undated one.

Under operational control, 2026 (kg): Scope 1 300 (two vans' diesel), Scope 2 50 (the fleet's
electricity), Scope 3 6,530 (cat 1 2,000, cat 2 3,000, cat 4 30, cat 5 1,500); total 6,880; an
own-fleet leg of 70 is not in the total; the activity records' co2e is 6,950. Under financial
control the rented van's 200 move from Scope 1 to category 8. 2025 holds one waste of 400; one
business travel of 10 has no date.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import Warehouse, WarehouseTarget, WarehouseWriter
from tests.built_warehouses import copy_of_built

#: (resource, remote id, activity date, facility id, co2e kg, status, the record's fields)
RECORDS: list[tuple[str, str, dt.date | None, str | None, float | None, str, dict[str, Any]]] = [
    ("vehicles", "van-owned", dt.date(2026, 3, 31), None, 9_999.0, "active",
     {"ownership": "owned"}),
    ("vehicles", "van-rented", dt.date(2026, 3, 31), None, 9_999.0, "active",
     {"ownership": "rented"}),
    ("facilities", "fac-mad", None, "fac-mad", 9_999.0, "active", {}),
    ("wastes", "w-jan", dt.date(2026, 1, 31), "fac-mad", 1_000.0, "active", {}),
    ("wastes", "w-feb", dt.date(2026, 2, 28), "fac-bcn", 500.0, "active", {}),
    ("wastes", "w-error", dt.date(2026, 2, 28), "fac-bcn", None, "error", {}),
    ("wastes", "w-loading", dt.date(2026, 3, 31), "fac-bcn", None, "loading", {}),
    ("wastes", "w-2025", dt.date(2025, 12, 31), "fac-mad", 400.0, "active", {}),
    ("purchases", "p-opex", dt.date(2026, 3, 10), None, 2_000.0, "active",
     {"expense_type": "opex"}),
    ("purchases", "p-capex", dt.date(2026, 3, 12), None, 3_000.0, "active",
     {"expense_type": "capex"}),
    ("vehicle_consumptions", "c-owned", dt.date(2026, 1, 15), None, 100.0, "active",
     {"vehicle_id": "van-owned", "data": {"unit": "liters"}}),
    ("vehicle_consumptions", "c-rented", dt.date(2026, 2, 15), None, 200.0, "active",
     {"vehicle_id": "van-rented", "data": {"unit": "liters"}}),
    ("logistics_recharges", "r-ev", dt.date(2026, 3, 3), None, 50.0, "active",
     {"fuel_name": "electricity"}),
    ("logistics_requests", "leg-own", dt.date(2026, 3, 5), None, 70.0, "active",
     {"subcontractor": False}),
    ("logistics_requests", "leg-sub", dt.date(2026, 3, 6), None, 30.0, "active",
     {"subcontractor": True}),
    ("business_travels", "t-undated", None, None, 10.0, "active", {"transport_type": "train"}),
]  # fmt: skip

FACILITIES = pd.DataFrame(
    {
        "facility_id": ["fac-mad", "fac-bcn"],
        "name": ["Madrid Warehouse", "Barcelona Plant"],
        "country": "ES",
        "type": "warehouse",
        "status": "active",
    }
)


def build_inventory_warehouse(path: Path | str, *, organization_id: str | None = None) -> Warehouse:
    """The warehouse the module docstring describes (a file, or a ``ducklake:`` location), its
    rows of ``organization_id`` (None: a warehouse written before organizations were recorded)."""
    return _copy_of_built(_inventory_warehouse, path, organization_id)


def _inventory_warehouse(path: Path | str, organization_id: str | None) -> Warehouse:
    warehouse = Warehouse(path, organization_id=organization_id)
    with warehouse.writer() as writer:
        writer.records.land_facilities(FACILITIES)
        for spec in RESOURCES.values():
            writer.catalog.describe_resource(
                spec.name, is_aggregate=spec.readback.is_aggregate, description=spec.description
            )
            writer.inventory.declare_inventory_rule(spec.name, spec.inventory)
        for resource in dict.fromkeys(record[0] for record in RECORDS):
            _land(writer, resource, [r for r in RECORDS if r[0] == resource])
        _reject(writer, "wastes", "wastes_2026.xlsx", rows=[7, 9])
        _reject(writer, "employees", "staff.xlsx", rows=[2])  # an aggregate's: not a category's
    return warehouse


def _land(writer: WarehouseWriter, resource: str, records: list[tuple[Any, ...]]) -> None:
    keys = [f"row-{record[1]}" for record in records]
    run_id = writer.runs.start_run(resource, f"{resource}.xlsx", {})
    source = pd.DataFrame(
        {"source_key": keys, "source_hash": "h", "_file": f"{resource}.xlsx", "_sheet": "Data",
         "_row": range(2, 2 + len(keys))}
    )  # fmt: skip
    if resource == "vehicles":
        source["vehicle_fuel"] = "diesel"
    writer.runs.land_source_rows(run_id, resource, source)
    writer.records.land_remote_records(
        resource,
        pd.DataFrame(
            {
                "remote_id": [record[1] for record in records],
                "source_key": keys,
                "activity_date": [record[2] for record in records],
                "facility_id": [record[3] for record in records],
                "co2e_kg": pd.array([record[4] for record in records], dtype="Float64"),
                "status": [record[5] for record in records],
                "remote_updated_at": pd.Timestamp("2026-04-01T10:00:00Z"),
                "payload": [json.dumps({"id": record[1], **record[6]}) for record in records],
            }
        ),
    )
    writer.runs.finish_run(run_id, outcome="succeeded", counts={"rows_loaded": len(records)})


def _reject(writer: WarehouseWriter, resource: str, file: str, *, rows: list[int]) -> None:
    run_id = writer.runs.start_run(resource, file, {})
    writer.runs.land_rejects(
        run_id,
        resource,
        pd.DataFrame(
            {"file": file, "sheet": "Data", "row": rows, "column": "Quantity", "value": "-1",
             "code": "NOT_POSITIVE", "message": "Must be greater than 0."}
        ),
    )  # fmt: skip
    writer.runs.finish_run(run_id, outcome="partial", counts={"rows_rejected": len(rows)})


def _copy_of_built(
    build: Callable[[Path | str, str | None], Warehouse],
    path: Path | str,
    organization_id: str | None,
) -> Warehouse:
    """A DuckDB file is a copy of the one ``build`` wrote once per process (0.4-0.5 s of CPU,
    some eighty tests ask for one); a lake is written where it is."""
    if WarehouseTarget(str(path)).is_lake:
        return build(path, organization_id)
    name = f"{build.__name__}-{organization_id}"
    copy_of_built(name, lambda built: build(built, organization_id), path)
    return Warehouse(path, organization_id=organization_id)


@pytest.fixture
def inventory_warehouse(tmp_path: Path) -> Warehouse:
    return build_inventory_warehouse(tmp_path / "warehouse.duckdb")


@pytest.fixture
def two_organizations(tmp_path: Path) -> Warehouse:
    """``org-a`` holds the warehouse above; ``org-b`` one waste of 260 kg in March 2026 (the
    same remote id as one of org-a's: ids are unique within an organization only)."""
    build_inventory_warehouse(tmp_path / "shared.duckdb", organization_id="org-a")
    other = Warehouse(tmp_path / "shared.duckdb", organization_id="org-b")
    with other.writer() as writer:
        _land(writer, "wastes", [("wastes", "w-jan", dt.date(2026, 3, 31), None, 260.0,
                                  "active", {})])  # fmt: skip
    return Warehouse(tmp_path / "shared.duckdb")


#: 2025 beside the warehouse above: a van's diesel of 100 (Scope 1), a purchase of 1,000
#: (category 1) and a train trip of 25 (category 6, a line 2026 does not have), with the waste of
#: 400 it holds already: Scope 1 100, Scope 3 1,425, total 1,525. Nothing in 2024.
EARLIER: list[tuple[str, str, dt.date | None, str | None, float | None, str, dict[str, Any]]] = [
    ("vehicle_consumptions", "c-2025", dt.date(2025, 6, 15), None, 100.0, "active",
     {"vehicle_id": "van-owned", "data": {"unit": "liters"}}),
    ("purchases", "p-2025", dt.date(2025, 5, 10), None, 1_000.0, "active",
     {"expense_type": "opex"}),
    ("business_travels", "t-2025", dt.date(2025, 9, 1), None, 25.0, "active",
     {"transport_type": "train"}),
]  # fmt: skip


def build_two_years_warehouse(path: Path | str, *, organization_id: str | None = None) -> Warehouse:
    """The warehouse above with ``EARLIER``'s records of 2025 too."""
    return _copy_of_built(_two_years_warehouse, path, organization_id)


def _two_years_warehouse(path: Path | str, organization_id: str | None) -> Warehouse:
    warehouse = _inventory_warehouse(path, organization_id)
    with warehouse.writer() as writer:
        for record in EARLIER:
            _land(writer, record[0], [record])
    return warehouse


@pytest.fixture
def two_years(tmp_path: Path) -> Warehouse:
    return build_two_years_warehouse(tmp_path / "warehouse.duckdb")


def change_everything(warehouse: Warehouse) -> None:
    """What later loads do: a record added to 2026, one removed, one recalculated, one of 2025
    removed (a year beside it), the rules declared again."""
    with warehouse.writer() as writer:
        _land(writer, "wastes", [("wastes", "w-late", dt.date(2026, 4, 30), "fac-mad", 900.0,
                                  "active", {})])  # fmt: skip
        _land(writer, "purchases", [("purchases", "p-opex", dt.date(2026, 3, 10), None, 2_500.0,
                                     "active", {"expense_type": "opex"})])  # fmt: skip
        writer.records.remove_remote_records("wastes", ["w-feb"])
        writer.records.remove_remote_records("purchases", ["p-2025"])
