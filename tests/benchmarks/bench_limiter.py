"""Benchmark of the client's limiter (a script, not a test) against a served sandbox with its
test routes: the share of the allowed rate one process and two processes on one API key reach on
the 30/s route (target >= 0.95, zero 429), and the requests in flight on the 10-slot route.

Run: .venv/bin/python -m tests.benchmarks.bench_limiter [LINE ...] (LINES below; all by default)

Every line drives the limiter's own transport (no retries), so a 429 shows as a 429, from
fresh processes for ``SECONDS`` each, started together once each thread has its connection
(``tests.limits_driver``). The ``-prefect`` lines share through a Prefect test server's global
concurrency limits, as ``emissions-etl prefect-setup`` creates them, and no limits file: one
machine of several (``rate-prefect-one``), or two.
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from emissions_etl.client import DEFAULT_OCCUPY, prefect_limits
from tests.benchmarks.results import write_results
from tests.limits_driver import (
    POLICIES,
    RATE,
    RATE_ROUTE,
    SLOT_ROUTE,
    SLOTS,
    Job,
    run_processes,
)
from tests.sandbox_fixture import create_org, provisioned_sandbox

SECONDS = 10.0
RATE_THREADS = 10
SLOT_THREADS = 16
HOLD = 0.3
LINES = ("rate", "rate-shared", "slots", "slots-shared")  # and, on demand:
# -prefect: through a Prefect server
MORE_LINES = ("rate-unshared", "rate-prefect-one", "rate-prefect", "slots-prefect")
#: Each line's figures as printed, for write_results.
FOUND: list[dict[str, Any]] = []


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
    whole = sum(inside) / (RATE * len(inside))
    answers_429 = sum(1 for row in rows if row[2] == 429)
    print(
        f"{label}: {rate:.1f} req/s = {rate / RATE:.3f} of 30/s, "
        f"{whole:.3f} in the {len(inside)} whole windows "
        f"({len(ok)} ok, per process {split}; {len(ok) / (RATE * overlapped):.3f} of the "
        f"{overlapped} windows overlapped), 429s: {answers_429}; "
        f"whole windows: {' '.join(map(str, inside))}"
    )
    FOUND.append({"line": label, "requests_per_s": round(rate, 1),
                  "share_of_rate": round(rate / RATE, 3), "share_in_whole_windows": round(whole, 3),
                  "per_process": split, "answers_429": answers_429})  # fmt: skip


def slot_line(label: str, rows: list[list[Any]], start: float, deadline: float) -> None:
    """Most requests in flight at once (from the client's side: an upper bound of what the
    server counts) and the mean in flight over the run and over each of its seconds, as a
    share of the cap."""
    events = sorted([(row[0], 1) for row in rows] + [(row[1], -1) for row in rows])
    in_flight = busiest = 0
    per_second = [0.0] * math.ceil(deadline - start)
    previous = start
    for moment, step in events:
        clipped = min(max(moment, start), deadline)
        while previous < clipped:  # spread the time since the last event over its seconds
            second = int(previous - start)
            until = min(clipped, start + second + 1)
            per_second[second] += in_flight * (until - previous)
            previous = until
        in_flight += step
        busiest = max(busiest, in_flight)
    ok = sum(1 for row in rows if 200 <= row[2] < 300)
    mean = sum(per_second) / (deadline - start) / SLOTS
    answers_429 = sum(1 for row in rows if row[2] == 429)
    print(
        f"{label}: max in flight {busiest} (cap {SLOTS}), mean in flight "
        f"{mean:.3f} of the cap, {ok} ok, "
        f"429s: {answers_429}; each second: "
        f"{' '.join(f'{share / SLOTS:.2f}' for share in per_second)}"
    )
    FOUND.append({"line": label, "max_in_flight": busiest, "cap": SLOTS,
                  "mean_share_of_cap": round(mean, 3), "ok": ok,
                  "answers_429": answers_429})  # fmt: skip


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
        for line, processes in (("rate-prefect-one", 1), ("rate-prefect", 2)):
            if line not in lines:
                continue
            with _prefect_limits() as api_url:
                rows = run(
                    line,
                    RATE_ROUTE,
                    RATE_THREADS,
                    processes,
                    shared=False,
                    env={"PREFECT_API_URL": api_url},
                    prefect_occupy=DEFAULT_OCCUPY,
                )
            who = "one process" if processes == 1 else "two processes"
            rate_line(
                f"{who} x {RATE_THREADS} threads, one key, no file, Prefect limit "
                f"({RATE} slots, leases of {DEFAULT_OCCUPY})",
                *rows,
            )
        if "slots" in lines:
            rows = run("slots one", SLOT_ROUTE, SLOT_THREADS, 1, shared=False, hold=HOLD)
            slot_line(f"one process x {SLOT_THREADS} threads, 10-slot route, hold {HOLD}s", *rows)
        if "slots-shared" in lines:
            rows = run("slots two", SLOT_ROUTE, SLOT_THREADS, 2, shared=True, hold=HOLD)
            slot_line(f"two processes x {SLOT_THREADS} threads, one key, shared file", *rows)
        if "slots-prefect" in lines:
            with _prefect_limits() as api_url:
                rows = run(
                    "slots prefect",
                    SLOT_ROUTE,
                    SLOT_THREADS,
                    2,
                    shared=False,
                    env={"PREFECT_API_URL": api_url},
                    hold=HOLD,
                    prefect_occupy=DEFAULT_OCCUPY,
                )
            slot_line(
                f"two processes x {SLOT_THREADS} threads, one key, no file, Prefect limit", *rows
            )


@contextmanager
def _prefect_limits() -> Iterator[str]:
    """A Prefect test server with the limits of the bench's routes; yields its API URL."""
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        asyncio.run(_create_limits())
        yield str(PREFECT_API_URL.value())


async def _create_limits() -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate

    async with get_client() as client:
        for limit in prefect_limits(POLICIES):
            await client.create_global_concurrency_limit(
                GlobalConcurrencyLimitCreate(name=limit.name, limit=limit.limit)
            )


if __name__ == "__main__":
    chosen = sys.argv[1:] or LINES
    main(chosen)
    write_results(
        "bench_limiter",
        {"lines": FOUND},
        parameters={"lines": list(chosen), "seconds": SECONDS, "rate_threads": RATE_THREADS,
                    "slot_threads": SLOT_THREADS, "hold_s": HOLD},
    )  # fmt: skip
