"""LocalTokenSource: one pool of tokens per bucket, shared through a SQLite file."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.client import Bucket, Lease, LocalTokenSource
from emissions_etl.errors import ConfigurationError

RATE = Bucket("rate", "caller", "POST", "/v1/logistics/requests")
SLOTS = Bucket("slots", "caller", "POST", "/v1/logistics/requests/bulk")
NOW = 1_800_000_000.0


def take(source: LocalTokenSource, bucket: Bucket, capacity: int, now: float = NOW) -> Lease:
    got = source.take(bucket, capacity, now, reclaim_delay=1.0)
    assert isinstance(got, Lease), f"expected a token, got a wait of {got}"
    return got


def test_two_sources_on_one_file_share_one_pool(tmp_path: Path) -> None:
    first = LocalTokenSource(tmp_path / "limits.sqlite3")
    second = LocalTokenSource(tmp_path / "limits.sqlite3")
    leases = [take(first, RATE, 3), take(first, RATE, 3), take(second, RATE, 3)]
    assert second.take(RATE, 3, NOW, reclaim_delay=1.0) == pytest.approx(0.005)  # in flight
    for lease, returns_in in zip(leases, (0.4, 0.7, 0.9), strict=True):
        (first if lease is not leases[2] else second).give_back(lease, NOW + returns_in)
    assert second.take(RATE, 3, NOW, reclaim_delay=1.0) == pytest.approx(0.4)
    take(second, RATE, 3, now=NOW + 0.4)
    assert isinstance(first.take(RATE, 3, NOW + 0.4, reclaim_delay=1.0), float)  # full again


def test_buckets_do_not_share_tokens(tmp_path: Path) -> None:
    source = LocalTokenSource(tmp_path / "limits.sqlite3")
    take(source, RATE, 1)
    take(source, SLOTS, 1)
    take(source, Bucket("rate", "other caller", "POST", RATE.route), 1)


def test_server_counts_add_only_what_no_sharer_took(tmp_path: Path) -> None:
    source = LocalTokenSource(tmp_path / "limits.sqlite3")
    lease = take(source, RATE, 30)
    source.give_back(lease, NOW + 0.5)
    source.match_server(
        RATE, used=1, since=NOW + 0.4, until=NOW + 0.5, now=NOW
    )  # that was our own request
    take(source, RATE, 2)
    for _ in range(28):
        take(source, RATE, 30)
    source.match_server(RATE, used=40, since=NOW + 0.4, until=NOW + 0.5, now=NOW)  # 10 we never saw
    take(source, RATE, 41)
    assert source.take(RATE, 41, NOW, reclaim_delay=1.0) == pytest.approx(0.005)
    take(source, RATE, 41, now=NOW + 0.5)  # they are held until the window ends, no longer


def test_a_token_of_a_dead_process_is_reclaimed(tmp_path: Path) -> None:
    path = tmp_path / "limits.sqlite3"
    script = f"""
        import os
        from pathlib import Path
        from emissions_etl.client import Bucket, LocalTokenSource
        source = LocalTokenSource(Path({str(path)!r}))
        source.take(Bucket("slots", "caller", "POST", {SLOTS.route!r}), 1, {NOW}, 0.0)
        os._exit(0)  # dies with its request in flight
    """
    subprocess.run([sys.executable, "-c", textwrap.dedent(script)], check=True, timeout=60)
    take(LocalTokenSource(path), SLOTS, 1)


def test_a_token_nobody_settled_is_reclaimed_when_its_lease_expires(tmp_path: Path) -> None:
    source = LocalTokenSource(tmp_path / "limits.sqlite3", lease_seconds=60)
    take(source, RATE, 1)
    assert isinstance(source.take(RATE, 1, NOW + 59, reclaim_delay=1.0), float)
    assert source.take(RATE, 1, NOW + 61, reclaim_delay=1.0) == pytest.approx(1.0)
    take(source, RATE, 1, now=NOW + 62)  # the rate token stays one window after its reclaim


def test_in_memory_the_pool_is_this_processs_alone(tmp_path: Path) -> None:
    source = LocalTokenSource()
    take(source, RATE, 1)
    take(LocalTokenSource(), RATE, 1)
    assert repr(source) == "LocalTokenSource(in memory)"


def test_an_unusable_file_is_a_configuration_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    with pytest.raises(ConfigurationError, match="limits file"):
        LocalTokenSource(blocker / "limits.sqlite3")


def test_a_file_locked_too_long_by_another_process_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "limits.sqlite3"
    source = LocalTokenSource(path, lock_wait_seconds=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a stuck process holding the write lock
    try:
        with pytest.raises(ConfigurationError, match="held it over 0.2 s"):
            source.take(RATE, 3, NOW, reclaim_delay=1.0)
    finally:
        holder.execute("ROLLBACK")
    take(source, RATE, 3)  # usable again once the lock is gone


def _open_after(path: Path, start: Any, answers: Any) -> None:
    start.wait()
    try:
        LocalTokenSource(path)
        answers.put("")
    except ConfigurationError as exc:
        answers.put(str(exc))


def test_processes_opening_a_new_file_together_all_open_it(tmp_path: Path) -> None:
    # Before the switch to WAL was tried again, about one round in four failed one of them.
    context = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(10):
        start, answers = context.Barrier(4), context.Queue()
        path = tmp_path / f"limits-{round_}.sqlite3"
        children = [
            context.Process(target=_open_after, args=(path, start, answers)) for _ in range(4)
        ]
        for child in children:
            child.start()
        failures += [answer for answer in (answers.get(timeout=60) for _ in children) if answer]
        for child in children:
            child.join(timeout=60)
    assert failures == []
