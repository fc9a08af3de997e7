"""``emissions-etl inventory`` as people run it: both formats, the settings it reads, and one-line
errors with the CLI's exit codes."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.inventory.conftest import build_inventory_warehouse


def inventory(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(["inventory", *args], timeout=180, env={**clean, "COLUMNS": "200", **env})


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int, says: str) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.strip().startswith("error: "), done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert says in done.stderr


def test_the_xlsx_has_a_sheet_per_view_and_the_line_says_the_scopes(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "inventory.xlsx"
    done = inventory("--warehouse", str(inventory_warehouse.path), "--year", "2026",
                     "--out", str(out))  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{out}: Scope 1 0.3 t, Scope 2 0.1 t, Scope 3 6.5 t, total 6.9 t co2e "
        "(operational_control, 2026); 1 record(s), 0.1 t, not in the total (reasons in the file)",
        "the total beside it: 2025 0.4 t",
    ]
    workbook = openpyxl.load_workbook(out)
    assert workbook.sheetnames == ["By scope and category", "By month", "By facility", "About"]
    table = {
        row[0]: row[1:] for row in workbook["By scope and category"].iter_rows(values_only=True)
    }
    assert table["Gross Scope 3 GHG emissions"][2] == pytest.approx(6.53)
    assert table["Category 2: Capital goods"][:3] == (3, 2, pytest.approx(3.0))


def test_the_csv_is_the_table_and_the_approach_comes_from_emissions_consolidation(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "inventory.csv"
    done = inventory(
        "--out", str(out),
        EMISSIONS_WAREHOUSE=str(inventory_warehouse.path),
        EMISSIONS_CONSOLIDATION="financial_control",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "(financial_control, every year)" in done.stdout
    with out.open(newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1:] for row in csv.reader(handle)}
    assert rows["Category 8: Upstream leased assets"] == ["3", "8", "0.2", "1", "1", "0", "0"]
    assert rows["Gross Scope 1 GHG emissions"][2] == "0.1"


def test_the_option_wins_over_the_variable(inventory_warehouse: Warehouse, tmp_path: Path) -> None:
    done = inventory(
        "--out", str(tmp_path / "i.csv"), "--consolidation", "operational-control",
        EMISSIONS_WAREHOUSE=str(inventory_warehouse.path),
        EMISSIONS_CONSOLIDATION="financial_control",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "(operational_control, every year)" in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--organization", "org-1"], "--organization org-1: this warehouse holds no record"),
        (["--consolidation", "equity"], "unknown consolidation approach 'equity'"),
        (["--year", "last"], "--year last: give a year such as 2026"),
    ],
    ids=["organization", "approach", "year"],
)
def test_options_it_cannot_use_exit_2_in_one_line(
    inventory_warehouse: Warehouse, tmp_path: Path, args: list[str], says: str
) -> None:
    out = tmp_path / "inventory.xlsx"
    done = inventory("--warehouse", str(inventory_warehouse.path), "--out", str(out), *args)

    assert_one_line_error(done, 2, says)
    assert not out.exists()


def test_a_bad_consolidation_variable_exits_2_naming_it(
    inventory_warehouse: Warehouse, tmp_path: Path
) -> None:
    done = inventory(
        "--warehouse", str(inventory_warehouse.path), "--out", str(tmp_path / "i.csv"),
        EMISSIONS_CONSOLIDATION="equity",
    )  # fmt: skip

    assert_one_line_error(done, 2, "unknown consolidation approach")


def test_no_warehouse_file_or_a_wrong_output_name_exits_2(tmp_path: Path) -> None:
    missing = inventory(
        "--warehouse", str(tmp_path / "none.duckdb"), "--out", str(tmp_path / "i.csv")
    )
    wrong = inventory(
        "--warehouse", str(tmp_path / "none.duckdb"), "--out", str(tmp_path / "i.pdf")
    )

    assert_one_line_error(missing, 2, "no warehouse here")
    assert_one_line_error(wrong, 2, "the name must end in .xlsx or .csv")


def test_a_file_that_is_not_duckdb_exits_3(tmp_path: Path) -> None:
    bogus = tmp_path / "warehouse.duckdb"
    bogus.write_text("not a database")

    done = inventory("--warehouse", str(bogus), "--out", str(tmp_path / "i.csv"))

    assert_one_line_error(done, 3, "warehouse.duckdb")


def test_help_shows_both_variables() -> None:
    done = run_etl(["inventory", "--help"], timeout=60, env={**os.environ, "COLUMNS": "200"})

    assert "EMISSIONS_CONSOLIDATION" in done.stdout
    assert "EMISSIONS_WAREHOUSE" in done.stdout


def test_a_warehouse_with_nothing_loaded_gives_a_table_of_zeros(tmp_path: Path) -> None:
    empty = Warehouse(tmp_path / "empty.duckdb")
    with empty.writer():
        pass
    out = tmp_path / "inventory.csv"

    done = inventory("--warehouse", str(empty.path), "--out", str(out))

    assert done.returncode == 0, done.stderr
    assert "no activity record" in done.stdout
    with out.open(newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1:] for row in csv.reader(handle)}
    assert rows["Total GHG emissions (location-based)"] == ["", "", "0.0", "0", "0", "0", "0"]


def test_the_organization_is_named_when_the_warehouse_holds_several(
    two_organizations: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "inventory.xlsx"
    unnamed = inventory("--warehouse", str(two_organizations.path), "--out", str(out))
    named = inventory("--warehouse", str(two_organizations.path), "--out", str(out),
                      "--organization", "org-b")  # fmt: skip

    assert_one_line_error(unnamed, 2, "holds 2 organizations (org-a, org-b)")
    assert named.returncode == 0, named.stderr
    assert "total 0.3 t co2e" in named.stdout
    about = dict(openpyxl.load_workbook(out)["About"].iter_rows(values_only=True))
    assert about["organization"] == "org-b"


def test_the_inventory_of_a_ducklake_is_the_same(tmp_path: Path) -> None:
    lake = f"ducklake:{tmp_path / 'catalog.ducklake'}"
    build_inventory_warehouse(lake, organization_id="org-a")
    out = tmp_path / "inventory.csv"

    done = inventory("--warehouse", lake, "--year", "2026", "--out", str(out))

    assert done.returncode == 0, done.stderr
    with out.open(newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1:] for row in csv.reader(handle)}
    assert rows["Total GHG emissions (location-based)"][2] == "6.9"
    assert rows["co2e of every activity record in the warehouse"][2:4] == ["7.0", "11"]


def test_the_organization_is_named_by_its_name_in_the_organizations_file(
    two_organizations: Warehouse, tmp_path: Path
) -> None:
    organizations = tmp_path / "orgs.toml"
    organizations.write_text(
        '[[organization]]\nname = "acme-b"\norganization_id = "org-b"\n'
        'api_key_env = "ACME_B_KEY"\n'  # not set: reading an inventory needs no key
    )
    out = tmp_path / "inventory.csv"

    named = inventory("--warehouse", str(two_organizations.path), "--out", str(out),
                      "--organization", "acme-b",
                      EMISSIONS_ORGANIZATIONS=str(organizations))  # fmt: skip
    by_id = inventory("--warehouse", str(two_organizations.path), "--out", str(out),
                      "--organization", "org-b", "--organizations", str(organizations))  # fmt: skip

    assert (named.returncode, by_id.returncode) == (0, 0), named.stderr
    assert "total 0.3 t co2e" in named.stdout
    assert "total 0.3 t co2e" in by_id.stdout
