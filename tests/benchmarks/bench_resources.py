"""Benchmark of v1 resource loads over a served sandbox: business travels (one POST per trip, read
back until calculated) and logistics requests (bulk, 10 requests in flight at most); prints
figures.

    .venv/bin/python -m tests.benchmarks.bench_resources          # 20,000 trips, 60,000 legs
    .venv/bin/python -m tests.benchmarks.bench_resources --travels 2000 --requests 10000

Each file is loaded a second time from an empty warehouse (a second worker, a lost file): every
row is then looked for among the records the service holds (``reconcile_s``, the requests it
took) and nothing is created (``sent=0``). ``land_share`` is the share of a load's wall time
spent reading records back and landing them (stages ``calculate`` and ``land``).

The benchmark provisions its own sandbox (``provisioned_sandbox``) and raises the organization's
business travel maximum (10,000 by default) with SQL, as the sandbox README says. Every request
the client sends passes a counting transport (under the client's limiter and retries), which
records how many were in flight at once per endpoint and how many answers were 429 (target:
zero; the limiter keeps the bulk endpoints at 10 in flight).
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sqlite3
import ssl
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.connection import resource_limits
from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import Warehouse
from tests.benchmarks.results import write_results
from tests.sandbox_fixture import SandboxServer, provisioned_sandbox

_ID = re.compile(r"/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CITIES = ["Madrid", "Barcelona", "Valencia", "Sevilla", "Bilbao", "Zaragoza", "Lisbon", "Paris"]


class CountingTransport(httpx.BaseTransport):
    """Counts requests in flight per endpoint (the highest seen) and answers by status."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self._inner = inner
        self._lock = threading.Lock()
        self._now: Counter[str] = Counter()
        self.most: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        endpoint = f"{request.method} {_ID.sub('/{id}', request.url.path)}"
        with self._lock:
            self._now[endpoint] += 1
            self.most[endpoint] = max(self.most[endpoint], self._now[endpoint])
        try:
            response = self._inner.handle_request(request)
        except BaseException:
            self._done(endpoint)
            raise
        with self._lock:
            self.statuses[response.status_code] += 1
        # In flight until the whole answer has been read (the stream is closed).
        assert isinstance(response.stream, httpx.SyncByteStream)
        stream = _Counted(response.stream, lambda: self._done(endpoint))
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=stream,
            extensions=response.extensions,
        )

    def _done(self, endpoint: str) -> None:
        with self._lock:
            self._now[endpoint] -= 1

    def reset(self) -> None:
        self.most.clear()
        self.statuses.clear()


class _Counted(httpx.SyncByteStream):
    """A response body that reports, once, when it is closed."""

    def __init__(self, stream: httpx.SyncByteStream, done: Callable[[], None]) -> None:
        self._stream = stream
        self._done: Callable[[], None] | None = done

    def __iter__(self) -> Iterator[bytes]:
        yield from self._stream

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            done, self._done = self._done, None
            if done is not None:
                done()


def travels_csv(path: Path, rows: int) -> Path:
    rng = random.Random(7)
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["client_row_id", "travel_date", "transport_type", "distance_km", "origin",
                      "destination", "travel_number", "round_trip"])  # fmt: skip
        for n in range(rows):
            day = f"2026-{n % 12 + 1:02d}-{n % 28 + 1:02d}"
            if n % 3 == 0:  # a third by places: the service calculates the distance
                origin, destination = rng.sample(CITIES, 2)
                out.writerow([f"bt-{n}", day, "train", "", origin, destination, 1, "no"])
            else:
                mode = rng.choice(["car", "bus", "train"])
                km = round(rng.uniform(5, 900), 1)
                out.writerow([f"bt-{n}", day, mode, km, "", "", rng.randint(1, 4), "yes"])
    return path


def requests_csv(path: Path, rows: int) -> Path:
    rng = random.Random(11)
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["movement_id", "movement_stretch", "shipment_date", "origin", "destination",
                      "distance_km", "load", "load_unit", "toc", "category", "client"])  # fmt: skip
        for n in range(rows):
            day = f"2026-{n % 12 + 1:02d}-{n % 28 + 1:02d}"
            if n % 4 == 0:
                origin, destination = rng.sample(CITIES, 2)
                load = rng.randint(200, 20000)
                out.writerow([f"MOV-{n // 2:07d}", n % 2 + 1, day, origin, destination, "",
                              load, "kg", "", "road", "Cliente Norte"])  # fmt: skip
            else:
                out.writerow([f"MOV-{n // 2:07d}", n % 2 + 1, day, "", "",
                              round(rng.uniform(10, 1500), 1), rng.randint(1, 24), "pallets",
                              "articulated_truck_diesel", "", "Cliente Sur"])  # fmt: skip
    return path


def measure(
    sandbox: SandboxServer,
    counter: CountingTransport,
    resource: str,
    path: Path,
    rows: int,
    warehouse: Path,
) -> dict[str, object]:
    counter.reset()
    counter.statuses.clear()
    auth = ApiKeyAuth(sandbox.org.api_key, sandbox.org.organization_id)
    with EmissionsClient(
        sandbox.base_url, auth, transport=counter, policies=resource_limits()
    ) as client:
        started = time.perf_counter()
        summary = load_file(
            path,
            api=client,
            warehouse=Warehouse(warehouse),
            spec=RESOURCES[resource],
            options=LoadOptions(settle_seconds=600),
        )
        seconds = time.perf_counter() - started
    writes = {k: v for k, v in counter.most.items() if k.startswith(("POST", "PATCH"))}
    readback = summary.seconds.get("calculate", 0.0) + summary.seconds.get("land", 0.0)
    return {
        "resource": resource,
        "warehouse": warehouse.name,
        "rows": rows,
        "sent": summary.rows_sent,
        "adopted": summary.rows_adopted,
        "loaded": summary.rows_loaded,
        "rejected": summary.rows_rejected,
        "seconds": round(seconds, 1),
        "rows_per_s": round(rows / seconds),
        "in_flight_max": max(counter.most.values(), default=0),
        "in_flight_max_writes": writes,
        "answers_429": counter.statuses[429],
        "requests": sum(counter.statuses.values()),
        "land_share": round(readback / seconds, 2),
        **{f"{stage}_s": round(value, 1) for stage, value in sorted(summary.seconds.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--travels", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=60_000)
    args = parser.parse_args()
    loads: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-resources-") as tmp:
        workdir = Path(tmp)
        with provisioned_sandbox(workdir) as sandbox:
            with sqlite3.connect(sandbox.db_path) as db:
                db.execute(
                    "INSERT OR REPLACE INTO business_travel_limits VALUES (?, ?)",
                    (sandbox.org.organization_id, args.travels + 1_000),
                )
            tls = ssl.create_default_context(cafile=str(sandbox.ca_file))
            limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
            counter = CountingTransport(httpx.HTTPTransport(verify=tls, limits=limits))
            plan = [
                ("business_travels", travels_csv, args.travels),
                ("logistics_requests", requests_csv, args.requests),
            ]
            for resource, make, rows in plan:
                if rows <= 0 or resource not in RESOURCES:
                    continue
                path = make(workdir / f"{resource}.csv", rows)
                for warehouse in ("first.duckdb", "second-empty.duckdb"):
                    figures = measure(
                        sandbox, counter, resource, path, rows, workdir / f"{resource}-{warehouse}"
                    )
                    print("  ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
                    loads.append(figures)
    write_results(
        "bench_resources",
        {"loads": loads},
        parameters={"travels": args.travels, "requests": args.requests},
    )


if __name__ == "__main__":
    main()
