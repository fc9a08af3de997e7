"""The warehouse's memory limit, spill folder, threads and upkeep as a user sets them: each
command that opens the warehouse shows ``--warehouse-memory``, ``--warehouse-temp`` and
``--warehouse-threads`` with their variables, and ``maintain-warehouse`` its ``--retention``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl


def help_text(*command: str) -> str:
    done = run_etl([*command, "--help"], env={"COLUMNS": "200", "PATH": ""}, timeout=60)
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())  # the help as text, whatever the wrapping


@pytest.mark.parametrize(
    "command",
    ["load", "sql", "report", "inventory", "rebuild-warehouse", "maintain-warehouse"],
)
def test_each_command_opening_the_warehouse_takes_its_memory_spill_folder_and_threads(
    command: str,
) -> None:
    words = help_text(command)

    assert "--warehouse-memory" in words
    assert "[env var: EMISSIONS_WAREHOUSE_MEMORY]" in words
    assert "--warehouse-temp" in words
    assert "[env var: EMISSIONS_WAREHOUSE_TEMP]" in words
    assert "--warehouse-threads THREADS" in words
    assert "[env var: EMISSIONS_WAREHOUSE_THREADS; x>=1]" in words


@pytest.mark.parametrize(
    ("given", "option", "threads"),
    [
        ({"EMISSIONS_WAREHOUSE_THREADS": "3"}, [], 3),
        ({}, [], os.cpu_count()),
        ({}, ["--warehouse-threads", "2"], 2),
    ],
    ids=["variable", "default", "option"],
)
def test_duckdb_runs_on_the_threads_set_or_one_per_core(
    tmp_path: Path, given: dict[str, str], option: list[str], threads: int
) -> None:
    path = tmp_path / "warehouse.duckdb"
    with Warehouse(path).writer():
        pass
    done = run_etl(
        ["sql", "--warehouse", str(path), *option, "--format", "csv",
         "SELECT current_setting('threads') AS threads"],
        env=given,  # the variable alone: not the tests' own setting
        timeout=60,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["threads", str(threads)]


def test_a_thread_count_below_one_is_refused_in_one_line(tmp_path: Path) -> None:
    done = run_etl(["sql", "--warehouse-threads", "0", "SELECT 1"], timeout=60)

    assert done.returncode == 2
    assert "--warehouse-threads" in done.stderr
    assert "Traceback" not in done.stderr


def test_maintain_warehouse_takes_the_retention_in_days() -> None:
    words = help_text("maintain-warehouse")

    assert "--retention DAYS" in words
    assert "[env var: EMISSIONS_WAREHOUSE_RETENTION_DAYS" in words
    assert "filed_inventories" in words


def test_maintaining_where_no_warehouse_is_exits_2_in_one_line(tmp_path: Path) -> None:
    done = run_etl(["maintain-warehouse", "--warehouse", str(tmp_path / "none.duckdb")], timeout=60)

    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'none.duckdb'}: no warehouse here yet (nothing has been loaded)"
    ]
