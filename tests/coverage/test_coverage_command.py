"""``emissions-etl coverage`` as people and schedulers run it: the matrix and the gaps, exit 1
when a gap is overdue and 0 otherwise, the file it writes, and one-line errors (exit 2)."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import openpyxl
import pytest

from tests.cli_process import run_etl
from tests.coverage.conftest import build_gaps_warehouse, land

MATRIX_HEADER = ["resource", "entity", *(f"{m:02d}" for m in range(1, 13))]
MARKS = {"●", "✗", "○", "·"}


def coverage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(["coverage", *args], timeout=180, env={**clean, "COLUMNS": "200", **env})


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int, says: str) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.strip().startswith("error: "), done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert says in done.stderr


@pytest.fixture
def gaps(tmp_path: Path) -> str:
    return str(build_gaps_warehouse(tmp_path / "w.duckdb").path)


def matrix_rows(stdout: str) -> dict[tuple[str, str], list[str]]:
    """(resource, entity) -> the marks of each month, from the printed matrix."""
    rows = {}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) > 12 and set(words[-12:]) <= MARKS:
            rows[(words[0], " ".join(words[1:-12]))] = words[-12:]
    return rows


def test_overdue_gaps_exit_1_after_the_matrix_and_each_gap(gaps: str) -> None:
    done = coverage("--warehouse", gaps, "--year", "2025", "--as-of", "2026-01-05")

    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    rows = matrix_rows(done.stdout)
    assert [line.split() for line in lines if line.startswith("resource ")] == [MATRIX_HEADER]
    assert rows[("vehicle_consumptions", "1111AAA")] == ["●", "●", "✗", *["●"] * 9]
    assert rows[("vehicle_consumptions", "2222BBB")] == [*["●"] * 4, *["✗"] * 7, "○"]
    assert rows[("vehicle_consumptions", "3333CCC")] == [*["●"] * 6, *["·"] * 6]
    assert rows[("business_travels", "(organization)")] == [*["●"] * 7, "✗", *["●"] * 3, "·"]
    assert (
        "vehicle_consumptions 1111AAA 2025-03: missing, due 2025-04-10, overdue; estimate "
        "103.0 kg (neighbours_mean)"
    ) in lines
    assert (
        "vehicle_consumptions 4444DDD 2025-12: missing, due 2026-01-10, not yet due; no "
        "estimate (no data of it that year)"
    ) in lines
    assert lines[-1] == (
        "coverage of 2025 as of 2026-01-05: 101 periods expected, 76 received, 25 missing "
        "(23 overdue, 2 not yet due); 3.0 t co2e estimated"
    )


def test_nothing_overdue_exits_0(gaps: str) -> None:
    done = coverage("--warehouse", gaps, "--as-of", "2025-02-05")

    assert done.returncode == 0, done.stderr
    assert "4444DDD 2025-01: missing, due 2025-02-10, not yet due" in done.stdout
    assert "(0 overdue, 1 not yet due)" in done.stdout.splitlines()[-1]


def test_the_due_day_comes_from_the_option_or_its_variable(gaps: str) -> None:
    option = coverage("--warehouse", gaps, "--as-of", "2026-01-12", "--due-day", "15")
    variable = coverage("--warehouse", gaps, "--as-of", "2026-01-12", EMISSIONS_DUE_DAY="15")
    default = coverage("--warehouse", gaps, "--as-of", "2026-01-12")

    assert "2222BBB 2025-12: missing, due 2026-01-15, not yet due" in option.stdout
    assert option.stdout == variable.stdout
    assert "2222BBB 2025-12: missing, due 2026-01-10, overdue" in default.stdout


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_out_writes_every_expected_period(gaps: str, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"coverage.{suffix}"
    done = coverage("--warehouse", gaps, "--year", "2025", "--as-of", "2026-01-05",
                    "--out", str(out))  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert f"{out}: every expected period" in done.stdout
    if suffix == "csv":
        with out.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    else:
        workbook = openpyxl.load_workbook(out)
        assert workbook.sheetnames == ["Coverage", "Matrix", "About"]
        header, *values = workbook["Coverage"].iter_rows(values_only=True)
        rows = [dict(zip(header, (str(v) if v is not None else "" for v in row), strict=True))
                for row in values]  # fmt: skip
        matrix = {row[1]: row[2:] for row in workbook["Matrix"].iter_rows(values_only=True)}
        assert matrix["1111AAA"][2] == "✗"
    assert len(rows) == 101
    [march] = [r for r in rows if r["entity"] == "1111AAA" and r["status"] == "missing"]
    assert (float(march["estimate_kg"]), march["estimate_method"]) == (103.0, "neighbours_mean")


def test_an_expectations_file_given_by_its_variable_is_stored_for_the_view(
    gaps: str, tmp_path: Path
) -> None:
    file = tmp_path / "expected.toml"
    file.write_text('[vehicle_consumptions.entities."4444DDD"]\nexpected = false\n')

    done = coverage("--warehouse", gaps, "--as-of", "2026-01-05", EMISSIONS_EXPECTATIONS=str(file))
    again = coverage("--warehouse", gaps, "--as-of", "2026-01-05")  # stored: read again

    assert "4444DDD" not in done.stdout
    assert "13 missing (12 overdue, 1 not yet due)" in done.stdout.splitlines()[-1]
    assert again.stdout == done.stdout


def test_names_from_the_warehouse_are_printed_as_they_are(tmp_path: Path) -> None:
    warehouse = build_gaps_warehouse(tmp_path / "w.duckdb")
    with warehouse.writer() as writer:
        land(writer, "employees", [("emp-9", None, 0.0, {"name": "[bold]Zed[/]",
                                                          "situation": "active"})])  # fmt: skip

    done = coverage("--warehouse", str(warehouse.path), "--as-of", "2026-01-05")

    assert "commuting_periods [bold]Zed[/] 2025-01: missing" in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--as-of", "2026-13-01"], "--as-of 2026-13-01: give a day such as 2026-04-10"),
        (["--year", "twenty"], "--year twenty: give a year such as 2026"),
        (["--out", "coverage.txt"], "the name must end in .csv or .xlsx"),
        (["--organization", "org-x"], "--organization org-x: this warehouse holds no record"),
    ],
)
def test_unusable_options_are_one_line_and_exit_2(gaps: str, args: list[str], says: str) -> None:
    assert_one_line_error(coverage("--warehouse", gaps, *args), 2, says)


def test_an_unusable_expectations_file_is_one_line_and_exit_2(gaps: str, tmp_path: Path) -> None:
    file = tmp_path / "expected.toml"
    file.write_text("[wastes]\ncadence = 'weekly'\n")

    done = coverage("--warehouse", gaps, "--expectations", str(file))

    assert_one_line_error(done, 2, f"{file}: [wastes] cadence = 'weekly'")


def test_a_warehouse_that_is_not_there_is_exit_2(tmp_path: Path) -> None:
    done = coverage("--warehouse", str(tmp_path / "none.duckdb"))

    assert_one_line_error(done, 2, "no warehouse here")
