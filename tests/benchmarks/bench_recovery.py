"""Benchmark of crash recovery: a waste load killed right after its chunks were sent (nothing
landed, every row pending), then the re-run's recovery stage; prints figures.

    .venv/bin/python -m tests.benchmarks.bench_recovery [--rows 20000]

Target (issue: recovery that leaves nothing stale): 20,000 pending rows recovered in under 5 s,
every record landed with its calculated co2e, the killed run marked ``interrupted``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.loading.pipeline import load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse
from tests.benchmarks.bench_pipeline import FACILITIES, make_frame
from tests.benchmarks.results import write_results
from tests.resources.crash_driver import KILLED
from tests.sandbox_fixture import provisioned_sandbox


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=20_000)
    rows = parser.parse_args().rows
    workdir = Path(tempfile.mkdtemp(prefix="bench-recovery-"))
    path = workdir / "wastes.csv"
    make_frame(rows).to_csv(path, index=False)
    chunks = -(-rows // 5000)
    (workdir / "sandbox").mkdir()
    with provisioned_sandbox(workdir / "sandbox") as sandbox:
        auth = ApiKeyAuth(sandbox.org.api_key, sandbox.org.organization_id)
        with EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client:
            for name in FACILITIES:
                client.send_json(
                    "POST", "/v1/facilities", {"name": name, "type": "x", "country": "ES"}
                )
            env = {**os.environ, "EMISSIONS_API_URL": sandbox.base_url,
                   "EMISSIONS_API_KEY": sandbox.org.api_key,
                   "EMISSIONS_ORGANIZATION_ID": sandbox.org.organization_id,
                   "EMISSIONS_CA_FILE": str(sandbox.ca_file)}  # fmt: skip
            warehouse = workdir / "warehouse.duckdb"
            started = time.perf_counter()
            killed = subprocess.run(
                [sys.executable, "-m", "tests.resources.crash_driver", "wastes", str(path),
                 str(warehouse), str(chunks)],
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert killed.returncode == KILLED, killed.stderr[-2000:]
            killed_after = time.perf_counter() - started
            pending = Warehouse(warehouse).query("SELECT count(*) AS n FROM pending_uploads")["n"][
                0
            ]
            started = time.perf_counter()
            summary = load_file(path, api=client, warehouse=Warehouse(warehouse),
                                spec=resource_spec("wastes"))  # fmt: skip
            rerun = time.perf_counter() - started
    stale = Warehouse(warehouse).query(
        "SELECT count(*) FILTER (status = 'loading') AS loading, count(*) AS n, "
        "count(co2e_kg) AS with_co2e FROM emissions"
    )
    outcomes = Warehouse(warehouse).query("SELECT outcome FROM load_runs ORDER BY started_at")
    print(f"rows {rows:,}: killed after {chunks} chunk POSTs ({killed_after:.1f} s), "
          f"{pending:,} rows pending")  # fmt: skip
    print(f"recovery stage: {summary.seconds.get('recover', 0):.2f} s for "
          f"{summary.rows_recovered:,} records (target < 5 s for 20,000)")  # fmt: skip
    print(f"whole re-run: {rerun:.1f} s; sent again: {summary.rows_sent}; unchanged: "
          f"{summary.rows_unchanged:,}")  # fmt: skip
    print(
        f"landed: {stale['n'][0]:,} records, {stale['with_co2e'][0]:,} with co2e, "
        f"{stale['loading'][0]} still loading; runs: {', '.join(outcomes['outcome'])}"
    )
    write_results(
        "bench_recovery",
        {"pending_rows": int(pending), "recover_s": round(summary.seconds.get("recover", 0), 2),
         "rows_recovered": summary.rows_recovered, "rerun_s": round(rerun, 1),
         "rows_sent_again": summary.rows_sent, "records": int(stale["n"][0]),
         "records_with_co2e": int(stale["with_co2e"][0]),
         "records_loading": int(stale["loading"][0]),
         "runs": ", ".join(outcomes["outcome"]), "target_recover_s": 5.0},
        parameters={"rows": rows, "chunks": chunks},
    )  # fmt: skip


if __name__ == "__main__":
    main()
