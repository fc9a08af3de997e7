"""One writer at a time: a second load waits, then fails clearly; readers come after."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse import Warehouse

from .conftest import source_frame


def _hold_writer(warehouse: Warehouse, seconds: float, started: threading.Event) -> None:
    with warehouse.writer():
        started.set()
        time.sleep(seconds)


@pytest.fixture
def held(warehouse: Warehouse) -> Iterator[threading.Thread]:
    """A thread holding the warehouse's writer for 1.5 s."""
    started = threading.Event()
    thread = threading.Thread(target=_hold_writer, args=(warehouse, 1.5, started))
    thread.start()
    assert started.wait(10)
    yield thread
    thread.join()


def test_a_second_writer_waits_then_fails_naming_the_holder(
    warehouse: Warehouse, held: threading.Thread
) -> None:
    began = time.monotonic()

    with (
        pytest.raises(
            WarehouseError, match=rf"being written by another load \(pid {os.getpid()}\)"
        ),
        Warehouse(warehouse.path).writer(wait_seconds=0.3),
    ):
        pass

    assert time.monotonic() - began >= 0.3


def test_a_second_writer_proceeds_once_the_first_finishes(
    warehouse: Warehouse, held: threading.Thread
) -> None:
    with Warehouse(warehouse.path).writer(wait_seconds=20) as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(["r1"]))

    assert not held.is_alive()
    assert warehouse.query("SELECT count(*) AS n FROM source_rows")["n"][0] == 1


def test_a_waiting_writer_says_whom_it_waits_for_then_gives_up_in_one_line(
    warehouse: Warehouse, held: threading.Thread, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl.warehouse import _lock

    monkeypatch.setattr(_lock, "PROGRESS_AFTER_SECONDS", 0.1)
    monkeypatch.setattr(_lock, "PROGRESS_EVERY_SECONDS", 0.3)
    lines: list[str] = []

    with (
        pytest.raises(WarehouseError) as raised,
        Warehouse(warehouse.path, wait_seconds=0.8, say=lines.append).writer(),
    ):
        pass

    assert lines, "no word while waiting"
    assert lines[0].startswith(
        f"waiting for {warehouse.path}: another load (pid {os.getpid()}) is writing it; "
    )
    assert lines[0].endswith("of at most 0.8 s")
    assert len(lines) <= 4  # now and then, not at every poll
    assert str(raised.value) == (
        f"{warehouse.path} is being written by another load (pid {os.getpid()}); waited "
        "0.8 s: try again once it ends"
    )


def test_a_writer_waits_ten_minutes_by_default(warehouse: Warehouse) -> None:
    assert Warehouse(warehouse.path).wait_seconds == 600


def test_query_works_after_the_writer_closed(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(["r1", "r2"]))

    assert warehouse.query("SELECT count(*) AS n FROM source_rows")["n"][0] == 2
    assert warehouse.query("SELECT ? AS x", [7])["x"][0] == 7


def test_query_inside_the_writer_reads_through_its_connection(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(["r1"]))
        inside = warehouse.query("SELECT count(*) AS n FROM source_rows")
        other_object = Warehouse(warehouse.path).query("SELECT count(*) AS n FROM source_rows")

    assert inside["n"][0] == 1
    assert other_object["n"][0] == 1


def test_a_file_held_by_another_program_gives_a_one_line_warehouse_error(
    warehouse: Warehouse, tmp_path: Path
) -> None:
    with warehouse.writer():
        pass
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
            "sys.stdin.read()",
            str(warehouse.path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(WarehouseError) as raised, warehouse.writer(wait_seconds=0):
            pass
    finally:
        holder.communicate(input="", timeout=10)

    message = str(raised.value)
    assert "\n" not in message
    assert f"pid {holder.pid}" in message
    assert "close it there" in message
