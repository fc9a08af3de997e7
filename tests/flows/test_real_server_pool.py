"""A group's nightly on a pool of machines, on a real `prefect server start`: two workers of
one pool started from different empty folders (each its own home: no disk shared between
them), two organizations each with its own key whose inboxes are in an object store (a real
S3-compatible server, moto's), one DuckLake warehouse whose catalog is in a real PostgreSQL and
whose data files are in the store. ``prefect-setup`` writes the organizations (a variable and a
Secret block each); every worker needs only the Prefect server and the store's AWS variables,
the rest comes from what ``prefect-setup`` wrote. The nightly run starts one child run per
organization on the pool; the workers run them at once (a lake takes several writers: runs of
different organizations take no turns); the lake holds each organization's rows under its id;
a second night over the same files creates nothing in the service.

One night serves every test here: a worker's start and each flow run (a fresh process) cost
seconds of CPU, so the group's checks and the pool's share one set-up.

The servers are set up in fixtures of their own (``postgres``, ``s3``, ``pool``), apart from
the real Prefect server's (``real_prefect_server``), so they can move to session fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.orchestration.organizations import ORGANIZATIONS_VARIABLE, key_block_name
from emissions_etl.orchestration.setup import setup_prefect
from emissions_etl.settings import Settings
from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._connection import INLINED_ROWS
from tests.postgres_server import PostgresServer, available
from tests.s3_server import S3Server, running_s3

from ..pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_xlsx
from . import nights
from .conftest import RealPrefectServer

pytestmark = [
    pytest.mark.real_server,
    pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)"),
    pytest.mark.timeout(900),
    pytest.mark.xdist_group("real-prefect-server"),  # one server (and PostgreSQL) for them all
]

PROJECT = Path(__file__).resolve().parents[2]
QUEUE = "pool-test"
BUCKET = "pool"
#: acme-es loads more rows than a lake inlines in its catalog: they make a Parquet file in the
#: store; acme-pt's stay in the catalog.
ROWS = {"acme-es": INLINED_ROWS + 200, "acme-pt": 18}


@dataclass
class Pool:
    """The pool's set-up: its organizations, the lake, the workers' folders and logs."""

    tenants: dict[str, Tenant]
    lake: Warehouse
    s3: S3Server
    folders: list[Path]
    logs: list[Path]
    setup_output: list[str]


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server, pytest.MonkeyPatch.context() as patch:
        for name, value in server.env().items():  # this process reads the lake too
            patch.setenv(name, value)
        server.create_bucket(BUCKET)
        yield server


@pytest.fixture(scope="module")
def pool(
    real_prefect_server: RealPrefectServer,
    postgres: PostgresServer,
    s3: S3Server,
    sandbox: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Pool]:
    folder = tmp_path_factory.mktemp("pool")
    tenants = {}
    for n, (name, rows) in enumerate(ROWS.items()):
        (folder / name).mkdir()
        tenants[name] = new_tenant(sandbox, folder / name)
        book = write_wastes_xlsx(folder / name / "wastes.xlsx",
                                 [waste_row(100 * n + i) for i in range(rows)])  # fmt: skip
        s3.client().upload_file(str(book), BUCKET, f"inbox/{name}/wastes/{name}.xlsx")
    toml = folder / "organizations.toml"
    toml.write_text(
        "\n\n".join(
            f'[[organization]]\nname = "{name}"\norganization_id = "{tenant.organization_id}"\n'
            f'api_key = "{tenant.api_key}"'
            for name, tenant in tenants.items()
        ) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    lake = f"ducklake:postgres:{postgres.create_database('pool')}"
    data = f"s3://{BUCKET}/lake/"
    settings = Settings(
        api_url=sandbox.base_url,
        ca_file=sandbox.ca_file,
        warehouse=lake,
        warehouse_data=data,
        inbox=f"s3://{BUCKET}/inbox",
        organizations=toml,
    )
    output: list[str] = []
    setup_prefect(settings, project_dir=PROJECT, say=output.append)
    homes = [tmp_path_factory.mktemp(f"worker-{n}") for n in range(2)]  # empty, its own home
    env = {home: {**real_prefect_server.subprocess_env(), **s3.env(), "HOME": str(home)}
           for home in homes}  # fmt: skip
    with nights.pool_workers(QUEUE, homes, env) as logs:
        yield Pool(tenants, Warehouse(lake, data_path=data), s3, homes, logs, output)


def night(pool: Pool) -> tuple[Any, list[Any]]:
    return nights.night(QUEUE, pool.logs, "the nightly of two organizations from the store")


@pytest.fixture(scope="module")
def first_night(pool: Pool) -> tuple[Any, list[Any]]:
    return night(pool)


def test_setup_writes_the_organizations_and_the_lake_takes_no_turns(pool: Pool) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    listed = Variable.get(ORGANIZATIONS_VARIABLE)

    assert [entry["name"] for entry in listed] == list(ROWS)  # type: ignore[union-attr,index]
    for name, tenant in pool.tenants.items():
        assert Secret.load(key_block_name(name)).get() == tenant.api_key  # type: ignore[union-attr]
        assert tenant.api_key not in str(listed)
        assert tenant.api_key not in "\n".join(pool.setup_output)
    no_turns = "takes several writers at once, runs take no turns (runs of one organization do"
    assert any(no_turns in line for line in pool.setup_output)


def test_two_workers_run_the_nightly_of_two_organizations_at_once_into_one_lake(
    pool: Pool, first_night: tuple[Any, list[Any]]
) -> None:
    nights.check_first_night(first_night, pool.logs, pool.tenants, ROWS)
    parent, children = first_night

    assert parent.state.message == "2 organization(s): 2 completed (0 partial), 0 failed"
    assert parent.name == f"nightly 2 organizations {BUCKET}/inbox"
    for child in children:
        assert child.work_queue_name == QUEUE
    # At once: the parent made both children before either ended, and neither waited for a
    # turn (a lake takes several writers; each organization has its own turn). Whether their
    # loads also overlap in time hangs on how soon a busy machine starts each one's process
    # (5 s here once, when the other took 7 s): not asserted.
    first_end = min(child.end_time for child in children)
    assert all(child.created < first_end for child in children), [
        (c.created, c.end_time) for c in children
    ]
    workers_said = "\n".join(log.read_text(errors="replace") for log in pool.logs)
    assert "waiting for organization" not in workers_said
    assert "waiting for the warehouse" not in workers_said


def test_two_workers_sharing_no_disk_load_two_organizations_from_the_store_into_one_lake(
    pool: Pool, first_night: tuple[Any, list[Any]]
) -> None:
    nights.check_first_night(first_night, pool.logs, pool.tenants, ROWS)
    landed = pool.lake.query(
        "SELECT organization_id, count(*) AS n, count(DISTINCT source_key) AS keys "
        "FROM emissions WHERE resource = 'wastes' GROUP BY ALL"
    )
    assert {row.organization_id: (row.n, row.keys) for row in landed.itertuples()} == {
        tenant.organization_id: (ROWS[name], ROWS[name]) for name, tenant in pool.tenants.items()
    }
    sources = pool.lake.query("SELECT DISTINCT source FROM load_runs ORDER BY 1")["source"]
    assert list(sources) == [f"s3://{BUCKET}/inbox/{name}/wastes/{name}.xlsx" for name in ROWS]
    assert any(key.endswith(".parquet") for key in pool.s3.keys(BUCKET, "lake/"))
    for folder in pool.folders:  # nothing of the inbox or the lake on a worker's disk
        kept = [p.name for p in folder.rglob("*") if p.suffix in (".xlsx", ".parquet", ".duckdb")]
        assert kept == [], kept


def test_a_second_night_from_the_store_creates_nothing_in_the_service(
    pool: Pool, first_night: tuple[Any, list[Any]]
) -> None:
    second = night(pool)

    nights.check_nothing_created_again(second, pool.tenants, ROWS, pool.lake)
