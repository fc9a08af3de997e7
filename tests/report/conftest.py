"""A warehouse with several resources, months, facilities, runs and rejects, landed through the
warehouse's own writer (no pipeline, no service), for the report tests."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import Warehouse, WarehouseWriter
from tests import built_warehouses

#: A file name a person could really give, with every character HTML cares about.
AWKWARD_FILE = "inbox/fleet <Q1> & \"fuel\" 'v2'.xlsx"

#: Resources whose co2e is the sum of other records' (as the pipeline describes them).
AGGREGATES = ("facilities", "logistic_hubs", "vehicles", "employees")

FACILITIES = pd.DataFrame(
    {
        "facility_id": ["fac-mad", "fac-bcn", "fac-vlc", "fac-svq"],
        "name": ["Madrid Warehouse", "Barcelona Plant", "Valencia Office", "Sevilla <Hub>"],
        "country": "ES",
        "type": ["warehouse", "factory", "office", "warehouse"],
        "status": "active",
    }
)


@dataclass(frozen=True)
class Record:
    """One source row and the record the service made of it."""

    key: str
    day: dt.date | None
    facility_id: str | None
    co2e_kg: float | None
    status: str = "active"


@dataclass(frozen=True)
class Reject:
    row: int
    column: str
    value: str
    code: str
    message: str


@dataclass(frozen=True)
class Run:
    """One load run of one file: what it landed and what it rejected."""

    resource: str
    file: str
    outcome: str
    records: list[Record] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    error: str | None = None


def _monthly(prefix: str, facility: str, base: float, months: range) -> list[Record]:
    return [
        Record(f"{prefix}-{m:02d}", dt.date(2026, m, 28), facility, base * m + 0.25) for m in months
    ]


SAMPLE_RUNS: list[Run] = [
    Run(
        "wastes",
        "inbox/wastes_2026_h1.xlsx",
        "partial",
        records=[
            *_monthly("w-mad", "fac-mad", 120.5, range(1, 7)),
            *_monthly("w-bcn", "fac-bcn", 310.0, range(1, 7)),
            Record("w-err", dt.date(2026, 3, 31), "fac-vlc", None, status="error"),
            Record("w-load", dt.date(2026, 6, 30), "fac-vlc", None, status="loading"),
        ],
        rejects=[
            Reject(
                7, "Facility", "Madrid Wharehouse", "UNKNOWN_FACILITY", "No facility of that name."
            ),
            Reject(9, "Base quantity", "-3", "NOT_POSITIVE", "Must be greater than 0."),
            Reject(9, "Unit", "kgs", "INVALID_UNIT", "Use one of: kg, t."),
        ],
    ),
    Run(
        "wastes",
        "inbox/erp_export_wastes.csv",
        "succeeded",
        records=_monthly("w-vlc", "fac-vlc", 45.0, range(2, 5)),
    ),
    Run(
        "vehicle_consumptions",
        AWKWARD_FILE,
        "partial",
        records=_monthly("v-svq", "fac-svq", 900.0, range(1, 4)),
        rejects=[
            Reject(4, "Fuel <type>", 'diesel & "bio"', "UNKNOWN_FUEL", "<b>No</b> such fuel."),
        ],
    ),
    Run(
        "business_travels",
        "inbox/travel.csv",
        "succeeded",
        records=[
            Record("t-1", dt.date(2026, 2, 10), None, 512.75),
            Record("t-2", dt.date(2026, 5, 3), None, 1204.0),
            Record("t-3", None, None, 33.0),
        ],
    ),
    Run(
        "vehicles",
        "inbox/vehicles.xlsx",
        "succeeded",
        # A vehicle's co2e is the sum of its consumptions': never added to the totals.
        records=[Record("veh-1", dt.date(2026, 3, 31), "fac-svq", 5400.75)],
    ),
    Run("purchases", "inbox/purchases.xlsx", "failed", error="ApiError: 503 from the service"),
    Run(
        "employees",
        "inbox/staff.csv",
        "rejected",
        rejects=[
            Reject(2, "Email", "nobody", "INVALID_EMAIL", "Not an email address."),
        ],
    ),
    Run("business_travels", "inbox/travel_q3.csv", "interrupted"),
    Run(
        "purchases",
        "inbox/purchases.xlsx",
        "succeeded",
        records=_monthly("p-mad", "fac-mad", 2000.0, range(3, 7)),
    ),
    Run(
        "wastes",
        "inbox/new_sites.xlsx",
        "dry_run",
        rejects=[
            Reject(3, "End date", "2026-01-01", "DATE_ORDER", "End date is before start date."),
            Reject(5, "Facility", "", "REQUIRED", "Facility is required."),
        ],
    ),
]


def land_runs(warehouse: Warehouse, runs: list[Run], *, facilities: bool = True) -> Warehouse:
    """Land each run as the pipeline would: run row, source rows, mapping, records, rejects."""
    with warehouse.writer() as writer:
        if facilities:
            writer.records.land_facilities(FACILITIES)
        for resource in AGGREGATES:
            writer.catalog.describe_resource(
                resource, is_aggregate=True, description="sum of others"
            )
        for spec in RESOURCES.values():  # as each resource's first load declares it
            writer.inventory.declare_inventory_rule(spec.name, spec.inventory)
        for run in runs:
            run_id = writer.runs.start_run(run.resource, run.file, {"strict": False})
            if run.records:
                _land_records(writer, run_id, run)
            if run.rejects:
                writer.runs.land_rejects(run_id, run.resource, _rejects_frame(run))
            co2e = sum(r.co2e_kg or 0.0 for r in run.records)
            writer.runs.finish_run(
                run_id,
                outcome=run.outcome,
                counts={
                    "rows_read": len(run.records) + len({r.row for r in run.rejects}),
                    "rows_rejected": len({r.row for r in run.rejects}),
                    "rows_sent": len(run.records),
                    "rows_loaded": len(run.records),
                },
                co2e_kg=co2e if run.records else None,
                error=run.error,
            )
    return warehouse


def _land_records(writer: WarehouseWriter, run_id: str, run: Run) -> None:
    keys = [r.key for r in run.records]
    writer.runs.land_source_rows(
        run_id,
        run.resource,
        pd.DataFrame(
            {
                "source_key": keys,
                "source_hash": [f"{k}-v1" for k in keys],
                "_file": run.file,
                "_sheet": "Data" if run.file.endswith(".xlsx") else None,
                "_row": range(2, 2 + len(keys)),
                "facility": [r.facility_id for r in run.records],
            }
        ),
    )
    writer.mappings.upsert_mapping(
        run.resource,
        pd.DataFrame(
            {
                "source_key": keys,
                "remote_id": [f"id-{k}" for k in keys],
                "source_hash": [f"{k}-v1" for k in keys],
                "ingest_job_id": "job-1",
            }
        ),
    )
    writer.records.land_remote_records(
        run.resource,
        pd.DataFrame(
            {
                "remote_id": [f"id-{k}" for k in keys],
                "source_key": keys,
                "activity_date": [r.day for r in run.records],
                "co2e_kg": pd.array([r.co2e_kg for r in run.records], dtype="Float64"),
                "status": [r.status for r in run.records],
                "facility_id": [r.facility_id for r in run.records],
                "remote_updated_at": pd.Timestamp("2026-07-01T10:00:00Z"),
                "payload": [json.dumps({"id": f"id-{k}"}) for k in keys],
            }
        ),
    )


def _rejects_frame(run: Run) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "file": run.file,
            "sheet": "Data",
            "row": [r.row for r in run.rejects],
            "column": [r.column for r in run.rejects],
            "value": [r.value for r in run.rejects],
            "code": [r.code for r in run.rejects],
            "message": [r.message for r in run.rejects],
        }
    )


@pytest.fixture
def sample_warehouse(tmp_path: Path) -> Warehouse:
    """Four activity resources over six months, a vehicle (aggregate), four facilities, ten
    runs with every outcome but ``running``, seven open rejects."""
    path = tmp_path / "warehouse.duckdb"
    return Warehouse(built_warehouses.copy_of_built("report-sample", _write_sample, path))


def _write_sample(path: Path) -> None:
    land_runs(Warehouse(path), SAMPLE_RUNS)


@pytest.fixture
def empty_warehouse(tmp_path: Path) -> Warehouse:
    """A warehouse whose schema exists but into which nothing was loaded."""
    return Warehouse(built_warehouses.empty_warehouse(tmp_path / "empty.duckdb"))


# -- reading the page back ---------------------------------------------------------------------


class _TextById(HTMLParser):
    """The text content of the element with a given id (tags stripped, entities decoded)."""

    def __init__(self, element_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.element_id = element_id
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
        elif dict(attrs).get("id") == self.element_id:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def element_text(page: str, element_id: str) -> str:
    """Whitespace-normalised text of the element ``id=element_id`` ("" when absent)."""
    parser = _TextById(element_id)
    # <script> bodies are data to HTMLParser; the elements we read hold none.
    parser.feed(page)
    return " ".join(" ".join(parser.parts).split())


def plotted_traces(page: str) -> dict[str, list[dict[str, Any]]]:
    """Each chart's traces, by div id, as the page hands them to ``Plotly.newPlot``; ``x`` and
    ``y`` as lists (plotly writes numeric arrays as base64 typed arrays)."""
    decoder = json.JSONDecoder()
    traces: dict[str, list[dict[str, Any]]] = {}
    for match in re.finditer(r'Plotly\.newPlot\(\s*"([^"]+)",\s*', page):
        data, _ = decoder.raw_decode(page, match.end())
        for trace in data:
            for axis in ("x", "y"):
                trace[axis] = _plain(trace.get(axis, []))
        traces[match.group(1)] = data
    return traces


def _plain(values: Any) -> list[Any]:
    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


#: Text that would run as script were it written into the page unescaped: in a facility's name,
#: a file's, a reject's value and message and a run's error.
HOSTILE = '</script><script>alert("hostile")</script><img src=x onerror=alert(1)>'
HOSTILE_FILE = "inbox/<img src=x onerror=alert(2)>.xlsx"


def hostile_warehouse(path: Path) -> Warehouse:
    """A warehouse whose names and messages are HTML and script."""
    warehouse = Warehouse(path)
    land_runs(warehouse, [
        Run("wastes", HOSTILE_FILE, "partial",
            records=_monthly("w-x", "fac-x", 40.0, range(1, 4)),
            rejects=[Reject(4, "Unit", HOSTILE, "INVALID_UNIT", HOSTILE)]),
        Run("purchases", "inbox/p.xlsx", "failed", error=HOSTILE),
    ])  # fmt: skip
    hostile = FACILITIES.head(1).assign(facility_id="fac-x", name=HOSTILE)
    with warehouse.writer() as writer:
        writer.records.land_facilities(pd.concat([FACILITIES, hostile], ignore_index=True))
    return warehouse
