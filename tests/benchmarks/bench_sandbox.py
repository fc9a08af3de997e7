"""Benchmark of the sandbox (a script, not a test), against a served sandbox: POST /v2/wastes of
5,000 records (target < 0.3 s), 100,000 records written and calculated (target < 10 s), and
those 100,000 read back as the client does it (target < 5 s): GET /v2/wastes?ingest_job_id=
<job>&size=100&page=N for every job, READ_IN_FLIGHT pages at a time on one httpx.Client.

Run: .venv/bin/python -m tests.benchmarks.bench_sandbox
"""

from __future__ import annotations

import math
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.benchmarks.results import write_results
from tests.sandbox.waste_requests import new_facility, post_wastes, record, waste_ef_id
from tests.sandbox_fixture import provisioned_sandbox

BATCH = 5000
TOTAL = 100_000
READ_PAGE_SIZE = 100  # interface: Limits, page size max 100
READ_IN_FLIGHT = 4  # the client's read-back keeps 4 pages in flight
#: What each measurement found, for write_results.
FIGURES: dict[str, float] = {}


def _records(client: httpx.Client) -> list[dict[str, Any]]:
    facility = new_facility(client)
    ef = waste_ef_id(client, "200101", "R3")
    return [record(facility, ef, client_row_id=f"bench-{i}-{uuid.uuid4()}") for i in range(BATCH)]


def bench_one_post(client: httpx.Client, records: list[dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    response = post_wastes(client, records)
    seconds = time.perf_counter() - started
    assert response.status_code == 202, response.text
    print(f"POST /v2/wastes, {BATCH} records: {seconds:.3f} s (target < 0.3 s)")
    FIGURES["one_post_s"] = round(seconds, 3)
    job: dict[str, Any] = response.json()
    return job


def bench_throughput(
    client: httpx.Client, records: list[dict[str, Any]], first_job: dict[str, Any]
) -> list[dict[str, Any]]:
    """Submit the rest of TOTAL and wait until every job is calculated; the finished jobs."""
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
    FIGURES.update(
        written_and_calculated_s=round(elapsed, 2),
        records_per_s=round(succeeded / elapsed),
        posts_s=round(post_seconds, 2),
    )
    return finished


def _read_page(client: httpx.Client, job_id: str, page: int) -> int:
    """One page of a job's wastes, as the client's read-back asks for it; its item count."""
    response = client.get(
        "/v2/wastes", params={"ingest_job_id": job_id, "size": READ_PAGE_SIZE, "page": page}
    )
    assert response.status_code == 200, response.text
    items = response.json()["items"]
    assert all(item["co2e"] is not None for item in items), "read back before calculation"
    return len(items)


def bench_read_back(client: httpx.Client, jobs: list[dict[str, Any]]) -> None:
    """Every page of every job, READ_IN_FLIGHT requests at a time on the one client."""
    requests = [
        (job["id"], page)
        for job in jobs
        for page in range(1, math.ceil(job["counts"]["submitted"] / READ_PAGE_SIZE) + 1)
    ]
    started = time.perf_counter()
    with ThreadPoolExecutor(READ_IN_FLIGHT) as pool:
        read = sum(pool.map(lambda request: _read_page(client, *request), requests))
    elapsed = time.perf_counter() - started
    print(
        f"{read:,} records read back in {elapsed:.2f} s, {len(requests)} pages "
        f"= {len(requests) / elapsed:,.0f} pages/s (target < 5 s)"
    )
    FIGURES.update(read_back_s=round(elapsed, 2), pages_per_s=round(len(requests) / elapsed))


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as workdir,
        provisioned_sandbox(Path(workdir)) as server,
        server.client() as client,
    ):
        records = _records(client)
        first_job = bench_one_post(client, records)
        jobs = bench_throughput(client, records, first_job)
        bench_read_back(client, jobs)
    write_results(
        "bench_sandbox",
        FIGURES,
        parameters={"batch": BATCH, "total": TOTAL, "read_page_size": READ_PAGE_SIZE,
                    "read_in_flight": READ_IN_FLIGHT},
    )  # fmt: skip


if __name__ == "__main__":
    main()
