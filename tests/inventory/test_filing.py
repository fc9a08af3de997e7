"""Filed inventories: ``file-inventory`` keeps what was filed and what reproduces it (a DuckDB
file a frozen copy of its records, a DuckLake its snapshot), ``inventory --filed ID`` writes it
again identical whatever lands after, and what can no longer be reproduced is said, never
written. Records change here through the warehouse's own writer, as loads change them (the
loads themselves: ``test_filed_loads.py``)."""

from __future__ import annotations

import getpass
import os
import subprocess
from pathlib import Path

import duckdb
import openpyxl
import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.inventory import file_inventory, read_filed, write_inventory_file
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.inventory.conftest import build_two_years_warehouse, change_everything

pytestmark = pytest.mark.slow  # benchmark-sized: left out of the fast run


def run(*args: str, warehouse: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(
        [*args],
        timeout=180,
        env={**clean, "COLUMNS": "200", "EMISSIONS_WAREHOUSE": warehouse},
    )  # fmt: skip


def cells(path: Path) -> dict[str, list[tuple[object, ...]]]:
    workbook = openpyxl.load_workbook(path)
    return {name: list(workbook[name].iter_rows(values_only=True)) for name in workbook.sheetnames}


@pytest.mark.parametrize("kind", ["duckdb", "ducklake"])
def test_a_filed_inventory_is_written_again_identical_after_records_change(
    tmp_path: Path, kind: str
) -> None:
    location = (
        str(tmp_path / "w.duckdb") if kind == "duckdb" else f"ducklake:{tmp_path / 'c.ducklake'}"
    )
    warehouse = build_two_years_warehouse(location, organization_id="org-a")
    filed, inventory = file_inventory(warehouse, year=2026, base_year=2024, by="ana")
    for suffix in ("csv", "xlsx"):
        write_inventory_file(inventory, tmp_path / f"at-filing.{suffix}", warehouse=location)

    change_everything(warehouse)
    again = read_filed(Warehouse(location), filed.filed_id)
    for suffix in ("csv", "xlsx"):
        write_inventory_file(again, tmp_path / f"again.{suffix}", warehouse=location)

    assert (tmp_path / "again.csv").read_bytes() == (tmp_path / "at-filing.csv").read_bytes()
    filed_cells, first_cells = cells(tmp_path / "again.xlsx"), cells(tmp_path / "at-filing.xlsx")
    assert {k: v for k, v in filed_cells.items() if k != "About"} == {
        k: v for k, v in first_cells.items() if k != "About"
    }
    now = (
        Warehouse(location)
        .query("SELECT count(*) AS n FROM emissions WHERE remote_id IN ('w-late', 'w-feb')")["n"]
        .iloc[0]
    )
    assert now == 1  # the warehouse did change
    assert (filed.snapshot_id is not None) == (kind == "ducklake")


def test_a_filed_inventory_written_twice_gives_the_same_workbook_cells(tmp_path: Path) -> None:
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")
    filed, _ = file_inventory(warehouse, year=2026, by="ana", note="ESRS 2026, first filing")

    write_inventory_file(read_filed(warehouse, filed.filed_id), tmp_path / "a.xlsx", warehouse="w")
    change_everything(warehouse)
    write_inventory_file(read_filed(warehouse, filed.filed_id), tmp_path / "b.xlsx", warehouse="w")

    assert cells(tmp_path / "a.xlsx") == cells(tmp_path / "b.xlsx")  # About too: no "generated"
    about = dict(cells(tmp_path / "a.xlsx")["About"][1:])
    assert about["filed inventory"] == filed.filed_id
    assert about["filed by"] == "ana"
    assert about["note"] == "ESRS 2026, first filing"
    assert about["reproduced from"] == "the copy of its records frozen when it was filed"


def test_file_inventory_prints_the_id_alone_last_and_records_who_filed(tmp_path: Path) -> None:
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")

    done = run("file-inventory", "--year", "2026", "--note", "draft", warehouse=str(warehouse.path))

    assert done.returncode == 0, done.stderr
    *said, last = done.stdout.splitlines()
    assert said == [
        "filed the inventory of 2026 (operational_control): total 6.9 t co2e, 11 records; "
        "reproduced from a copy of its 16 records"
    ]
    [row] = warehouse.query("SELECT * FROM filed_inventories").to_dict("records")
    assert last == row["filed_id"]
    assert (row["reporting_year"], row["filed_by"], row["note"], row["snapshot_id"]) == (
        2026, getpass.getuser(), "draft", None
    )  # fmt: skip
    assert row["total_co2e_kg"] == 6_880.0
    assert row["consolidation_approach"] == "operational_control"


def test_the_filed_inventory_is_written_by_inventory_filed(tmp_path: Path) -> None:
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")
    filed_id = run("file-inventory", "--year", "2026", "--by", "ana",
                   warehouse=str(warehouse.path)).stdout.splitlines()[-1]  # fmt: skip
    now = run("inventory", "--year", "2026", "--out", str(tmp_path / "now.csv"),
              warehouse=str(warehouse.path))  # fmt: skip
    change_everything(warehouse)

    again = run("inventory", "--filed", filed_id, "--out", str(tmp_path / "filed.csv"),
                warehouse=str(warehouse.path))  # fmt: skip

    assert (now.returncode, again.returncode) == (0, 0), again.stderr
    assert (tmp_path / "filed.csv").read_bytes() == (tmp_path / "now.csv").read_bytes()
    assert f"(filed inventory {filed_id})" in again.stdout


def test_a_filed_inventory_that_can_no_longer_be_reproduced_is_an_error_not_a_file(
    tmp_path: Path,
) -> None:
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")
    filed, _ = file_inventory(warehouse, year=2026, by="ana")
    con = duckdb.connect(str(warehouse.path))  # what no load does: the frozen copy altered
    con.execute("UPDATE filed_inventory_records SET co2e_kg = 1 WHERE remote_id = 'w-jan'")
    con.close()

    with pytest.raises(WarehouseError, match="cannot be reproduced exactly"):
        read_filed(warehouse, filed.filed_id)
    done = run("inventory", "--filed", filed.filed_id, "--out", str(tmp_path / "f.csv"),
               warehouse=str(warehouse.path))  # fmt: skip
    assert done.returncode == 3
    assert "Gross Scope 3 GHG emissions was filed as 6530.0 kg" in done.stderr
    assert not (tmp_path / "f.csv").exists()


def test_an_unknown_id_or_a_year_without_records_exits_2(tmp_path: Path) -> None:
    warehouse = build_two_years_warehouse(tmp_path / "w.duckdb")
    none_yet = run("inventory", "--filed", "2026-x", "--out", str(tmp_path / "f.csv"),
                   warehouse=str(warehouse.path))  # fmt: skip
    filed_id = run("file-inventory", "--year", "2026",
                   warehouse=str(warehouse.path)).stdout.splitlines()[-1]  # fmt: skip

    unknown = run("inventory", "--filed", "2026-x", "--out", str(tmp_path / "f.csv"),
                  warehouse=str(warehouse.path))  # fmt: skip
    empty = run("file-inventory", "--year", "2023", warehouse=str(warehouse.path))

    assert none_yet.returncode == 2
    assert "no inventory has been filed here" in none_yet.stderr
    assert unknown.returncode == 2
    assert "no filed inventory '2026-x'" in unknown.stderr
    assert filed_id in unknown.stderr  # the ones there are
    assert empty.returncode == 2
    assert "no activity record in that year: nothing to file" in empty.stderr


def test_filed_inventories_list_the_snapshots_maintenance_keeps(tmp_path: Path) -> None:
    """The contract with ``maintain-warehouse``: every snapshot a filed inventory names is in
    ``filed_inventories.snapshot_id`` (BIGINT, null on a DuckDB file)."""
    lake = Warehouse(f"ducklake:{tmp_path / 'c.ducklake'}")
    build_two_years_warehouse(lake.target.location)
    before = lake.snapshot_id()

    filed, _ = file_inventory(lake, year=2026, by="ana")

    columns = lake.query(
        "SELECT data_type, is_nullable FROM information_schema.columns "
        "WHERE table_name = 'filed_inventories' AND column_name = 'snapshot_id'"
    ).to_dict("records")
    assert columns == [{"data_type": "BIGINT", "is_nullable": "YES"}]
    listed = lake.query("SELECT snapshot_id FROM filed_inventories")["snapshot_id"].tolist()
    assert listed == [before] == [filed.snapshot_id]
