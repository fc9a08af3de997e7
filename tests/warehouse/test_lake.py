"""One warehouse for many organizations and workers: a DuckLake with its catalog in a real
PostgreSQL (started as the ``postgres`` user), loaded by CLI processes at once and read with
``emissions-etl sql``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl, start_etl
from tests.pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_xlsx
from tests.postgres_server import PostgresServer, available

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)"),
    pytest.mark.xdist_group("postgres"),  # the lake modules share one PostgreSQL, on one worker
    pytest.mark.timeout(600),
]


def lake_env(tenant: Tenant, conninfo: str, data: Path) -> dict[str, str]:
    return {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": f"ducklake:postgres:{conninfo}",
        "EMISSIONS_WAREHOUSE_DATA": str(data),
    }


def sql(env: dict[str, str], query: str) -> list[dict[str, object]]:
    done = run_etl(["sql", query, "--format", "json"], env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_three_loads_at_once_for_three_organizations_leave_each_whole_in_one_lake(
    sandbox, postgres: PostgresServer, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    conninfo = postgres.create_database("three")
    data = tmp_path / "lake-data"
    folders = [tmp_path / f"org{n}" for n in range(3)]
    for folder in folders:
        folder.mkdir()
    tenants = [new_tenant(sandbox, folder) for folder in folders]
    files = [
        write_wastes_xlsx(t.workdir / "wastes.xlsx", [waste_row(i) for i in range(40 + 15 * n)])
        for n, t in enumerate(tenants)
    ]
    loads = [
        start_etl(["load", str(path)], env=lake_env(t, conninfo, data))
        for t, path in zip(tenants, files, strict=True)
    ]
    ended = [load.communicate(timeout=400) for load in loads]

    assert [load.returncode for load in loads] == [0, 0, 0], [err for _, err in ended]
    env = lake_env(tenants[0], conninfo, data)
    landed = sql(
        env,
        "SELECT organization_id, count(*) AS records, count(DISTINCT remote_id) AS ids, "
        "count(co2e_kg) AS with_co2e FROM emissions WHERE resource = 'wastes' GROUP BY ALL",
    )
    by_org = {row["organization_id"]: row for row in landed}
    for n, tenant in enumerate(tenants):
        with tenant.client() as client:
            held = len(list(client.iter_items("/v2/wastes")))
        assert held == 40 + 15 * n
        assert by_org[tenant.organization_id] == {
            "organization_id": tenant.organization_id,
            "records": held,
            "ids": held,
            "with_co2e": held,
        }
    runs = sql(env, "SELECT organization_id, outcome FROM load_run_summary ORDER BY 1")
    assert sorted(run["organization_id"] for run in runs) == sorted(
        t.organization_id for t in tenants
    )
    assert {run["outcome"] for run in runs} == {"succeeded"}


def test_a_second_worker_loading_what_the_first_loaded_into_the_lake_creates_nothing(
    sandbox, postgres: PostgresServer, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    conninfo = postgres.create_database("second")
    tenant = new_tenant(sandbox, tmp_path)
    env = lake_env(tenant, conninfo, tmp_path / "lake-data")
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [waste_row(i) for i in range(25)])
    first = run_etl(["load", str(path)], env=env, timeout=300)
    # Another machine: its own copy of the file, the same lake.
    copy = tmp_path / "worker-2" / "wastes.xlsx"
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())

    second = run_etl(["load", str(copy)], env=env, timeout=300)

    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    [run] = sql(env, "SELECT rows_sent, rows_unchanged FROM load_run_summary "
                     "ORDER BY started_at DESC LIMIT 1")  # fmt: skip
    assert run == {"rows_sent": 0, "rows_unchanged": 25}
    with tenant.client() as client:
        assert len(list(client.iter_items("/v2/wastes"))) == 25


def test_sql_reads_a_file_warehouse_as_csv_and_refuses_to_write(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "w.duckdb")
    with warehouse.writer() as writer:
        writer.runs.start_run("wastes", "a.xlsx", {})
    env = {**os.environ, "EMISSIONS_WAREHOUSE": str(warehouse.path)}

    query = "SELECT resource, outcome FROM load_runs"
    listed = run_etl(["sql", query, "--format", "csv"], env=env)
    written = run_etl(["sql", "DELETE FROM load_runs"], env=env)

    assert listed.stdout.splitlines() == ["resource,outcome", "wastes,running"]
    assert written.returncode == 2
    assert "read-only" in written.stderr
    assert "Traceback" not in written.stderr
