"""Drive the client's limiter from several processes at once, as several machines or flow runs
on one API key would: each process posts to a sandbox route from many threads, all starting
together, and reports when each request left the limiter, when its body was read, its status and
the server window that counted it. Used by ``benchmarks/bench_limiter.py`` and the tests of
limits shared through Prefect.

Run as ``python -m tests.limits_driver`` (a worker: a job line in, "ready", a start time in,
rows out); the API key travels by environment, never by argv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from emissions_etl.client import (
    LimitPolicy,
    LocalTokenSource,
    PrefectTokenSource,
    RateLimitTransport,
    TokenSource,
)
from tests.sandbox_fixture import tls_context

RATE_ROUTE = "/_test/rate-limited"
SLOT_ROUTE = "/_test/concurrency-limited"
WARM_UP_ROUTE = "/_test/org-admin"  # limited by nothing
RATE = 30
SLOTS = 10
POLICIES = {
    ("POST", RATE_ROUTE): LimitPolicy(rate_per_second=RATE),
    ("POST", SLOT_ROUTE): LimitPolicy(max_concurrency=SLOTS),
}
_KEY_ENV = "LIMITS_DRIVER_API_KEY"


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
    #: Through the Prefect server's limits (PREFECT_API_URL), rate tokens leased this many at a
    #: time; None: this machine's pools only.
    prefect_occupy: int | None = None


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
        from prefect.client.orchestration import get_client

        # Prefect's client starts on its first call (seconds): a flow run has paid it already.
        with get_client(sync_client=True) as prefect:
            prefect.api_healthcheck()
        source = PrefectTokenSource(source, occupy=job.prefect_occupy)
    transport = RateLimitTransport(
        recorder, policies=POLICIES, token_source=source, owns_token_source=True
    )
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
    command = [sys.executable, "-m", "tests.limits_driver"]
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


def count_statuses(rows: Sequence[Sequence[Any]]) -> dict[int, int]:
    """How many answers had each status."""
    counts: dict[int, int] = {}
    for row in rows:
        counts[row[2]] = counts.get(row[2], 0) + 1
    return counts


def most_in_flight(rows: Sequence[Sequence[Any]]) -> int:
    """Most requests between leaving the limiter and having their body read at once, over every
    process's rows: what the limiter let out together (a request holds its slot longer)."""
    events = sorted([(row[0], 1) for row in rows] + [(row[1], -1) for row in rows])
    in_flight = busiest = 0
    for _, step in events:  # at one moment, ends come before starts
        in_flight += step
        busiest = max(busiest, in_flight)
    return busiest


def worker() -> None:
    """The process side of run_processes: a job line in, "ready", a start time in, rows out."""
    job = Job(**json.loads(sys.stdin.readline()))

    def start_at() -> float:
        print("ready", flush=True)
        return float(sys.stdin.readline())

    json.dump(drive(job, os.environ[_KEY_ENV], start_at), sys.stdout)


if __name__ == "__main__":
    worker()
