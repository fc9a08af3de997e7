"""Benchmark of files in an object store (a real S3-compatible server, moto's, started here on
loopback) against the same files on this machine's disk; prints figures (issue #27).

    .venv/bin/python -m tests.benchmarks.bench_store                    # all three lines
    .venv/bin/python -m tests.benchmarks.bench_store --lines read --rows 400000 --repeat 3

1. ``read``: ``emissions-etl validate`` (read and validate, no service) of one csv from the
   disk and from the store, interleaved: seconds and the process's peak memory.
2. ``load``: ``emissions-etl load`` of one csv into a fresh organization of a served sandbox
   and a DuckDB file, from the disk and from the store, interleaved.
3. ``workers``: 1, 2 and 3 loads at once, one organization each, every file in the store, into
   one lake whose catalog is in a real PostgreSQL and whose data files are in the store.

moto answers from one Python process: a real store serves ranges faster, so the store's lines
are upper bounds of what the store costs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.benchmarks.bench_lake import _facilities
from tests.benchmarks.bench_pipeline import make_frame
from tests.benchmarks.results import write_results
from tests.postgres_server import running_postgres
from tests.s3_server import S3Server, running_s3
from tests.sandbox_fixture import create_org, provisioned_sandbox

CLI = str(Path(sys.executable).with_name("emissions-etl"))
BUCKET = "bench"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(seconds, peak RSS in MB, exit code) of one process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def csv_of(workdir: Path, rows: int, tag: str) -> Path:
    path = workdir / tag / "wastes" / f"wastes-{rows}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = make_frame(rows)
    frame["Client row id"] = [f"{tag}-{i}" for i in range(rows)]
    frame.to_csv(path, index=False)
    return path


def upload(s3: S3Server, path: Path, key: str) -> str:
    s3.client().upload_file(str(path), BUCKET, key)
    return f"s3://{BUCKET}/{key}"


def read_line(workdir: Path, s3: S3Server, rows: int, repeat: int) -> list[dict[str, Any]]:
    path = csv_of(workdir, rows, "read")
    url = upload(s3, path, f"read/{path.name}")
    env = {**os.environ, **s3.env()}
    found = []
    for attempt in range(repeat):
        for where, given in (("disk", str(path)), ("store", url)):
            seconds, peak, code = timed([CLI, "validate", given], env)
            found.append({"line": "read", "from": where, "rows": rows, "attempt": attempt + 1,
                          "seconds": round(seconds, 1), "peak_mb": round(peak), "exit": code,
                          "mb": round(path.stat().st_size / 1e6, 1)})  # fmt: skip
    return found


def org_env(sandbox: Any, s3: S3Server, name: str, warehouse: str, data: str | None) -> dict:  # type: ignore[type-arg]
    org = create_org(sandbox.db_path, name)
    _facilities(sandbox.base_url, org, sandbox.ca_file)
    env = {
        **os.environ,
        **s3.env(),
        "EMISSIONS_API_URL": sandbox.base_url,
        "EMISSIONS_API_KEY": org.api_key,
        "EMISSIONS_ORGANIZATION_ID": org.organization_id,
        "EMISSIONS_CA_FILE": str(sandbox.ca_file),
        "EMISSIONS_WAREHOUSE": warehouse,
    }
    if data is not None:
        env["EMISSIONS_WAREHOUSE_DATA"] = data
    return env


def load_line(workdir: Path, sandbox: Any, s3: S3Server, rows: int, repeat: int) -> list[dict]:  # type: ignore[type-arg]
    path = csv_of(workdir, rows, "load")
    url = upload(s3, path, f"load/{path.name}")
    found = []
    for attempt in range(repeat):
        for where, given in (("disk", str(path)), ("store", url)):
            warehouse = workdir / f"load-{where}-{attempt}.duckdb"
            env = org_env(sandbox, s3, f"bench {where} {attempt}", str(warehouse), None)
            seconds, peak, code = timed([CLI, "load", given], env)
            found.append({"line": "load", "from": where, "rows": rows, "attempt": attempt + 1,
                          "seconds": round(seconds, 1), "peak_mb": round(peak),
                          "exit": code})  # fmt: skip
    return found


def workers_line(workdir: Path, sandbox: Any, s3: S3Server, rows: int) -> list[dict]:  # type: ignore[type-arg]
    found = []
    with running_postgres() as postgres:
        for workers in (1, 2, 3):
            lake = f"ducklake:postgres:{postgres.create_database(f'workers{workers}')}"
            data = f"s3://{BUCKET}/lake-{workers}/"
            commands = []
            for n in range(workers):
                path = csv_of(workdir, rows, f"w{workers}-{n}")
                url = upload(s3, path, f"inbox-{workers}/org{n}/wastes/{path.name}")
                env = org_env(sandbox, s3, f"bench w{workers}-{n}", lake, data)
                commands.append(([CLI, "load", url.rsplit("/wastes/", 1)[0] + "/"], env))
            started = time.perf_counter()
            processes = [subprocess.Popen(c, env=e, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True)  # fmt: skip
                         for c, e in commands]  # fmt: skip
            failed = [p.communicate()[1][-400:] for p in processes if p.wait() != 0]
            seconds = time.perf_counter() - started
            error = {"error": failed[0]} if failed else {}
            found.append({"line": "workers", "workers": workers, "rows": workers * rows,
                          "seconds": round(seconds, 1),
                          "rows_per_s": round(workers * rows / seconds),
                          "failed": len(failed), **error})  # fmt: skip
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", nargs="+", default=["read", "load", "workers"])
    parser.add_argument("--rows", type=int, default=200_000, help="rows of the read line")
    parser.add_argument("--load-rows", type=int, default=20_000, help="rows of each load")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    found: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder, running_s3() as s3:
        workdir = Path(folder)
        s3.create_bucket(BUCKET)
        if "read" in args.lines:
            found["read"] = show(read_line(workdir, s3, args.rows, args.repeat))
        if {"load", "workers"} & set(args.lines):
            (workdir / "sandbox").mkdir()
            with provisioned_sandbox(workdir / "sandbox") as sandbox:
                if "load" in args.lines:
                    found["load"] = show(load_line(workdir, sandbox, s3, args.load_rows,
                                                   args.repeat))  # fmt: skip
                if "workers" in args.lines:
                    found["workers"] = show(workers_line(workdir, sandbox, s3, args.load_rows))
    write_results(
        "bench_store",
        found,
        parameters={"lines": args.lines, "rows": args.rows, "load_rows": args.load_rows,
                    "repeat": args.repeat},
    )  # fmt: skip


def show(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Print each line's figures; the same lines, for write_results."""
    for result in results:
        print("  ".join(f"{key}={value}" for key, value in result.items()), flush=True)
    return results


if __name__ == "__main__":
    main()
