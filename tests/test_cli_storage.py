"""The command line reads its files and folders from an object store and writes its files to
one, a real S3-compatible server (moto's) on loopback: a folder loads as the nightly loads its
inbox, an object's source is its folder or its name as a file's is, so loading the same objects
again, or a local copy of them, writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_csv
from tests.pipeline.tenancy import write_wastes_xlsx as wastes_xlsx
from tests.s3_server import S3Server, running_s3

pytestmark = [
    pytest.mark.slow,  # an S3 server: left out of the fast run
    pytest.mark.xdist_group("s3-cli"),
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server:
        yield server


def env_of(tenant: Tenant, s3: S3Server, warehouse: Path) -> dict[str, str]:
    return {
        **os.environ,
        **s3.env(),
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(warehouse),
    }


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = run_etl([*args], env=env, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def an_inbox(folder: Path) -> Path:
    """An inbox of wastes: a workbook (its own source), a source folder of two versions
    (rows identified by their content within ``erp``), and a row the checks reject."""
    (folder / "wastes" / "erp").mkdir(parents=True)
    wastes_xlsx(folder / "wastes" / "register.xlsx", [waste_row(n) for n in range(6)])
    write_wastes_csv(
        folder / "wastes" / "erp" / "2026-q1.csv", [waste_row(100 + n) for n in range(4)]
    )
    rejected = waste_row(200, quantity="lots")
    write_wastes_csv(folder / "wastes" / "erp" / "2026-q2.csv",
                     [waste_row(100 + n) for n in range(4, 7)] + [rejected])  # fmt: skip
    return folder


def service_wastes(tenant: Tenant) -> int:
    with tenant.client() as client:
        return sum(1 for _ in client.iter_wastes())


def all_runs(warehouse: Path) -> list[tuple[str, int, int]]:
    """(source, rows sent, rows unchanged) of every run, first first."""
    runs = Warehouse(warehouse).query(
        "SELECT source_name, rows_sent, rows_unchanged FROM load_run_summary ORDER BY started_at"
    )
    return list(zip(runs["source_name"], runs["rows_sent"], runs["rows_unchanged"], strict=True))


def test_a_folder_of_the_store_loads_and_neither_it_again_nor_a_local_copy_writes_anything(
    sandbox, s3: S3Server, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tenant = new_tenant(sandbox, tmp_path)
    inbox = an_inbox(tmp_path / "inbox")
    s3.create_bucket("exports")
    s3.upload_folder(inbox, "s3://exports/inbox")
    warehouse = tmp_path / "w.duckdb"
    env = env_of(tenant, s3, warehouse)

    first = run(env, "load", "s3://exports/inbox/")
    held = service_wastes(tenant)
    again = run(env, "load", "s3://exports/inbox/")
    from_disk = run(env, "load", str(inbox))

    assert first.returncode == 1, first.stderr  # the row the checks reject
    assert "register.xlsx" in first.stdout
    assert held == 13
    assert (again.returncode, from_disk.returncode) == (1, 1), again.stderr + from_disk.stderr
    assert service_wastes(tenant) == held
    runs = all_runs(warehouse)
    assert len(runs) == 9
    for load in (runs[3:6], runs[6:9]):  # again from the store, then from the local copy
        assert sorted(load) == [("erp", 0, 3), ("erp", 0, 4), ("register.xlsx", 0, 6)]
    loaded = Warehouse(warehouse).query(
        "SELECT source_name, count(*) AS n FROM emissions GROUP BY ALL ORDER BY ALL"
    )
    assert dict(zip(loaded["source_name"], loaded["n"], strict=True)) == {
        "erp": 7, "register.xlsx": 6,
    }  # fmt: skip
    runs = Warehouse(warehouse).query("SELECT source FROM load_runs ORDER BY started_at LIMIT 1")
    assert runs["source"][0].startswith("s3://exports/inbox/wastes/")


def test_a_resource_folder_validates_from_the_store_as_from_disk_with_rejects_to_the_store(
    s3: S3Server, tmp_path: Path
) -> None:
    inbox = an_inbox(tmp_path / "inbox")
    s3.create_bucket("checks")
    s3.upload_folder(inbox, "s3://checks/inbox")
    env = {**os.environ, **s3.env()}

    remote = run(env, "validate", "s3://checks/inbox/wastes",
                 "--rejects", "s3://checks/out/rejects.json")  # fmt: skip
    local = run(env, "validate", str(inbox / "wastes"), "--rejects", str(tmp_path / "r.json"))

    assert (remote.returncode, local.returncode) == (1, 1), remote.stderr + local.stderr
    assert remote.stdout.replace("s3://checks/inbox", str(inbox)) == local.stdout.replace(
        str(tmp_path / "r.json"), "s3://checks/out/rejects.json"
    )
    assert "2026-q2.csv (wastes): 4 rows read, 3 valid, 1 rejected" in remote.stdout
    body = s3.client().get_object(Bucket="checks", Key="out/rejects.json")["Body"].read()
    assert json.loads(body) == json.loads((tmp_path / "r.json").read_text())
    assert [reject["file"] for reject in json.loads(body)] == ["2026-q2.csv"]


def test_a_workbook_of_the_store_is_annotated_into_the_store(s3: S3Server, tmp_path: Path) -> None:
    book = wastes_xlsx(tmp_path / "register.xlsx",
                       [waste_row(1), waste_row(2, quantity="lots")])  # fmt: skip
    s3.create_bucket("annotated")
    s3.client().upload_file(str(book), "annotated", "in/wastes/register.xlsx")
    env = {**os.environ, **s3.env()}

    done = run(env, "validate", "s3://annotated/in/wastes/register.xlsx",
               "--rejects", "s3://annotated/out/register-rejects.xlsx")  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert "rejects written to s3://annotated/out/register-rejects.xlsx" in done.stdout
    copy = tmp_path / "copy.xlsx"
    s3.client().download_file("annotated", "out/register-rejects.xlsx", str(copy))
    workbook = openpyxl.load_workbook(copy)
    assert workbook.sheetnames == ["Wastes", "Rejects"]
    assert workbook["Rejects"].max_row == 2


def test_the_report_and_the_inventory_are_written_to_the_store(
    sandbox, s3: S3Server, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tenant = new_tenant(sandbox, tmp_path)
    book = wastes_xlsx(tmp_path / "wastes.xlsx", [waste_row(n) for n in range(3)])
    warehouse = tmp_path / "w.duckdb"
    env = env_of(tenant, s3, warehouse)
    s3.create_bucket("published")
    assert run(env, "load", str(book)).returncode == 0

    report = run(env, "report", "--out", "s3://published/2026/report.html")
    inventory = run(env, "inventory", "--out", "s3://published/2026/inventory.xlsx")

    assert (report.returncode, inventory.returncode) == (0, 0), report.stderr + inventory.stderr
    assert report.stdout.startswith("s3://published/2026/report.html: total GHG emissions")
    assert "; 3 records, 1 runs" in report.stdout
    assert inventory.stdout.startswith("s3://published/2026/inventory.xlsx: Scope 1")
    assert s3.keys("published") == ["2026/inventory.xlsx", "2026/report.html"]
    page = s3.client().get_object(Bucket="published", Key="2026/report.html")["Body"].read()
    assert b"<html" in page[:2000].lower()


def test_a_folder_with_nothing_to_load_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "inbox" / "wastes").mkdir(parents=True)
    (tmp_path / "inbox" / "wastes" / "README.md").write_text("notes")

    done = run(dict(os.environ), "validate", str(tmp_path / "inbox" / "wastes"))

    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: {tmp_path / 'inbox' / 'wastes'}: no file to load in this folder "
        "(.xlsx, .xlsm, .xlsb, .xls, .ods, .htm, .html, .csv, .txt, .tsv)"
    )
