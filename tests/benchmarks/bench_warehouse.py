"""Print how long the warehouse takes to land and replace N rows (default 200,000).

    .venv/bin/python tests/benchmarks/bench_warehouse.py [ROWS]

Figures, not assertions (STYLE: benchmarks are scripts that print figures).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from emissions_etl.warehouse import Warehouse  # noqa: E402
from tests.benchmarks.results import write_results  # noqa: E402


def frames(rows: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    keys = [f"row-{n}" for n in range(rows)]
    ids = [f"id-{n}" for n in range(rows)]
    source = pd.DataFrame(
        {
            "source_key": keys,
            "source_hash": [f"h{n}" for n in range(rows)],
            "_file": "wastes.xlsx",
            "_sheet": "Wastes",
            "_row": range(4, rows + 4),
            "facility": "Madrid Warehouse",
            "identification_name": "Cardboard",
            "base_quantity": [float(n % 1000) for n in range(rows)],
            "unit": "t",
            "ler_code": "20 01 01",
            "start_date": dt.date(2026, 1, 1),
            "end_date": dt.date(2026, 3, 31),
        }
    )
    mapping = pd.DataFrame(
        {"source_key": keys, "remote_id": ids, "source_hash": source["source_hash"]}
    ).assign(ingest_job_id="job-1")
    remote = pd.DataFrame(
        {
            "remote_id": ids,
            "source_key": keys,
            "activity_date": dt.date(2026, 3, 31),
            "co2e_kg": 1.25,
            "status": "active",
            "facility_id": "fac-1",
            "remote_updated_at": pd.Timestamp("2026-04-01T10:00:00Z"),
            "payload": [json.dumps({"id": i}) for i in ids],
        }
    )
    return source, mapping, remote


def timed(label: str, rows: int, action: Callable[[], object]) -> float:
    began = time.perf_counter()
    action()
    seconds = time.perf_counter() - began
    print(f"{label:<42} {seconds:7.2f} s  {rows / seconds:>12,.0f} rows/s")
    return seconds


def main(rows: int) -> None:
    source, mapping, remote = frames(rows)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as workdir:
        warehouse = Warehouse(Path(workdir) / "bench.duckdb")
        print(f"{rows:,} rows, duckdb file in a temporary directory")
        with warehouse.writer() as writer:
            steps: list[tuple[str, Callable[[], object]]] = [
                ("land_source_rows (new keys)",
                 lambda: writer.runs.land_source_rows("r1", "wastes", source)),
                ("land_source_rows (every key replaced)",
                 lambda: writer.runs.land_source_rows("r2", "wastes", source)),
                ("upsert_mapping (new keys)",
                 lambda: writer.mappings.upsert_mapping("wastes", mapping)),
                ("upsert_mapping (every key replaced)",
                 lambda: writer.mappings.upsert_mapping("wastes", mapping)),
                ("land_remote_records",
                 lambda: writer.records.land_remote_records("wastes", remote)),
                ("mapping() read back", lambda: writer.mappings.mapping("wastes")),
            ]  # fmt: skip
            for label, action in steps:
                figures[f"{label} (s)"] = round(timed(label, rows, action), 3)
        label = "query: emissions by month and facility"
        seconds = timed(
            label,
            rows,
            lambda: warehouse.query(
                "SELECT strftime(activity_date, '%Y-%m') AS month, facility_name, sum(co2e_kg) "
                "FROM emissions GROUP BY ALL"
            ),
        )
        figures[f"{label} (s)"] = round(seconds, 3)
    write_results("bench_warehouse", figures, parameters={"rows": rows})


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
