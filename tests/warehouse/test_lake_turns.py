"""Writers of one organization take turns in a lake whose catalog is in a real PostgreSQL: the
turn is a session advisory lock PostgreSQL keeps, so two command-line loads of the same files
started together create nothing twice (the second says it waits), a load that dies gives the
turn back, and other organizations do not wait."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._catalog_turn import CatalogTurn
from emissions_etl.warehouse._target import WarehouseTarget
from tests.cli_process import start_etl
from tests.pipeline.tenancy import Tenant, new_tenant
from tests.postgres_server import PostgresServer, available
from tests.warehouse.test_lake import lake_env

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)"),
    pytest.mark.xdist_group("postgres"),  # the lake modules share one PostgreSQL, on one worker
    pytest.mark.timeout(900),
]

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox"
#: Files of resources the service creates one record per request (no idempotency key makes a
#: second create of the same row the same record): where two loads at once created twice.
FILES = [
    INBOX / "facilities" / "centros_2026.xlsx",
    INBOX / "vehicles" / "flota_2026.xlsx",
    INBOX / "vehicle_consumptions" / "tarjetas_combustible_2026.csv",
    INBOX / "employees" / "plantilla_2026.xlsx",
    INBOX / "commuting_periods" / "encuesta_movilidad_2026.xlsx",
]


def service_records(tenant: Tenant) -> dict[str, int]:
    """How many records of each resource the service holds for the tenant."""
    with tenant.client() as client:
        vehicles = list(client.iter_items("/v1/vehicles"))
        employees = list(client.iter_items("/v1/employees"))
        return {
            "facilities": sum(1 for _ in client.iter_items("/v1/facilities")),
            "vehicles": len(vehicles),
            "vehicle_consumptions": sum(
                sum(1 for _ in client.iter_items(f"/v1/vehicles/{vehicle['id']}/consumptions"))
                for vehicle in vehicles
            ),
            "employees": len(employees),
            "commuting_periods": sum(
                sum(1 for _ in client.iter_items("/v1/employee-historic",
                                                 {"employee_id": employee["id"]}))
                for employee in employees
            ),
        }  # fmt: skip


def without_facilities(tenant: Tenant) -> Tenant:
    """The tenant without the facilities it was made with: the sample brings its own."""
    with tenant.client() as client:
        for item in list(client.iter_items("/v1/facilities")):
            client.send_json("DELETE", f"/v1/facilities/{item['id']}")
    return tenant


def test_two_loads_of_one_organization_started_together_create_nothing_twice(
    sandbox, postgres: PostgresServer, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tenant = without_facilities(new_tenant(sandbox, tmp_path))
    conninfo = postgres.create_database("together")
    env = lake_env(tenant, conninfo, tmp_path / "lake-data")

    loads = [start_etl(["load", *map(str, FILES)], env=env) for _ in range(2)]
    ended = [load.communicate(timeout=600) for load in loads]

    assert [load.returncode for load in loads] == [1, 1], [err[-2000:] for _, err in ended]
    held = service_records(tenant)
    landed = Warehouse(env["EMISSIONS_WAREHOUSE"], data_path=env["EMISSIONS_WAREHOUSE_DATA"]).query(
        "SELECT resource, count(*) AS records, count(DISTINCT source_key) AS keys "
        "FROM emissions GROUP BY ALL"
    )
    in_lake = {row.resource: (row.records, row.keys) for row in landed.itertuples()}
    assert {name: in_lake[name] for name in held} == {name: (n, n) for name, n in held.items()}
    assert min(held.values()) > 0
    waiting = f"waiting for organization {tenant.organization_id} in the lake"
    assert any(waiting in err for _, err in ended), [err[-2000:] for _, err in ended]
    said = next(line for _, err in ended for line in err.splitlines() if waiting in line)
    assert "another load (pid " in said
    assert "is loading it;" in said


def test_a_writer_of_another_organization_does_not_wait(postgres: PostgresServer) -> None:
    target = WarehouseTarget(f"ducklake:postgres:{postgres.create_database('others')}")
    first = CatalogTurn(target, "org-a")
    first.acquire(5)
    try:
        other = CatalogTurn(target, "org-b")
        started = time.monotonic()
        other.acquire(5)
        other.release()
        assert time.monotonic() - started < 2
    finally:
        first.release()


def test_a_second_writer_of_the_organization_gives_up_naming_the_holder(
    postgres: PostgresServer,
) -> None:
    target = WarehouseTarget(f"ducklake:postgres:{postgres.create_database('held')}")
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, target.location, "org-a"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        said: list[str] = []
        with pytest.raises(WarehouseError) as raised:
            CatalogTurn(target, "org-a").acquire(3, said.append)
        assert str(raised.value) == (
            f"organization org-a in the lake {target} is being loaded by another load "
            f"(pid {holder.pid} on {os.uname().nodename}); waited 3 s: try again once it ends"
        )
        assert said == [
            f"waiting for organization org-a in the lake {target}: another load "
            f"(pid {holder.pid} on {os.uname().nodename}) is loading it; 2 s of at most 3 s"
        ]
    finally:
        holder.kill()
        holder.wait()


def test_the_turn_of_a_load_that_died_comes_back_at_once(postgres: PostgresServer) -> None:
    target = WarehouseTarget(f"ducklake:postgres:{postgres.create_database('died')}")
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, target.location, "org-a"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()

    turn = CatalogTurn(target, "org-a")
    started = time.monotonic()
    turn.acquire(30)
    turn.release()
    assert time.monotonic() - started < 10


def test_upkeep_runs_beside_a_load_holding_its_organization_s_turn(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    location = f"ducklake:postgres:{postgres.create_database('upkeep_beside')}"
    data = tmp_path / "lake-data"
    with Warehouse(location, data_path=data, organization_id="org-b").writer():
        pass  # the lake and its tables
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, location, "org-a"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        lake = Warehouse(location, data_path=data, organization_id="org-a", wait_seconds=2)

        upkeep = lake.maintain(retention_days=30)  # a writer of org-a would give up after 2 s

        assert upkeep.lines()
        with pytest.raises(WarehouseError, match="is being loaded by another load"), lake.writer():
            pass
    finally:
        holder.kill()
        holder.wait()


def test_writers_nested_in_one_thread_share_the_organization_s_turn(
    postgres: PostgresServer,
) -> None:
    target = WarehouseTarget(f"ducklake:postgres:{postgres.create_database('nested')}")
    outer, inner = CatalogTurn(target, "org-a"), CatalogTurn(target, "org-a")
    outer.acquire(1)
    inner.acquire(1)  # would wait the whole second, then fail, on a session of its own
    inner.release()
    other = CatalogTurn(target, "org-a")
    try:
        with pytest.raises(WarehouseError):
            _in_thread(lambda: other.acquire(0.5))
    finally:
        outer.release()
    _in_thread(lambda: (other.acquire(1), other.release()))


def _in_thread(call) -> None:  # type: ignore[no-untyped-def]
    import threading

    raised: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            raised.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if raised:
        raise raised[0]


#: A process holding an organization's turn until it is killed.
_HOLD = """
import sys, time
from emissions_etl.warehouse._catalog_turn import CatalogTurn
from emissions_etl.warehouse._target import WarehouseTarget
CatalogTurn(WarehouseTarget(sys.argv[1]), sys.argv[2]).acquire(5)
print("held", flush=True)
time.sleep(600)
"""
