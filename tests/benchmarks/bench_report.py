"""Print how long ``write_report`` takes over a large warehouse, and how big the page is.

    .venv/bin/python tests/benchmarks/bench_report.py [RECORDS]

Lands RECORDS records (default 200,000) of every resource over 24 months and 40 facilities,
120 load runs and 3,000 rejects through the warehouse's writer, then writes the report.
Figures, not assertions (STYLE: benchmarks are scripts that print figures).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from emissions_etl.report import write_report  # noqa: E402
from emissions_etl.report.colours import RESOURCE_COLOURS  # noqa: E402
from emissions_etl.warehouse import Warehouse  # noqa: E402
from tests.benchmarks.results import write_results  # noqa: E402

RESOURCES = [name for name in RESOURCE_COLOURS if name not in ("facilities", "logistic_hubs")]
FACILITIES = 40
RUNS = 120
REJECTS = 3_000


def land(warehouse: Warehouse, records: int) -> None:
    rng = np.random.default_rng(7)
    per_run = records // RUNS
    with warehouse.writer() as writer:
        writer.records.land_facilities(
            pd.DataFrame({"facility_id": [f"fac-{n}" for n in range(FACILITIES)]}).assign(
                name=lambda f: "Site " + f["facility_id"].str[4:], country="ES"
            )
        )
        for run in range(RUNS):
            resource = RESOURCES[run % len(RESOURCES)]
            source = f"inbox/{resource}_{run:03d}.xlsx"
            run_id = writer.runs.start_run(resource, source, {})
            keys = [f"{run}-{n}" for n in range(per_run)]
            writer.runs.land_source_rows(
                run_id,
                resource,
                pd.DataFrame(
                    {"source_key": keys, "source_hash": keys, "_file": source, "_sheet": "Data"}
                ).assign(_row=range(2, per_run + 2)),
            )
            writer.mappings.upsert_mapping(
                resource,
                pd.DataFrame({"source_key": keys, "remote_id": keys, "source_hash": keys}),
            )
            days = rng.integers(0, 730, per_run)
            writer.records.land_remote_records(
                resource,
                pd.DataFrame(
                    {
                        "remote_id": keys,
                        "source_key": keys,
                        "activity_date": [dt.date(2025, 1, 1) + dt.timedelta(int(d)) for d in days],
                        "co2e_kg": rng.gamma(2.0, 150.0, per_run),
                        "status": "active",
                        "facility_id": [f"fac-{n}" for n in rng.integers(0, FACILITIES, per_run)],
                        "payload": json.dumps({}),
                    }
                ),
            )
            rejects = REJECTS // RUNS
            writer.runs.land_rejects(
                run_id,
                resource,
                pd.DataFrame(
                    {
                        "file": source,
                        "sheet": "Data",
                        "row": range(per_run + 2, per_run + 2 + rejects),
                        "column": "Facility",
                        "value": "Madird",
                        "code": rng.choice(
                            ["UNKNOWN_FACILITY", "REQUIRED", "INVALID_DATE"], rejects
                        ),
                        "message": "No facility of that name.",
                    }
                ),
            )
            writer.runs.finish_run(
                run_id,
                outcome=str(rng.choice(["succeeded", "partial", "failed"], p=[0.7, 0.2, 0.1])),
                counts={"rows_read": per_run + rejects, "rows_loaded": per_run},
            )


def main() -> None:
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    with tempfile.TemporaryDirectory() as folder:
        warehouse = Warehouse(Path(folder) / "warehouse.duckdb")
        started = time.perf_counter()
        land(warehouse, records)
        landed = time.perf_counter() - started
        print(f"landed {records:,} records in {landed:.1f} s")
        figures: dict[str, object] = {"land_s": round(landed, 1)}
        for attempt in (1, 2):
            started = time.perf_counter()
            summary = write_report(warehouse, Path(folder) / "report.html")
            seconds = time.perf_counter() - started
            print(
                f"report #{attempt}: {seconds:.2f} s, {summary.bytes:,} bytes "
                f"({summary.bytes / 1_000_000:.2f} MB), {summary.charts} charts, "
                f"{summary.records:,} records, {summary.runs} runs, "
                f"{summary.open_rejects:,} open rejects"
            )
            figures[f"report_{attempt}_s"] = round(seconds, 2)
        figures |= {"page_mb": round(summary.bytes / 1_000_000, 2), "charts": summary.charts,
                    "runs": summary.runs, "open_rejects": summary.open_rejects}  # fmt: skip
    write_results(
        "bench_report",
        figures,
        parameters={"records": records, "facilities": FACILITIES, "runs": RUNS, "rejects": REJECTS},
    )


if __name__ == "__main__":
    main()
