"""A filed inventory through real loads, on a DuckDB file and on a DuckLake over a real
PostgreSQL: file it, mirror a corrected file (records removed), load a new one (records added),
rebuild the warehouse from the service; ``inventory --filed`` is then identical to what was
filed, and the restatement lists exactly the records removed and added, with their rows."""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from tests.cli_process import run_etl
from tests.pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_xlsx
from tests.postgres_server import PostgresServer

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.xdist_group("postgres"),  # the lake modules share one PostgreSQL, on one worker
    pytest.mark.timeout(600),
]

#: The workbooks' first data row (a title row, a blank row, the header: write_wastes_xlsx).
FIRST_ROW = 4


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = run_etl([*args], env=env, timeout=400)
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return done


def environment(tenant: Tenant, warehouse: str, data: Path | None = None) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return {
        **clean,
        "COLUMNS": "200",
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": warehouse,
        **({"EMISSIONS_WAREHOUSE_DATA": str(data)} if data else {}),
    }


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def workbook_cells(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)
    return {name: list(book[name].iter_rows(values_only=True)) for name in book.sheetnames}


def file_mirror_load_rebuild(env: dict[str, str], workdir: Path) -> None:
    """The scenario of the module's docstring, checked at each end."""
    register = workdir / "wastes.xlsx"
    write_wastes_xlsx(register, [waste_row(n) for n in range(12)])
    cli(env, "load", str(register))
    filed_id = cli(env, "file-inventory", "--year", "2026", "--note", "FY2026").stdout.split()[-1]
    for suffix in ("csv", "xlsx"):
        cli(env, "inventory", "--year", "2026", "--out", str(workdir / f"at-filing.{suffix}"))

    write_wastes_xlsx(register, [waste_row(n) for n in range(10)])  # rows 10 and 11 dropped
    cli(env, "load", str(register), "--mirror")
    extra = write_wastes_xlsx(workdir / "late.xlsx", [waste_row(n) for n in range(20, 23)])
    cli(env, "load", str(extra))
    cli(env, "rebuild-warehouse")

    for suffix in ("csv", "xlsx"):
        cli(env, "inventory", "--filed", filed_id, "--out", str(workdir / f"filed.{suffix}"))
    restated = cli(env, "inventory", "--year", "2026", "--against", filed_id,
                   "--out", str(workdir / "restated.csv"))  # fmt: skip
    cli(env, "inventory", "--year", "2026", "--evidence", str(workdir / "evidence.csv"))

    assert (workdir / "filed.csv").read_bytes() == (workdir / "at-filing.csv").read_bytes()
    filed = workbook_cells(workdir / "filed.xlsx")
    first = workbook_cells(workdir / "at-filing.xlsx")
    assert [name for name in filed if filed[name] != first[name]] == ["About"]  # when, by whom
    changes = rows_of(workdir / "restated.changes.csv")
    assert sorted((c["change"], Path(c["file"]).name, int(c["row"])) for c in changes) == [
        ("added", "late.xlsx", FIRST_ROW), ("added", "late.xlsx", FIRST_ROW + 1),
        ("added", "late.xlsx", FIRST_ROW + 2),
        ("removed", "wastes.xlsx", FIRST_ROW + 10), ("removed", "wastes.xlsx", FIRST_ROW + 11),
    ]  # fmt: skip
    assert "3 added, 2 removed, 0 recalculated" in restated.stdout
    table = {row["line"]: row for row in rows_of(workdir / "restated.csv")}
    total = table["Total GHG emissions (location-based)"]
    filed_total = float(total[f"filed {filed_id} (t)"])
    assert float(total["difference since filed (t)"]) == pytest.approx(
        float(total["co2e (t)"]) - filed_total, abs=0.11
    )
    # Each record's row, and the SHA-256 of the file as the load that landed the row read it.
    evidence = rows_of(workdir / "evidence.csv")
    digests = {(Path(row["file"]).name, row["file_sha256"]) for row in evidence}
    assert digests == {("wastes.xlsx", _sha256(register)), ("late.xlsx", _sha256(extra))}
    assert len({row["service_id"] for row in evidence}) == 10 + 3


def test_a_filed_inventory_outlives_a_mirror_a_load_and_a_rebuild_on_a_duckdb_file(
    sandbox: Any, tmp_path: Path
) -> None:
    tenant = new_tenant(sandbox, tmp_path)

    file_mirror_load_rebuild(environment(tenant, str(tmp_path / "warehouse.duckdb")), tmp_path)


def test_a_filed_inventory_outlives_a_mirror_a_load_and_a_rebuild_on_a_lake(
    sandbox: Any, postgres: PostgresServer, tmp_path: Path
) -> None:
    tenant = new_tenant(sandbox, tmp_path)
    lake = f"ducklake:postgres:{postgres.create_database('filed')}"

    file_mirror_load_rebuild(environment(tenant, lake, tmp_path / "lake-data"), tmp_path)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
