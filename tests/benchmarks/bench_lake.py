"""Benchmark of the DuckLake warehouse (catalog in a real PostgreSQL started here); prints
figures (issue #18).

    .venv/bin/python -m tests.benchmarks.bench_lake                  # all three lines
    .venv/bin/python -m tests.benchmarks.bench_lake --rows 20000 --wastes 50000

1. ``concurrent``: 1, 2 and 4 CLI loads at once, one organization each, into one lake: rows/s
   together against one alone.
2. ``wastes``: the whole waste load (``bench_pipeline``'s) into the lake against the same into
   a DuckDB file (target: within 1.5 times), in processes of their own.
3. ``report``: the report's queries on the lake against the file holding the same records.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_pipeline import _run_one, make_frame
from tests.benchmarks.results import write_results
from tests.postgres_server import running_postgres
from tests.sandbox_fixture import create_org, provisioned_sandbox

CLI = str(Path(sys.executable).with_name("emissions-etl"))


def concurrent_loads(workdir: Path, sandbox, conninfo: str, loads: int, rows: int) -> dict:  # type: ignore[no-untyped-def]
    """``loads`` organizations, each loading a file of ``rows`` wastes at once."""
    processes = []
    started = time.perf_counter()
    for n in range(loads):
        org = create_org(sandbox.db_path, f"Bench {loads}-{n}")
        env = {
            **os.environ,
            "EMISSIONS_API_URL": sandbox.base_url,
            "EMISSIONS_API_KEY": org.api_key,
            "EMISSIONS_ORGANIZATION_ID": org.organization_id,
            "EMISSIONS_CA_FILE": str(sandbox.ca_file),
            "EMISSIONS_WAREHOUSE": f"ducklake:postgres:{conninfo}",
            "EMISSIONS_WAREHOUSE_DATA": str(workdir / "lake-data"),
        }
        _facilities(sandbox.base_url, org, sandbox.ca_file)
        path = workdir / f"wastes-{loads}-{n}.csv"
        frame = make_frame(rows)
        frame["Client row id"] = [f"{loads}-{n}-{i}" for i in range(rows)]
        frame.to_csv(path, index=False)
        processes.append(subprocess.Popen([CLI, "load", str(path)], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True))  # fmt: skip
    failed = [p.communicate()[1][-500:] for p in processes if p.wait() != 0]
    seconds = time.perf_counter() - started
    return {
        "line": "concurrent",
        "loads": loads,
        "rows": loads * rows,
        "seconds": round(seconds, 1),
        "rows_per_s": round(loads * rows / seconds),
        "failed": len(failed),
        **({"error": failed[0]} if failed else {}),
    }


def _facilities(base_url: str, org, ca_file: Path) -> None:  # type: ignore[no-untyped-def]
    from emissions_etl.client import ApiKeyAuth, EmissionsClient
    from tests.benchmarks.bench_pipeline import FACILITIES

    with EmissionsClient(base_url, ApiKeyAuth(org.api_key, org.organization_id),
                         ca_file=ca_file) as client:  # fmt: skip
        for name in FACILITIES:
            client.create_facility(name=name, type="warehouse", country="ES")


def report_queries(workdir: Path, lake: str, lake_data: Path, file: Path) -> list[dict]:
    """The report written from the lake and from a file holding the same records."""
    from emissions_etl.report import write_report
    from emissions_etl.warehouse import Warehouse

    figures = []
    for name, warehouse in (
        ("file", Warehouse(file)),
        ("lake", Warehouse(f"ducklake:postgres:{lake}", data_path=lake_data)),
    ):
        started = time.perf_counter()
        summary = write_report(warehouse, workdir / f"report-{name}.html")
        figures.append({"line": "report", "warehouse": name, "records": summary.records,
                        "seconds": round(time.perf_counter() - started, 2)})  # fmt: skip
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=20_000, help="rows per concurrent load")
    parser.add_argument("--wastes", type=int, default=200_000, help="rows of the whole load")
    args = parser.parse_args()
    lines: dict[str, list] = {"concurrent": [], "wastes": [], "report": []}
    with tempfile.TemporaryDirectory(prefix="bench-lake-") as tmp, running_postgres() as pg:
        workdir = Path(tmp)
        with provisioned_sandbox(workdir) as sandbox:
            for loads in (1, 2, 4):
                conninfo = pg.create_database(f"concurrent{loads}")
                figures = concurrent_loads(workdir, sandbox, conninfo, loads, args.rows)
                print("  ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
                lines["concurrent"].append(figures)
        lake = pg.create_database("wastes")
        runs = {"file": _run_one(workdir, args.wastes, "csv"),
                "lake": _run_one(workdir, args.wastes, "csv", lake)}  # fmt: skip
        for name, figures in runs.items():
            shown = "  ".join(f"{k}={v}" for k, v in (figures or {}).items())
            print(f"line=wastes warehouse={name}  {shown}", flush=True)
            lines["wastes"].append({"warehouse": name, **(figures or {"failed": True})})
        if runs["file"] and runs["lake"]:
            ratio = runs["lake"]["load_total_s"] / runs["file"]["load_total_s"]
            met = "met" if ratio <= 1.5 else "NOT MET"
            verdict = f"lake/file time: {ratio:.2f}x ({met}: <= 1.5x)"
            print(verdict)
            lines["targets"] = [verdict]
        lake_data = workdir / f"run_csv_{args.wastes}_lake" / "lake-data"
        file = workdir / f"run_csv_{args.wastes}" / "w.duckdb"
        for figures in report_queries(workdir, lake, lake_data, file):
            print("  ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
            lines["report"].append(figures)
    write_results("bench_lake", lines, parameters={"rows": args.rows, "wastes": args.wastes})


if __name__ == "__main__":
    main()
