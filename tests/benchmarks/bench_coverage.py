"""Print how long ``emissions-etl coverage`` takes over a large warehouse, and its peak memory.

    .venv/bin/python tests/benchmarks/bench_coverage.py [RECORDS]

Lands RECORDS activity records (default 1,000,000) through the warehouse's writer, as loads
land them, over the 24 months of 2025 and 2026: vehicle consumptions of 2,000 vehicles (about
half the records), wastes of 300 facilities, quarterly commuting periods of 4,000 employees,
business travels and purchases; about 3 % of the entities' months are left out (the gaps).
Then, side by side in one run: ``coverage --year 2025`` as a command (wall time, and the peak
resident memory of its process), the coverage read in this process, the view ``coverage``
counted, and the inventory of 2025 without and with estimates. Figures, not assertions
(STYLE: benchmarks are scripts that print figures); written with ``write_results``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from emissions_etl.coverage import CoverageRequest, read_coverage  # noqa: E402
from emissions_etl.inventory import Estimates, read_inventory  # noqa: E402
from emissions_etl.warehouse import Warehouse, WarehouseWriter  # noqa: E402
from tests.benchmarks.results import write_results  # noqa: E402
from tests.built_warehouses import describe_every_resource  # noqa: E402

VEHICLES, FACILITIES, EMPLOYEES = 2_000, 300, 4_000
MONTHS = [dt.date(2025 + m // 12, m % 12 + 1, 1) for m in range(24)]
#: Share of each resource's records (commuting periods: four a year per employee).
SHARES = {"vehicle_consumptions": 0.48, "wastes": 0.144, "business_travels": 0.2,
          "purchases": 0.144}  # fmt: skip
GAPS = 0.03
AS_OF = dt.date(2026, 1, 20)
BATCH = 100_000
ETL = Path(sys.executable).with_name("emissions-etl")


def land_all(warehouse: Warehouse, records: int) -> None:
    rng = np.random.default_rng(50)
    with warehouse.writer() as writer:
        describe_every_resource(writer)
        writer.records.land_facilities(pd.DataFrame({
            "facility_id": [f"fac-{n}" for n in range(FACILITIES)],
            "name": [f"Site {n}" for n in range(FACILITIES)], "status": "active",
        }))  # fmt: skip
        _land(writer, "vehicles", [f"veh-{n}" for n in range(VEHICLES)], [None] * VEHICLES,
              [{"license_plate": f"{n:04d}ABC", "status": "active", "ownership": "owned"}
               for n in range(VEHICLES)])  # fmt: skip
        _land(writer, "employees", [f"emp-{n}" for n in range(EMPLOYEES)], [None] * EMPLOYEES,
              [{"email": f"e{n}@example.es", "situation": "active"} for n in range(EMPLOYEES)])
        periods = _commuting(writer, rng)
        rest = max(records - periods, 0)
        counts = {name: int(rest * share / sum(SHARES.values())) for name, share in SHARES.items()}
        counts["vehicle_consumptions"] += rest - sum(counts.values())  # the rounding's remainder
        for name, count in counts.items():
            _activity(writer, rng, name, count)


def _commuting(writer: WarehouseWriter, rng: np.random.Generator) -> int:
    quarters = [m for m in MONTHS if m.month in (1, 4, 7, 10)]
    rows = [(e, q) for e in range(EMPLOYEES) for q in quarters if rng.random() > GAPS]
    _land(writer, "commuting_periods", [f"p-{n}" for n in range(len(rows))],
          [_month_end(q, 3) for _, q in rows],
          [{"employee_id": f"emp-{e}", "start_date": str(q)} for e, q in rows])  # fmt: skip
    return len(rows)


def _activity(writer: WarehouseWriter, rng: np.random.Generator, name: str, count: int) -> None:
    """``count`` records of ``name`` over the months, each entity missing about GAPS of its
    months (the organization's resources: none)."""
    entities = {"vehicle_consumptions": VEHICLES, "wastes": FACILITIES}.get(name, 1)
    gaps = GAPS if entities > 1 else 0
    drawn = int(count / (1 - gaps)) + 1  # enough that ``count`` remain once the gaps are out
    months = rng.integers(0, len(MONTHS), drawn)
    owners = rng.integers(0, entities, drawn)
    kept = rng.random(entities * len(MONTHS)) > gaps
    keep = kept[owners * len(MONTHS) + months]
    months, owners = months[keep][:count], owners[keep][:count]
    days = rng.integers(0, 28, len(months))
    for start in range(0, len(months), BATCH):
        part = slice(start, start + BATCH)
        dates = [MONTHS[m] + dt.timedelta(int(d)) for m, d in zip(months[part], days[part],
                                                                   strict=True)]  # fmt: skip
        records = [_record(name, int(owner), when) for owner, when in zip(owners[part], dates,
                                                                          strict=True)]  # fmt: skip
        _land(writer, name, [f"{name}-{start + n}" for n in range(len(dates))], dates, records)


def _record(name: str, owner: int, when: dt.date) -> dict[str, Any]:
    if name == "vehicle_consumptions":
        return {"vehicle_id": f"veh-{owner}", "data": {"unit": "liters", "start_date": str(when)}}
    if name == "wastes":
        return {"facility_id": f"fac-{owner}", "start_date": str(when.replace(day=1))}
    return {"expense_type": "opex"} if name == "purchases" else {"transport_type": "train"}


def _land(writer: WarehouseWriter, name: str, ids: list[str], dates: list[dt.date | None],
          records: list[dict[str, Any]]) -> None:  # fmt: skip
    for start in range(0, len(ids), BATCH):
        part = slice(start, start + BATCH)
        writer.records.land_remote_records(name, pd.DataFrame({
            "remote_id": ids[part], "source_key": ids[part], "activity_date": dates[part],
            "co2e_kg": np.random.default_rng(start).gamma(2.0, 50.0, len(ids[part])),
            "status": "active", "facility_id": [r.get("facility_id") for r in records[part]],
            "remote_updated_at": pd.Timestamp("2026-01-02T10:00:00Z"),
            "payload": [json.dumps({"id": i, **r}) for i, r in zip(ids[part], records[part],
                                                                    strict=True)],
        }))  # fmt: skip


def _month_end(month: dt.date, months: int) -> dt.date:
    total = month.year * 12 + month.month - 1 + months
    return dt.date(total // 12, total % 12 + 1, 1) - dt.timedelta(days=1)


def timed(what: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = what()
    return time.perf_counter() - started, result


def command(path: Path) -> tuple[float, float, int]:
    """``coverage --year 2025`` as a process: wall seconds, peak resident MB, exit code."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    started = time.perf_counter()
    done = subprocess.run([str(ETL), "coverage", "--warehouse", str(path), "--year", "2025",
                           "--as-of", str(AS_OF), "--out", str(path.with_name("c.csv"))],
                          capture_output=True, text=True, env={**env, "COLUMNS": "200"},
                          check=False)  # fmt: skip
    seconds = time.perf_counter() - started
    # The largest child's peak: this is the first child the benchmark starts.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak / 1024, done.returncode


def main() -> None:
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "warehouse.duckdb"
        warehouse = Warehouse(path)
        landing, _ = timed(lambda: land_all(warehouse, records))
        [(held,)] = warehouse.query("SELECT count(*) FROM coverage_records").itertuples(index=False)
        print(f"landed {held:,} activity records in {landing:.1f} s")
        wall, peak_mb, code = command(path)
        print(f"coverage --year 2025 (a process): {wall:.2f} s, peak {peak_mb:,.0f} MB, "
              f"exit {code}")
        request = CoverageRequest(year=2025, as_of=AS_OF)
        read, coverage = timed(lambda: read_coverage(warehouse, request))
        print(f"read_coverage: {read:.2f} s, {len(coverage.rows):,} periods, "
              f"{len(coverage.gaps):,} missing ({len(coverage.overdue):,} overdue)")
        view, _ = timed(lambda: warehouse.query("SELECT count(*) FROM coverage"))
        print(f"SELECT count(*) FROM coverage (as of today): {view:.2f} s")
        plain, _ = timed(lambda: read_inventory(warehouse, year=2025))
        estimated, _ = timed(lambda: read_inventory(warehouse, year=2025,
                                                    estimates=Estimates(as_of=AS_OF)))
        print(f"inventory of 2025: {plain:.2f} s; with estimates: {estimated:.2f} s")
    write_results("bench_coverage", {
        "landing_s": round(landing, 1), "coverage_command_s": round(wall, 2),
        "coverage_command_peak_mb": round(peak_mb), "read_coverage_s": round(read, 2),
        "coverage_view_count_s": round(view, 2), "inventory_s": round(plain, 2),
        "inventory_with_estimates_s": round(estimated, 2), "periods": len(coverage.rows),
        "gaps": len(coverage.gaps),
    }, parameters={"records": held, "vehicles": VEHICLES, "facilities": FACILITIES,
                   "employees": EMPLOYEES, "months": len(MONTHS), "as_of": str(AS_OF)})  # fmt: skip


if __name__ == "__main__":
    main()
