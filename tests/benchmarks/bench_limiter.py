"""Benchmark of the client's limiter (a script, not a test) against a served sandbox with its
test routes: the share of the allowed rate one process and two processes on one API key reach on
the 30/s route (target >= 0.95, zero 429), and the requests in flight on the 10-slot route.

Run: .venv/bin/python -m tests.benchmarks.bench_limiter [LINE ...] (LINES below; all by default)

Every line drives the limiter's own transport (no retries), so a 429 shows as a 429, from
fresh processes for ``SECONDS`` each, started together once each thread has its connection.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from emissions_etl.client import (
    Bucket,
    LimitPolicy,
    LocalTokenSource,
    PrefectTokenSource,
    RateLimitTransport,
    TokenSource,
)
from emissions_etl.client._prefect_budget import limit_name
from tests.sandbox_fixture import create_org, provisioned_sandbox, tls_context

RATE_ROUTE = "/_test/rate-limited"
SLOT_ROUTE = "/_test/concurrency-limited"
WARM_UP_ROUTE = "/_test/org-admin"  # limited by nothing
RATE = 30
SLOTS = 10
POLICIES = {
    ("POST", RATE_ROUTE): LimitPolicy(rate_per_second=RATE),
    ("POST", SLOT_ROUTE): LimitPolicy(max_concurrency=SLOTS),
}
SECONDS = 10.0
RATE_THREADS = 10
SLOT_THREADS = 16
HOLD = 0.3
LINES = ("rate", "rate-shared", "slots", "slots-shared")  # and, on demand:
MORE_LINES = ("rate-unshared", "rate-prefect")  # the latter starts a Prefect test server
PREFECT_OCCUPY = 10
PREFECT_DECAY = 28.5  # slots per second: the share of 30/s all workers together may use
_KEY_ENV = "BENCH_LIMITER_API_KEY"  # the key travels by environment, never by argv


@dataclass(frozen=True)
class Job:
    """What one driving process does (everything but the key, which is in the environment)."""

    base_url: str
    ca_file: str
    organization_id: str
    route: str
    seconds: float
    threads: int
    shared_budget_path: str | None = None
    hold: float | None = None
    prefect_occupy: int | None = None  # lease tokens from Prefect, this many at a time


def drive(job: Job, api_key: str, start_at: Callable[[], float]) -> list[list[Any]]:
    """Post to ``job.route`` from ``job.threads`` threads for ``job.seconds``.

    Each thread first opens its connection (TLS included) on an unlimited route; then
    ``start_at()`` says when to begin (wall seconds, so several processes start together).
    Returns one ``[sent, done, status, window]`` per request: wall seconds when the limiter let
    it through and when its body was read, and the ``X-RateLimit-Reset`` of the answer (or None).
    """
    shared = Path(job.shared_budget_path) if job.shared_budget_path else None
    recorder = _Recorder(httpx.HTTPTransport(verify=tls_context(Path(job.ca_file))))
    source: TokenSource = LocalTokenSource(shared)
    if job.prefect_occupy:
        from prefect.concurrency.sync import rate_limit

        # Prefect's client starts on its first call (seconds): a flow run has paid it already.
        rate_limit(limit_name(Bucket("rate", "", "POST", job.route)), occupy=1, strict=True)
        source = PrefectTokenSource(source, occupy=job.prefect_occupy)
    transport = RateLimitTransport(recorder, policies=POLICIES, token_source=source)
    headers = {"x-api-key": api_key, "x-organization-id": job.organization_id}
    params = {"hold": job.hold} if job.hold is not None else None
    rows: list[list[Any]] = []
    lock = threading.Lock()
    with httpx.Client(
        base_url=job.base_url, transport=transport, headers=headers, timeout=30
    ) as client:
        warm = threading.Barrier(job.threads + 1)
        go = threading.Event()
        begin: list[float] = []

        def loop() -> None:
            client.get(WARM_UP_ROUTE).raise_for_status()
            warm.wait()
            go.wait()
            time.sleep(max(0.0, begin[0] - time.time()))
            while time.time() < begin[0] + job.seconds:
                response = client.post(job.route, params=params)
                sent, done = recorder.times.pop(id(response.request))
                window = response.headers.get("x-ratelimit-reset")
                with lock:
                    rows.append([sent, done, response.status_code, window and int(window)])

        threads = [threading.Thread(target=loop) for _ in range(job.threads)]
        for thread in threads:
            thread.start()
        warm.wait()
        begin.append(start_at())
        go.set()
        for thread in threads:
            thread.join()
    return rows


class _Recorder(httpx.BaseTransport):
    """Notes when each request leaves the limiter and when its body has been read."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self._inner = inner
        self.times: dict[int, tuple[float, float]] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        sent = time.time()
        response = self._inner.handle_request(request)
        assert isinstance(response.stream, httpx.SyncByteStream)
        body = response.stream

        def closed() -> None:
            self.times[id(request)] = (sent, time.time())

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_TimedStream(body, closed),
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        self._inner.close()


class _TimedStream(httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, closed: Any) -> None:
        self._inner, self._closed = inner, closed

    def __iter__(self) -> Iterator[bytes]:
        yield from self._inner

    def close(self) -> None:
        self._inner.close()
        self._closed()


def run_processes(
    jobs: Sequence[Job], api_key: str, env: Mapping[str, str] | None = None
) -> tuple[list[list[Any]], float]:
    """Run each job in its own Python process (this module with ``--worker``), all starting
    together once every one is warm; every row with its process's index appended, and the
    start time."""
    env = {**os.environ, **(env or {}), _KEY_ENV: api_key}
    command = [sys.executable, "-m", "tests.benchmarks.bench_limiter", "--worker"]
    workers = [
        subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1
        )
        for _ in jobs
    ]
    for worker, job in zip(workers, jobs, strict=True):
        _pipes(worker)[0].write(json.dumps(asdict(job)) + "\n")
    for worker in workers:
        if _pipes(worker)[1].readline().strip() != "ready":
            raise RuntimeError("a benchmark worker failed (its error is above)")
    start_at = time.time() + 0.5
    for worker in workers:
        _pipes(worker)[0].write(f"{start_at}\n")
    outputs = [_pipes(worker)[1].read() for worker in workers]
    for worker in workers:
        worker.wait(timeout=60)
    if any(worker.returncode for worker in workers):
        raise RuntimeError("a benchmark worker failed (its error is above)")
    per_process = [json.loads(output) for output in outputs]
    rows = [[*row, index] for index, rows in enumerate(per_process) for row in rows]
    return rows, start_at


def _pipes(worker: subprocess.Popen[str]) -> tuple[IO[str], IO[str]]:
    assert worker.stdin is not None
    assert worker.stdout is not None
    return worker.stdin, worker.stdout


def rate_line(label: str, rows: list[list[Any]], start: float, deadline: float) -> None:
    """2xx answers to requests sent during the run: per second against 30/s, per server window
    wholly inside the run against 30 (the sandbox's windows are whole seconds of this machine's
    clock), and against 30 for every window the run overlaps (11 for 10 s: the first and last
    are partly outside the run, so this share is lower)."""
    ok = [row for row in rows if row[0] < deadline and 200 <= row[2] < 300]
    overlapped = math.ceil(deadline) - math.floor(start)
    per_window = Counter(row[3] for row in ok)
    inside = [per_window.get(w, 0) for w in range(math.ceil(start) + 1, math.floor(deadline) + 1)]
    split = "/".join(str(n) for _, n in sorted(Counter(row[4] for row in ok).items()))
    rate = len(ok) / (deadline - start)
    print(
        f"{label}: {rate:.1f} req/s = {rate / RATE:.3f} of 30/s, "
        f"{sum(inside) / (RATE * len(inside)):.3f} in the {len(inside)} whole windows "
        f"({len(ok)} ok, per process {split}; {len(ok) / (RATE * overlapped):.3f} of the "
        f"{overlapped} windows overlapped), 429s: {sum(1 for row in rows if row[2] == 429)}"
    )


def slot_line(label: str, rows: list[list[Any]], start: float, deadline: float) -> None:
    """Most requests in flight at once (from the client's side: an upper bound of what the
    server counts) and the mean in flight over the run, as a share of the cap."""
    events = sorted([(row[0], 1) for row in rows] + [(row[1], -1) for row in rows])
    in_flight = busiest = 0
    occupied = 0.0
    previous = start
    for moment, step in events:
        clipped = min(max(moment, start), deadline)
        occupied += in_flight * (clipped - previous)
        previous = clipped
        in_flight += step
        busiest = max(busiest, in_flight)
    ok = sum(1 for row in rows if 200 <= row[2] < 300)
    print(
        f"{label}: max in flight {busiest} (cap {SLOTS}), mean in flight "
        f"{occupied / (deadline - start) / SLOTS:.3f} of the cap, {ok} ok, "
        f"429s: {sum(1 for row in rows if row[2] == 429)}"
    )


def main(lines: Sequence[str]) -> None:
    with (
        tempfile.TemporaryDirectory() as workdir,
        provisioned_sandbox(Path(workdir), extra=("--test-routes",)) as server,
    ):

        def run(
            name: str,
            route: str,
            threads: int,
            processes: int,
            *,
            shared: bool,
            env: Mapping[str, str] | None = None,
            **more: Any,
        ) -> tuple[list[list[Any]], float, float]:
            org = create_org(server.db_path, name)  # a fresh key: windows untouched by others
            path = str(Path(workdir) / f"{name}.sqlite3") if shared else None
            job = Job(
                server.base_url,
                str(server.ca_file),
                org.organization_id,
                route,
                SECONDS,
                threads,
                shared_budget_path=path,
                **more,
            )
            rows, start_at = run_processes([job] * processes, org.api_key, env)
            return rows, start_at, start_at + SECONDS

        if "rate" in lines:
            rows = run("rate one", RATE_ROUTE, RATE_THREADS, 1, shared=False)
            rate_line(f"one process x {RATE_THREADS} threads, 30/s route", *rows)
        if "rate-shared" in lines:
            rows = run("rate two", RATE_ROUTE, RATE_THREADS, 2, shared=True)
            rate_line(f"two processes x {RATE_THREADS} threads, one key, shared file", *rows)
        if "rate-unshared" in lines:
            rows = run("rate two alone", RATE_ROUTE, RATE_THREADS, 2, shared=False)
            rate_line(f"two processes x {RATE_THREADS} threads, one key, no file", *rows)
        if "rate-prefect" in lines:
            with _prefect_rate_limit() as api_url:
                rows = run(
                    "rate prefect",
                    RATE_ROUTE,
                    RATE_THREADS,
                    2,
                    shared=False,
                    env={"PREFECT_API_URL": api_url},
                    prefect_occupy=PREFECT_OCCUPY,
                )
            rate_line(
                f"two processes x {RATE_THREADS} threads, one key, no file, Prefect limit "
                f"(decay {PREFECT_DECAY}/s, occupy {PREFECT_OCCUPY})",
                *rows,
            )
        if "slots" in lines:
            rows = run("slots one", SLOT_ROUTE, SLOT_THREADS, 1, shared=False, hold=HOLD)
            slot_line(f"one process x {SLOT_THREADS} threads, 10-slot route, hold {HOLD}s", *rows)
        if "slots-shared" in lines:
            rows = run("slots two", SLOT_ROUTE, SLOT_THREADS, 2, shared=True, hold=HOLD)
            slot_line(f"two processes x {SLOT_THREADS} threads, one key, shared file", *rows)


@contextmanager
def _prefect_rate_limit() -> Iterator[str]:
    """A Prefect test server with the limit of the bench's rate route; yields its API URL."""
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    name = limit_name(Bucket("rate", "", "POST", RATE_ROUTE))
    limit = GlobalConcurrencyLimitCreate(
        name=name, limit=2 * PREFECT_OCCUPY, slot_decay_per_second=PREFECT_DECAY
    )

    async def create() -> None:
        async with get_client() as client:
            await client.create_global_concurrency_limit(limit)

    with prefect_test_harness(server_startup_timeout=180):
        asyncio.run(create())
        yield str(PREFECT_API_URL.value())


def worker() -> None:
    """The ``--worker`` side of run_processes: a job line in, "ready", a start time in, rows out."""
    job = Job(**json.loads(sys.stdin.readline()))

    def start_at() -> float:
        print("ready", flush=True)
        return float(sys.stdin.readline())

    json.dump(drive(job, os.environ[_KEY_ENV], start_at), sys.stdout)


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main(sys.argv[1:] or LINES)
