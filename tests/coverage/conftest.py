"""A year of planted gaps (2025), landed through the warehouse's own writer as a load lands it:
every resource described with its inventory and coverage rules, entities (vehicles, facilities,
employees) as the service returns them, activity records with the fields the rules read.

Read as of 2026-01-05, every month of 2025 has ended; December's data is due on 10 January, so
December's gaps are not yet due and the others are overdue. The gaps, and each estimate:

- vehicle 1111AAA (co2e 100 + month) sent nothing for March: the mean of February and April, 103;
- vehicle 2222BBB (200 + month) stopped after April: May to December, April's 204 each;
- vehicle 3333CCC is archived after June (its last record): nothing after is expected;
- vehicle 4444DDD never sent anything: every month missing, no estimate;
- Madrid Warehouse (wastes of 10 x month) sent nothing for April: (30 + 50) / 2 = 40; Bilbao
  Office has no wastes (not expected); Old Depot is archived after February;
- ana@example.es commuted January-February (59 kg over 59 days) and April-December (550 kg
  over 275 days): March is missing, (28 + 60) / 2 = 44; "Bo Terminated" is terminated after
  June; cy@example.es has one period covering the year;
- business travels (1,000 + month) every month from January to November but August: August's
  (1,007 + 1,009) / 2 = 1,008 (December is after the last month with travels: no gap);
- purchases (50 x month) in February, March and May: April's (150 + 250) / 2 = 200.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pandas as pd

from emissions_etl.warehouse import Warehouse, WarehouseTarget, WarehouseWriter
from tests.built_warehouses import copy_of_built, describe_every_resource

YEAR = 2025
AS_OF = dt.date(2026, 1, 5)
ORGANIZATION = "org-gaps"
#: (resource, entity label, month) -> (estimate_kg, estimate_method), None without one.
GAPS: dict[tuple[str, str, int], tuple[float, str] | None] = {
    ("vehicle_consumptions", "1111AAA", 3): (103.0, "neighbours_mean"),
    **{("vehicle_consumptions", "2222BBB", m): (204.0, "previous_period") for m in range(5, 13)},
    **{("vehicle_consumptions", "4444DDD", m): None for m in range(1, 13)},
    ("wastes", "Madrid Warehouse", 4): (40.0, "neighbours_mean"),
    ("commuting_periods", "ana@example.es", 3): (44.0, "neighbours_mean"),
    ("business_travels", "", 8): (1008.0, "neighbours_mean"),
    ("purchases", "", 4): (200.0, "neighbours_mean"),
}
VEHICLES = [("veh-1", "1111AAA", "active"), ("veh-2", "2222BBB", "active"),
            ("veh-3", "3333CCC", "archived"), ("veh-4", "4444DDD", "active")]  # fmt: skip
FACILITIES = pd.DataFrame({
    "facility_id": ["fac-mad", "fac-bil", "fac-old"],
    "name": ["Madrid Warehouse", "Bilbao Office", "Old Depot"],
    "country": "ES", "type": "warehouse", "status": ["active", "active", "archived"],
})  # fmt: skip
EMPLOYEES = [("emp-1", "ana@example.es", "Ana", "active"),
             ("emp-2", None, "Bo Terminated", "terminated"),
             ("emp-3", "cy@example.es", "Cy", "active")]  # fmt: skip


def day(month: int, on: int) -> dt.date:
    return dt.date(YEAR, month, min(on, calendar.monthrange(YEAR, month)[1]))


def _records() -> dict[str, list[tuple[str, dt.date, float | None, dict[str, Any]]]]:
    """(remote id, activity date, co2e, record) by resource, as the module docstring says."""
    consumptions = [
        (f"c-{vehicle}-{m}", day(m, 20), float(base + m),
         {"vehicle_id": vehicle, "data": {"unit": "liters", "start_date": str(day(m, 5)),
                                          "end_date": str(day(m, 20))}})
        for vehicle, base, months in (("veh-1", 100, [m for m in range(1, 13) if m != 3]),
                                      ("veh-2", 200, range(1, 5)), ("veh-3", 300, range(1, 7)))
        for m in months
    ]  # fmt: skip
    wastes = [
        (f"w-{facility}-{m}", day(m, 31), 10.0 * m,
         {"facility_id": facility, "start_date": str(day(m, 1)), "end_date": str(day(m, 31))})
        for facility, months in (("fac-mad", [m for m in range(1, 13) if m != 4]),
                                 ("fac-old", [1, 2]))
        for m in months
    ]  # fmt: skip
    periods = [
        (f"p-{n}", end, co2e, {"employee_id": employee, "start_date": str(start),
                               "end_date": str(end), "commuting_type": "in_itinere"})
        for n, (employee, start, end, co2e) in enumerate([
            ("emp-1", day(1, 1), day(2, 28), 59.0), ("emp-1", day(4, 1), day(12, 31), 550.0),
            ("emp-2", day(1, 1), day(6, 30), 181.0), ("emp-3", day(1, 1), day(12, 31), 365.0),
        ])
    ]  # fmt: skip
    travels = [(f"t-{m}", day(m, 15), 1000.0 + m, {"transport_type": "train"})
               for m in range(1, 12) if m != 8]  # fmt: skip
    purchases = [(f"pu-{m}", day(m, 10), 50.0 * m, {"expense_type": "opex"}) for m in (2, 3, 5)]
    return {"vehicle_consumptions": consumptions, "wastes": wastes,
            "commuting_periods": periods, "business_travels": travels,
            "purchases": purchases}  # fmt: skip


def build_gaps_warehouse(location: Path | str) -> Warehouse:
    """The warehouse the module docstring describes, at ``location`` (a file, or ``ducklake:``):
    a file is a copy of the one written once per process."""
    if WarehouseTarget(str(location)).is_lake:
        return _gaps_warehouse(location)
    copy_of_built("coverage-gaps", _gaps_warehouse, location)
    return Warehouse(location, organization_id=ORGANIZATION)


def _gaps_warehouse(location: Path | str) -> Warehouse:
    warehouse = Warehouse(location, organization_id=ORGANIZATION)
    with warehouse.writer() as writer:
        describe_every_resource(writer)
        writer.records.land_facilities(FACILITIES)
        land(writer, "vehicles", [
            (remote_id, None, 0.0, {"license_plate": plate, "status": status, "ownership": "owned"})
            for remote_id, plate, status in VEHICLES
        ])  # fmt: skip
        land(writer, "employees", [
            (remote_id, None, 0.0, {"email": email, "name": name, "situation": situation})
            for remote_id, email, name, situation in EMPLOYEES
        ])  # fmt: skip
        for resource, records in _records().items():
            land(writer, resource, records)
    return warehouse


def land(
    writer: WarehouseWriter,
    resource: str,
    records: list[tuple[str, dt.date | None, float | None, dict[str, Any]]],
) -> None:
    """``records`` (remote id, activity date, co2e, record) of ``resource``, each with a source
    row of its own, as a load lands them."""
    keys = [f"row-{remote_id}" for remote_id, *_ in records]
    run_id = writer.runs.start_run(resource, f"{resource}.xlsx", {})
    writer.runs.land_source_rows(run_id, resource, pd.DataFrame({
        "source_key": keys, "source_hash": "h", "_file": f"{resource}.xlsx", "_sheet": "Data",
        "_row": range(2, 2 + len(keys)),
    }))  # fmt: skip
    writer.records.land_remote_records(resource, pd.DataFrame({
        "remote_id": [remote_id for remote_id, *_ in records],
        "source_key": keys,
        "activity_date": [when for _, when, _, _ in records],
        "facility_id": [record.get("facility_id") for *_, record in records],
        "co2e_kg": pd.array([co2e for _, _, co2e, _ in records], dtype="Float64"),
        "status": "active",
        "remote_updated_at": pd.Timestamp("2026-01-02T10:00:00Z"),
        "payload": [json.dumps({"id": remote_id, **record}) for remote_id, *_, record in records],
    }))  # fmt: skip
    writer.runs.finish_run(run_id, outcome="succeeded", counts={"rows_loaded": len(records)})
