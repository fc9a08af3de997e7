"""Benchmark of the sandbox (a script, not a test): POST /v2/wastes of 5,000 records (target
< 1 s) and calculation throughput for 100,000 records (target < 10 s), against a served sandbox.

Run: .venv/bin/python -m tests.benchmarks.bench_sandbox
"""

from __future__ import annotations

import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from tests.sandbox.waste_requests import new_facility, post_wastes, record, waste_ef_id
from tests.sandbox_fixture import provisioned_sandbox

BATCH = 5000
TOTAL = 100_000


def _records(client: httpx.Client) -> list[dict[str, Any]]:
    facility = new_facility(client)
    ef = waste_ef_id(client, "200101", "R3")
    return [record(facility, ef, client_row_id=f"bench-{i}-{uuid.uuid4()}") for i in range(BATCH)]


def bench_one_post(client: httpx.Client, records: list[dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    response = post_wastes(client, records)
    seconds = time.perf_counter() - started
    assert response.status_code == 202, response.text
    print(f"POST /v2/wastes, {BATCH} records: {seconds:.3f} s (target < 1 s)")
    job: dict[str, Any] = response.json()
    return job


def bench_throughput(
    client: httpx.Client, records: list[dict[str, Any]], first_job: dict[str, Any]
) -> None:
    """Submit the rest of TOTAL and wait until every job is calculated."""
    jobs = [first_job]
    started = time.perf_counter()
    post_seconds = 0.0
    for batch in range(TOTAL // BATCH - 1):
        batch_records = [dict(r, client_row_id=f"{r['client_row_id']}-{batch}") for r in records]
        t0 = time.perf_counter()
        jobs.append(post_wastes(client, batch_records).json())
        post_seconds += time.perf_counter() - t0
    pending = {job["links"]["self"] for job in jobs}
    while pending:
        pending = {p for p in pending if client.get(p).json()["status"] == "processing"}
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    finished = [client.get(j["links"]["self"]).json() for j in jobs]
    succeeded = sum(j["counts"]["succeeded"] for j in finished)
    print(
        f"{succeeded:,} records written and calculated in {elapsed:.2f} s "
        f"= {succeeded / elapsed:,.0f} records/s (target < 10 s); "
        f"the {len(jobs) - 1} POSTs took {post_seconds:.2f} s of it, "
        f"mean {post_seconds / (len(jobs) - 1):.3f} s each"
    )


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as workdir,
        provisioned_sandbox(Path(workdir)) as server,
        server.client() as client,
    ):
        records = _records(client)
        first_job = bench_one_post(client, records)
        bench_throughput(client, records, first_job)


if __name__ == "__main__":
    main()
