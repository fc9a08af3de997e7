"""A lake whose catalog is in a real PostgreSQL and whose data files are in a real
S3-compatible server (moto's): DuckDB's packaged httpfs writes and reads the Parquet files with
the AWS chain's credentials and endpoint, and a reader that names no data path finds it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from emissions_etl.warehouse._connection import INLINED_ROWS
from tests.cli_process import run_etl
from tests.pipeline.tenancy import new_tenant, waste_row, write_wastes_xlsx
from tests.postgres_server import PostgresServer, available
from tests.s3_server import S3Server, running_s3

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)"),
    pytest.mark.xdist_group("postgres"),  # the lake modules share one PostgreSQL, on one worker
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def servers(postgres: PostgresServer) -> Iterator[tuple[PostgresServer, S3Server]]:
    with running_s3() as s3:
        yield postgres, s3


def test_a_load_writes_the_lake_s_data_files_to_the_store_and_any_reader_finds_them(
    sandbox, servers: tuple[PostgresServer, S3Server], tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    postgres, s3 = servers
    s3.create_bucket("lake")
    tenant = new_tenant(sandbox, tmp_path)
    rows = INLINED_ROWS + 200  # more than a lake inlines in its catalog: a Parquet file
    book = write_wastes_xlsx(tmp_path / "wastes.xlsx", [waste_row(n) for n in range(rows)])
    lake = f"ducklake:postgres:{postgres.create_database('in_store')}"
    env = {
        **os.environ,
        **s3.env(),
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": lake,
        "EMISSIONS_WAREHOUSE_DATA": "s3://lake/emissions/",
    }

    loaded = run_etl(["load", str(book)], env=env, timeout=300)
    reader = {key: value for key, value in env.items() if key != "EMISSIONS_WAREHOUSE_DATA"}
    counted = run_etl(
        ["sql", "SELECT count(*) AS n, round(sum(co2e_kg), 6) AS kg FROM emissions",
         "--format", "json"],  # fmt: skip
        env=reader,
        timeout=120,
    )  # fmt: skip

    assert loaded.returncode == 0, loaded.stderr
    assert counted.returncode == 0, counted.stderr
    assert json.loads(counted.stdout)["n"] == rows
    files = s3.keys("lake", "emissions/")
    assert any(key.endswith(".parquet") for key in files), files
    assert not list(tmp_path.rglob("*.parquet"))  # nothing on this machine's disk


def test_a_lake_in_a_store_without_credentials_says_where_they_come_from(
    servers: tuple[PostgresServer, S3Server], tmp_path: Path
) -> None:
    postgres, s3 = servers
    lake = f"ducklake:postgres:{postgres.create_database('no_keys')}"
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env |= {"AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": s3.endpoint_url,
            "AWS_CONFIG_FILE": str(tmp_path / "none"),
            "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
            "EMISSIONS_WAREHOUSE": lake, "EMISSIONS_WAREHOUSE_DATA": "s3://lake/x/"}  # fmt: skip

    done = run_etl(["sql", "SELECT 1"], env=env, timeout=120)

    assert done.returncode == 2
    assert "credentials come from the AWS chain" in done.stderr, done.stderr
