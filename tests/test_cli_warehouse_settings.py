"""The warehouse's memory limit, spill folder and upkeep as a user sets them: each command that
opens the warehouse shows ``--warehouse-memory`` and ``--warehouse-temp`` with their variables,
and ``maintain-warehouse`` its ``--retention``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_process import run_etl


def help_text(*command: str) -> str:
    done = run_etl([*command, "--help"], env={"COLUMNS": "200", "PATH": ""}, timeout=60)
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())  # the help as text, whatever the wrapping


@pytest.mark.parametrize(
    "command",
    ["load", "sql", "report", "inventory", "rebuild-warehouse", "maintain-warehouse"],
)
def test_each_command_opening_the_warehouse_takes_its_memory_and_spill_folder(
    command: str,
) -> None:
    words = help_text(command)

    assert "--warehouse-memory" in words
    assert "[env var: EMISSIONS_WAREHOUSE_MEMORY]" in words
    assert "--warehouse-temp" in words
    assert "[env var: EMISSIONS_WAREHOUSE_TEMP]" in words


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
