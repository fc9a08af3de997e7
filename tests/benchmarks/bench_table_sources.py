"""Benchmark of a table source synced, beside the same rows from a CSV file; prints figures.

    .venv/bin/python tests/benchmarks/bench_table_sources.py                  # 1,000,000 rows
    .venv/bin/python tests/benchmarks/bench_table_sources.py --rows 100000
    .venv/bin/python tests/benchmarks/bench_table_sources.py --stream-rows 10000000

A table of wastes (a DuckDB file, ``load --from-sql ... --key doc_id``) is loaded once, then
again with 1 % of its rows changed; the same rows as a CSV file (keyed by ``Client row id``)
are loaded once and again with the same 1 % changed. Each load runs in a process of its own
(its peak memory, max RSS, is that load's alone) against one sandbox per kind, and counts the
requests it sent by method. ``--stream-rows N`` also validates a query of N generated rows
(``validate --from-sql``): the peak memory of streaming a result that size.
Figures go to ``results/bench_table_sources.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import ssl
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import httpx
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.benchmarks.results import write_results  # noqa: E402

FACILITIES = ["Madrid Warehouse", "Barcelona Plant", "Valencia Office", "Sevilla Logistics Hub"]
CODES = [("20 01 01", "R3"), ("15 01 02", "R3"), ("20 03 01", "D1"), ("17 02 01", "R1")]
#: Every this many rows, one is changed for the second load (1 %).
CHANGED_EVERY = 100
QUERY = "SELECT * FROM erp.wastes"


def make_frame(rows: int, *, changed: bool) -> pd.DataFrame:
    """The register in the wastes resource's own column names, keyed by ``doc_id``; with
    ``changed``, every 100th row's quantity is one more."""
    rng = np.random.default_rng(7)
    month = rng.integers(1, 13, rows)
    codes = rng.integers(0, len(CODES), rows)
    start = pd.to_datetime(pd.DataFrame({"year": 2026, "month": month, "day": 1}))
    quantity = rng.uniform(1, 5000, rows).round(2)
    if changed:
        quantity[::CHANGED_EVERY] += 1
    return pd.DataFrame(
        {
            "doc_id": [f"D-{i:07d}" for i in range(rows)],
            "facility": np.array(FACILITIES)[rng.integers(0, len(FACILITIES), rows)],
            "identification_name": [f"INV-{i:07d}" for i in range(rows)],
            "start_date": start.dt.date,
            "end_date": (start + pd.offsets.MonthEnd(0)).dt.date,
            "base_quantity": quantity,
            "unit": "kg",
            "ler_code": [CODES[c][0] for c in codes],
            "rd_code": [CODES[c][1] for c in codes],
            "destination": "Plant",
        }
    )


def write_inputs(workdir: Path, rows: int, changed: bool) -> tuple[Path, Path]:
    """The DuckDB file holding the table, and the CSV file of the same rows."""
    frame = make_frame(rows, changed=changed)
    suffix = "changed" if changed else "first"
    database, csv = workdir / f"erp_{rows}_{suffix}.duckdb", workdir / f"wastes_{rows}_{suffix}.csv"
    if not database.exists():
        with duckdb.connect(str(database)) as con:
            con.register("frame", frame)
            con.execute("CREATE TABLE wastes AS SELECT * FROM frame")
    if not csv.exists():
        frame.rename(columns={"doc_id": "client_row_id"}).to_csv(csv, index=False)
    return database, csv


class Counting(httpx.BaseTransport):
    def __init__(self, ca_file: str) -> None:
        self.inner = httpx.HTTPTransport(verify=ssl.create_default_context(cafile=ca_file))
        self.sent: Counter[str] = Counter()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent[request.method] += 1
        return self.inner.handle_request(request)


def measure_one(
    kind: str, source: Path, warehouse: Path, sandbox: dict[str, str]
) -> dict[str, Any]:
    """One load, in this process: time, peak memory, requests sent, the summary's counts."""
    from emissions_etl.client import ApiKeyAuth, EmissionsClient
    from emissions_etl.loading.pipeline import LoadOptions, load_file
    from emissions_etl.loading.table_loads import load_table
    from emissions_etl.resources import resource_spec
    from emissions_etl.tables import TableSource, parse_attachment
    from emissions_etl.warehouse import Warehouse

    spec = resource_spec("wastes")
    counting = Counting(sandbox["ca_file"])
    auth = ApiKeyAuth(os.environ["BENCH_API_KEY"], sandbox["organization_id"])
    started = time.perf_counter()
    with EmissionsClient(sandbox["base_url"], auth, transport=counting) as client:
        target = Warehouse(warehouse)
        if kind == "table":
            table = TableSource(QUERY, "wastes", ("doc_id",), (parse_attachment(f"erp={source}"),))
            summary = load_table(table, api=client, warehouse=target, spec=spec,
                                 options=LoadOptions())  # fmt: skip
        else:
            summary = load_file(source, api=client, warehouse=target, spec=spec)
    return {
        "seconds": round(time.perf_counter() - started, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "requests": sum(counting.sent.values()),
        "requests_by_method": dict(counting.sent),
        "rows_read": summary.rows_read,
        "rows_sent": summary.rows_sent,
        "rows_unchanged": summary.rows_unchanged,
        "rows_loaded": summary.rows_loaded,
        "outcome": summary.outcome,
        "stages_s": {stage: round(seconds, 1) for stage, seconds in summary.seconds.items()},
    }


def measure_stream(rows: int) -> dict[str, Any]:
    """``validate --from-sql`` over ``rows`` generated rows, in this process."""
    from emissions_etl.loading.table_loads import validate_table
    from emissions_etl.resources import resource_spec
    from emissions_etl.tables import TableSource

    query = (
        "SELECT 'D-' || lpad(CAST(i AS VARCHAR), 8, '0') AS doc_id, "
        "'Madrid Warehouse' AS facility, 'INV-' || CAST(i AS VARCHAR) AS identification_name, "
        "DATE '2026-01-01' + CAST(i % 300 AS INTEGER) AS start_date, "
        "DATE '2026-01-01' + CAST(i % 300 AS INTEGER) + 20 AS end_date, "
        "1 + (i % 5000) / 3.0 AS base_quantity, 'kg' AS unit, '20 01 01' AS ler_code, "
        f"'R3' AS rd_code, 'Plant' AS destination FROM range({rows}) AS t(i)"
    )
    started = time.perf_counter()
    source = TableSource(query, "wastes", ("doc_id",), name="generated")
    result = validate_table(source, spec=resource_spec("wastes"))
    return {
        "rows": result.rows_read,
        "valid": result.rows_valid,
        "seconds": round(time.perf_counter() - started, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def _child(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: failed\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def run_kind(kind: str, workdir: Path, rows: int) -> dict[str, Any]:
    """The first load and the 1 % re-sync of one kind, against a sandbox of its own."""
    from emissions_etl.cli.demo import create_facilities, running_sandbox

    first, changed = write_inputs(workdir, rows, False), write_inputs(workdir, rows, True)
    run_dir = workdir / f"run_{kind}_{rows}"
    subprocess.run(["rm", "-rf", str(run_dir)], check=True)
    run_dir.mkdir()
    warehouse = run_dir / "w.duckdb"
    index = 0 if kind == "table" else 1
    with running_sandbox(run_dir) as sandbox:
        create_facilities(sandbox)
        given = json.dumps({"base_url": sandbox.base_url, "ca_file": str(sandbox.ca_file),
                            "organization_id": sandbox.organization_id})  # fmt: skip
        env = {"BENCH_API_KEY": sandbox.api_key}
        once = _child("--one", kind, str(first[index]), str(warehouse), given, env=env)
        again = _child("--one", kind, str(changed[index]), str(warehouse), given, env=env)
    return {"first": once, "resync_1pct": again}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--stream-rows", type=int, default=0)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/emissions-bench-tables"))
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--stream", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, source, warehouse, sandbox = args.one
        print(json.dumps(measure_one(kind, Path(source), Path(warehouse), json.loads(sandbox))))
        return
    if args.stream:
        print(json.dumps(measure_stream(args.stream)))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {}
    for kind in ("table", "csv"):
        figures[kind] = run_kind(kind, args.workdir, args.rows)
        for phase, measured in figures[kind].items():
            shown = "  ".join(f"{k}={v}" for k, v in measured.items())
            print(f"{kind} {phase}: {shown}", flush=True)
    if args.stream_rows:
        figures["stream"] = _child("--stream", str(args.stream_rows))
        print("stream: " + "  ".join(f"{k}={v}" for k, v in figures["stream"].items()))
    parameters = {"rows": args.rows, "changed_share": 1 / CHANGED_EVERY, "table": "DuckDB file",
                  "stream_rows": args.stream_rows}  # fmt: skip
    print(write_results("bench_table_sources", figures, parameters=parameters))


if __name__ == "__main__":
    main()
