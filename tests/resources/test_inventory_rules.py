"""Each resource's GHG inventory rule, on records of each kind as the service returns them, under
each consolidation approach: the rules are declared to a real warehouse as a load declares them,
and read back from ``ghg_inventory_records_under``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import APPROACHES, Warehouse, WarehouseWriter

OWN_FLEET = "own fleet leg: its fuel is counted in logistics_recharges"

#: The fleet: (remote id, ownership, fuel as the fleet file names it).
VEHICLES = [
    ("veh-owned-diesel", "owned", "diesel"),
    ("veh-rented-diesel", "rented", "diesel"),
    ("veh-owned-ev", "owned", "electricity"),
    ("veh-rented-ev", "rented", "electricity"),
]

#: (resource, remote id, the record's fields) -> what each approach makes of it:
#: (scope, category) or the reason it has none. One approach given means every approach.
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("wastes", "waste", {"low_code": "200101", "rd_code": "R3"}, {"*": (3, 5)}),
    ("business_travels", "flight", {"transport_type": "aircraft"}, {"*": (3, 6)}),
    ("business_travels", "train", {"transport_type": "train"}, {"*": (3, 6)}),
    ("commuting_periods", "commute", {"commuting_type": "in_itinere"}, {"*": (3, 7)}),
    ("commuting_periods", "during-work", {"commuting_type": "in_labore"}, {"*": (3, 6)}),
    ("purchases", "opex", {"expense_type": "opex", "purchase_type": "spend_based"}, {"*": (3, 1)}),
    ("purchases", "no-expense-type", {"expense_type": None}, {"*": (3, 1)}),
    ("purchases", "capex", {"expense_type": "capex", "purchase_type": "spend_based"},
     {"*": (3, 2)}),
    ("purchases", "legacy-capital", {"purchase_type": "capital_goods"}, {"*": (3, 2)}),
    ("logistics_requests", "subcontracted", {"subcontractor": True, "client": "Norte"},
     {"*": (3, 4)}),
    ("logistics_requests", "subcontracted-no-client", {"subcontractor": True}, {"*": (3, 4)}),
    ("logistics_requests", "own-fleet", {"subcontractor": False}, {"*": OWN_FLEET}),
    ("logistics_recharges", "diesel", {"fuel_name": "diesel"}, {"*": (1, None)}),
    ("logistics_recharges", "electricity", {"fuel_name": "electricity"}, {"*": (2, None)}),
    ("logistics_recharges", "no-fuel", {"fuel_id": "f-1"},
     {"*": "the record names no fuel: fuel (Scope 1) or electricity (Scope 2) is unknown"}),
    # As a bulk write lands them: the record sent (a fuel id), the file's row saying the fuel.
    ("logistics_recharges", "file-says-electricidad", {"fuel_id": "f-2"}, {"*": (2, None)}),
    ("logistics_recharges", "file-says-gasoleo", {"fuel_id": "f-3"}, {"*": (1, None)}),
    ("vehicle_consumptions", "owned-diesel",
     {"vehicle_id": "veh-owned-diesel", "data": {"unit": "liters"}}, {"*": (1, None)}),
    ("vehicle_consumptions", "owned-diesel-in-kwh",
     {"vehicle_id": "veh-owned-diesel", "data": {"unit": "kWh"}}, {"*": (1, None)}),
    ("vehicle_consumptions", "owned-ev", {"vehicle_id": "veh-owned-ev", "data": {"unit": "kWh"}},
     {"*": (2, None)}),
    ("vehicle_consumptions", "rented-diesel",
     {"vehicle_id": "veh-rented-diesel", "data": {"unit": "liters"}},
     {"operational_control": (1, None), "financial_control": (3, 8), "equity_share": (3, 8)}),
    ("vehicle_consumptions", "rented-ev", {"vehicle_id": "veh-rented-ev", "data": {"unit": "kWh"}},
     {"operational_control": (2, None), "financial_control": (3, 8), "equity_share": (3, 8)}),
    ("vehicle_consumptions", "unknown-vehicle-charge",
     {"vehicle_id": "veh-elsewhere", "data": {"unit": "kWh"}},
     {"operational_control": (2, None),
      "financial_control": "the vehicle is not in the warehouse: whether it is leased "
                           "(category 8 under financial_control) is unknown",
      "equity_share": "the vehicle is not in the warehouse: whether it is leased "
                      "(category 8 under equity_share) is unknown"}),
]  # fmt: skip


#: The source rows of some cases (remote id -> the file's columns).
SOURCE_ROWS: dict[str, dict[str, Any]] = {
    "file-says-electricidad": {"fuel": "  Electricidad "},
    "file-says-gasoleo": {"fuel": "Gasóleo   A"},
}


def _frame(rows: list[tuple[str, dict[str, Any]]], co2e_kg: float = 10.0) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "remote_id": [remote_id for remote_id, _ in rows],
            "source_key": [f"row-{remote_id}" for remote_id, _ in rows],
            "activity_date": dt.date(2026, 2, 28),
            "co2e_kg": co2e_kg,
            "status": "active",
            "facility_id": None,
            "remote_updated_at": pd.Timestamp("2026-03-01T08:00:00Z"),
            "payload": [json.dumps({"id": remote_id, **fields}) for remote_id, fields in rows],
        }
    )


def _land_fleet(writer: WarehouseWriter) -> None:
    """The vehicles as a load lands them: the service's record and the fleet file's row."""
    run_id = writer.runs.start_run("vehicles", "flota.xlsx", {})
    writer.runs.land_source_rows(
        run_id,
        "vehicles",
        pd.DataFrame(
            {
                "source_key": [f"row-{remote_id}" for remote_id, _, _ in VEHICLES],
                "source_hash": "h",
                "_file": "flota.xlsx",
                "_sheet": "Flota",
                "_row": range(2, 2 + len(VEHICLES)),
                "vehicle_fuel": [fuel for _, _, fuel in VEHICLES],
            }
        ),
    )
    writer.records.land_remote_records(
        "vehicles",
        _frame([(remote_id, {"ownership": owner}) for remote_id, owner, _ in VEHICLES], 99.0),
    )


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """Every case's record, with every resource described and its rule declared as a load does."""
    warehouse = Warehouse(Path(tmp_path_factory.mktemp("rules")) / "warehouse.duckdb")
    with warehouse.writer() as writer:
        for spec in RESOURCES.values():
            writer.catalog.describe_resource(
                spec.name, is_aggregate=spec.readback.is_aggregate, description=spec.description
            )
            writer.inventory.declare_inventory_rule(spec.name, spec.inventory)
        _land_fleet(writer)
        for resource, remote_id, fields, _ in CASES:
            writer.records.land_remote_records(resource, _frame([(remote_id, fields)]))
            if remote_id in SOURCE_ROWS:
                run_id = writer.runs.start_run(resource, "file.xlsx", {})
                writer.runs.land_source_rows(
                    run_id,
                    resource,
                    pd.DataFrame([{"source_key": f"row-{remote_id}", "source_hash": "h",
                                   "_file": "file.xlsx", "_sheet": "Data", "_row": 2,
                                   **SOURCE_ROWS[remote_id]}]),
                )  # fmt: skip
    return warehouse


def _outcome(row: pd.Series) -> tuple[int, int | None] | str:
    if pd.isna(row["scope"]):
        return str(row["unclassified_reason"])
    return int(row["scope"]), None if pd.isna(row["category"]) else int(row["category"])


@pytest.mark.parametrize("approach", APPROACHES)
@pytest.mark.parametrize(
    ("resource", "remote_id", "expected"),
    [(resource, remote_id, expected) for resource, remote_id, _, expected in CASES],
    ids=[f"{resource}-{remote_id}" for resource, remote_id, _, _ in CASES],
)
def test_the_rule_classifies_the_record(
    warehouse: Warehouse, resource: str, remote_id: str, expected: dict[str, Any], approach: str
) -> None:
    [row] = warehouse.query(
        "SELECT * FROM ghg_inventory_records_under(?) WHERE resource = ? AND remote_id = ?",
        [approach, resource, remote_id],
    ).to_dict("records")

    assert _outcome(pd.Series(row)) == expected.get(approach, expected.get("*"))
    assert row["consolidation_approach"] == approach


@pytest.mark.parametrize("approach", APPROACHES)
def test_under_every_approach_the_inventory_holds_every_activity_record_once(
    warehouse: Warehouse, approach: str
) -> None:
    totals = warehouse.query(
        "SELECT sum(co2e_kg) AS kg, sum(records) AS records FROM ghg_inventory_under(?)",
        [approach],
    ).iloc[0]

    assert totals["records"] == len(CASES)
    assert totals["kg"] == pytest.approx(10.0 * len(CASES))  # the vehicles' 99 kg never


def test_every_activity_resource_declares_a_rule_and_no_aggregate_does() -> None:
    declared = {name: spec.inventory is not None for name, spec in RESOURCES.items()}

    assert declared == {name: not spec.readback.is_aggregate for name, spec in RESOURCES.items()}


def test_every_activity_resource_has_a_case_here() -> None:
    covered = {resource for resource, _, _, _ in CASES}

    assert covered == {name for name, spec in RESOURCES.items() if spec.inventory is not None}
