"""A group's nightly on a real `prefect server start`: two workers of one pool, two
organizations each with its own key, one DuckLake warehouse whose catalog is in a real
PostgreSQL. prefect-setup writes the organizations (a variable and a Secret block each); the
nightly run starts one child run per organization on the pool; the workers run them at once
(a lake takes several writers: runs of different organizations take no turns); the lake holds
each organization's rows under its id; a second night over the same files creates nothing in
the service.
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
from tests.postgres_server import PostgresServer, available

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
QUEUE = "organizations-test"
ROWS = {"acme-es": 6, "acme-pt": 9}


@dataclass
class Group:
    """The group's set-up: its organizations, the lake, the two workers' logs."""

    tenants: dict[str, Tenant]
    lake: Warehouse
    inbox: Path
    logs: list[Path]
    setup_output: list[str]


@pytest.fixture(scope="module")
def group(
    real_prefect_server: RealPrefectServer,
    sandbox: Any,
    postgres: PostgresServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Group]:
    folder = tmp_path_factory.mktemp("group")
    tenants = {}
    for name in ROWS:
        (folder / name).mkdir()
        tenants[name] = new_tenant(sandbox, folder / name)
    inbox = folder / "inbox"
    for n, (name, rows) in enumerate(ROWS.items()):
        (inbox / name / "wastes").mkdir(parents=True)
        write_wastes_xlsx(
            inbox / name / "wastes" / f"{name}.xlsx",
            [waste_row(100 * n + i) for i in range(rows)],
        )
    entries = [
        "\n".join([
            "[[organization]]",
            f'name = "{name}"',
            f'organization_id = "{tenant.organization_id}"',
            f'api_key = "{tenant.api_key}"',
        ])
        for name, tenant in tenants.items()
    ]  # fmt: skip
    toml = folder / "organizations.toml"
    toml.write_text("\n\n".join(entries) + "\n", encoding="utf-8")
    lake = f"ducklake:postgres:{postgres.create_database('group')}"
    data = folder / "lake-data"
    settings = Settings(
        api_url=sandbox.base_url,
        ca_file=sandbox.ca_file,
        warehouse=lake,
        warehouse_data=str(data),
        inbox=inbox,
        organizations=toml,
    )
    output: list[str] = []
    setup_prefect(settings, project_dir=PROJECT, say=output.append)

    homes = [folder / f"worker-{n}" for n in range(2)]
    for home in homes:
        home.mkdir()
    env = dict.fromkeys(homes, real_prefect_server.subprocess_env())
    with nights.pool_workers(QUEUE, homes, env) as logs:
        yield Group(tenants, Warehouse(lake, data_path=str(data)), inbox, logs, output)


def night(group: Group) -> tuple[Any, list[Any]]:
    return nights.night(QUEUE, group.logs, "the nightly of two organizations")


@pytest.fixture(scope="module")
def first_night(group: Group) -> tuple[Any, list[Any]]:
    return night(group)


def test_setup_writes_the_organizations_and_the_lake_takes_no_turns(group: Group) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    listed = Variable.get(ORGANIZATIONS_VARIABLE)

    assert [entry["name"] for entry in listed] == list(ROWS)  # type: ignore[union-attr,index]
    for name, tenant in group.tenants.items():
        assert Secret.load(key_block_name(name)).get() == tenant.api_key  # type: ignore[union-attr]
        assert tenant.api_key not in str(listed)
        assert tenant.api_key not in "\n".join(group.setup_output)
    no_turns = "takes several writers at once, runs take no turns (runs of one organization do"
    assert any(no_turns in line for line in group.setup_output)


def test_two_workers_run_the_nightly_of_two_organizations_at_once_into_one_lake(
    group: Group, first_night: tuple[Any, list[Any]]
) -> None:
    nights.check_first_night(first_night, group.logs, group.tenants, ROWS)
    parent, children = first_night

    assert parent.state.message == "2 organization(s): 2 completed (0 partial), 0 failed"
    assert parent.name == f"nightly 2 organizations {group.inbox.parent.name}/inbox"
    for child in children:
        assert child.work_queue_name == QUEUE
    # At once: each child started before the other ended (two organizations take no turns).
    first, second = sorted(children, key=lambda run: run.start_time)
    assert second.start_time < first.end_time, [(c.start_time, c.end_time) for c in children]
    landed = group.lake.query(
        "SELECT organization_id, count(*) AS n FROM emissions WHERE resource = 'wastes' "
        "GROUP BY ALL"
    )
    assert dict(zip(landed["organization_id"], landed["n"], strict=True)) == {
        tenant.organization_id: ROWS[name] for name, tenant in group.tenants.items()
    }


def test_a_second_night_over_the_same_files_creates_nothing_in_the_service(
    group: Group, first_night: tuple[Any, list[Any]]
) -> None:
    second = night(group)

    nights.check_nothing_created_again(second, group.tenants, ROWS, group.lake)
