"""The evidence behind each line, for an auditor: every record a line adds up, with its row,
the file's SHA-256 and when it landed; the records of a line add up to the line; a sample drawn
with a seed is drawn again the same."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from emissions_etl.inventory import evidence, read_inventory, records_behind
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl

COLUMNS = ["line", "co2e_kg", "resource", "service_id", "source_key", "activity_date", "status",
           "facility", "source", "file", "sheet", "row", "file_sha256", "landed_at",
           "run_id"]  # fmt: skip


def inventory(*args: str, warehouse: Warehouse) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(
        ["inventory", *args],
        timeout=180,
        env={**clean, "COLUMNS": "200", "EMISSIONS_WAREHOUSE": str(warehouse.path)},
    )  # fmt: skip


def summed_by_line(rows: pd.DataFrame) -> dict[str, float]:
    return rows.groupby("line", sort=False)["co2e_kg"].sum().round(6).to_dict()


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_the_records_of_each_line_add_up_to_the_line(
    two_years: Warehouse, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"evidence.{suffix}"
    done = inventory("--year", "2026", "--evidence", str(out), warehouse=two_years)

    assert done.returncode == 0, done.stderr
    if suffix == "csv":
        rows = pd.read_csv(out)
    else:
        sheet = openpyxl.load_workbook(out)["Evidence"]
        header, *values = list(sheet.iter_rows(values_only=True))
        rows = pd.DataFrame(values, columns=header)
    assert list(rows.columns) == COLUMNS
    lines = read_inventory(two_years, year=2026).lines
    expected = {
        line["line"]: round(float(line["co2e_kg"]), 6)
        for line in lines.to_dict("records")
        if line["kind"] not in ("activity", "scope_2_market", "total_market") and line["records"]
    }  # a line without records (2025's travel category, at 0 in 2026) has no row
    assert summed_by_line(rows) == expected
    records = dict(zip(lines["line"], lines["records"], strict=True))
    assert rows.groupby("line", sort=False).size().to_dict() == {
        line: records[line] for line in expected
    }


def test_a_record_is_listed_under_every_line_it_adds_up_into(two_years: Warehouse) -> None:
    inventory_ = read_inventory(two_years, year=2026)

    rows = evidence(inventory_, records_behind(two_years, inventory_)).rows

    waste = rows[rows["service_id"] == "w-jan"]
    assert list(waste["line"]) == [
        "Gross Scope 3 GHG emissions",
        "Category 5: Waste generated in operations",
        "Total GHG emissions (location-based)",
    ]
    assert list(waste[["file", "sheet", "row"]].iloc[0]) == ["wastes.xlsx", "Data", 2]
    own_leg = rows[rows["service_id"] == "leg-own"]
    assert list(own_leg["line"]) == [
        "Not in the total: own fleet leg: its fuel is counted in logistics_recharges"
    ]
    assert "w-2025" not in set(rows["service_id"])  # another year's


def test_a_sample_drawn_with_a_seed_is_drawn_again_the_same(two_years: Warehouse) -> None:
    inventory_ = read_inventory(two_years, year=2026)
    records = records_behind(two_years, inventory_)

    first = evidence(inventory_, records, sample=2, seed=7).rows
    again = evidence(inventory_, records, sample=2, seed=7).rows
    seeds = {
        tuple(evidence(inventory_, records, sample=2, seed=seed).rows["service_id"])
        for seed in range(10)
    }

    pd.testing.assert_frame_equal(first, again)
    per_line = first.groupby("line").size()
    assert per_line["Total GHG emissions (location-based)"] == 2  # of 10
    assert per_line["Gross Scope 1 GHG emissions"] == 2  # of 2: every one
    assert per_line["Category 1: Purchased goods and services"] == 1  # of 1
    assert len(seeds) > 1  # another seed draws other records


def test_the_command_says_the_seed_and_the_rows_without_a_file_digest(
    two_years: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "sample.csv"

    done = inventory("--year", "2026", "--evidence", str(out), "--sample", "1", "--seed", "42",
                     warehouse=two_years)  # fmt: skip
    again = inventory("--year", "2026", "--evidence", str(tmp_path / "again.csv"), "--sample",
                      "1", "--seed", "42", warehouse=two_years)  # fmt: skip

    assert (done.returncode, again.returncode) == (0, 0), done.stderr
    assert "1 record(s) of each of 9 line(s), of their 28, drawn with --seed 42" in done.stdout
    # The warehouse's rows were landed without a file's digest (as before versions kept it).
    assert "landed before emissions-etl recorded the SHA-256" in done.stdout
    assert out.read_bytes() == (tmp_path / "again.csv").read_bytes()
    with out.open(newline="", encoding="utf-8") as handle:
        assert {row["file_sha256"] for row in csv.DictReader(handle)} == {""}


def test_evidence_alone_needs_no_inventory_file_and_a_seed_needs_a_sample(
    two_years: Warehouse, tmp_path: Path
) -> None:
    alone = inventory("--evidence", str(tmp_path / "e.xlsx"), warehouse=two_years)
    seed = inventory("--evidence", str(tmp_path / "e.csv"), "--seed", "3", warehouse=two_years)
    nothing = inventory("--year", "2026", warehouse=two_years)

    assert alone.returncode == 0, alone.stderr
    about = dict(openpyxl.load_workbook(tmp_path / "e.xlsx")["About"].iter_rows(values_only=True))
    assert about["records"] == "every record of each line"
    assert seed.returncode == 2
    assert "--seed draws a sample: give --sample N too" in seed.stderr
    assert nothing.returncode == 2
    assert "give --out FILE" in nothing.stderr
