"""Arrivals on a real `prefect server start` with one worker: ``prefect-setup`` with an inbox
deploys the watcher (every minute) and the load its events trigger; a file copied into the inbox
is in the service within 2 minutes, nothing running but the server and the worker; the same
content under another name adds nothing and its run says as what it was loaded; three files at
once are each loaded once, by a run each; a file still being written is loaded whole, once.

The cases share one set-up (the server, one worker, an inbox) and run in this order: each
waits for the runs of its own files.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.orchestration.setup import ARRIVAL_DEPLOYMENTS, POOL, setup_prefect
from emissions_etl.warehouse import Warehouse

from ..pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_csv
from . import nights
from .conftest import RealPrefectServer

pytestmark = [
    pytest.mark.real_server,
    pytest.mark.timeout(900),
    pytest.mark.xdist_group("real-prefect-server"),  # one server for them all
]

PROJECT = Path(__file__).resolve().parents[2]
QUEUE = "arrivals-test"
#: What the issue asks: a file that lands is in the service within 2 minutes.
ARRIVAL_LIMIT = 120.0
RUN_WAIT = 300.0  # runs that take turns on the warehouse, each a fresh process, on 2 cores


@dataclass
class Arrivals:
    tenant: Tenant
    inbox: Path
    warehouse: Path
    log: Path
    setup_output: list[str]


@pytest.fixture(scope="module")
def arrivals(
    real_prefect_server: RealPrefectServer, sandbox: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Arrivals]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import DeploymentUpdate
    from prefect.exceptions import ObjectAlreadyExists

    folder = tmp_path_factory.mktemp("arrivals")
    tenant = new_tenant(sandbox, folder)
    inbox = folder / "inbox"
    (inbox / "wastes").mkdir(parents=True)
    output: list[str] = []
    setup_prefect(tenant.settings(inbox=str(inbox)), project_dir=PROJECT, say=output.append)
    with get_client(sync_client=True) as client:  # onto the test's queue: the worker polls it
        with contextlib.suppress(ObjectAlreadyExists):
            client.create_work_queue(name=QUEUE, work_pool_name=POOL)
        for deployment in client.read_deployments():
            if deployment.name in ARRIVAL_DEPLOYMENTS:
                client.update_deployment(deployment.id, DeploymentUpdate(work_queue_name=QUEUE))
    home = tmp_path_factory.mktemp("arrivals-worker")
    env = {home: {**real_prefect_server.subprocess_env(), "HOME": str(home)}}
    with nights.pool_workers(QUEUE, [home], env) as [log]:
        yield Arrivals(tenant, inbox, Path(tenant.warehouse.path), log, output)


def _arrival_runs(name: str) -> list[Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterName

    with get_client(sync_client=True) as client:
        return client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=[f"arrival wastes/{name}"]))
        )


def _wait_for_runs(names: list[str], arrivals: Arrivals) -> dict[str, Any]:
    """The run of each file of ``names``, once all are final."""
    deadline = time.monotonic() + RUN_WAIT
    while time.monotonic() < deadline:
        runs = {name: _arrival_runs(name) for name in names}
        if all(r and all(run.state and run.state.is_final() for run in r) for r in runs.values()):
            break
        time.sleep(2)
    tail = arrivals.log.read_text(errors="replace")[-4000:]
    for name, found in runs.items():
        assert len(found) == 1, f"{name}: {len(found)} run(s)\n{tail}"
        assert found[0].state.is_completed(), f"{found[0].state.message}\n{tail}"
    return {name: found[0] for name, found in runs.items()}


def _runs_of(arrivals: Arrivals, name: str) -> list[tuple[str, int]]:
    runs = Warehouse(arrivals.warehouse).query(
        "SELECT outcome, rows_read FROM load_runs WHERE source = ? ORDER BY started_at",
        [str(arrivals.inbox / "wastes" / name)],
    )
    return [(str(outcome), int(read)) for outcome, read in runs.itertuples(index=False)]


def test_setup_with_an_inbox_deploys_the_watcher_and_the_trigger_of_arrivals(
    arrivals: Arrivals,
) -> None:
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        watcher = client.read_deployment_by_name("watch_inbox/watch-inbox")
        load = client.read_deployment_by_name("load_arrival/load-arrival")
        automations = client.read_automations_by_name("emissions-etl: load each file that arrives")

    [schedule] = watcher.schedules
    assert schedule.schedule.interval.total_seconds() == 60  # type: ignore[union-attr]
    assert [a.actions[0].deployment_id for a in automations] == [load.id]  # type: ignore[union-attr]
    assert any(line.startswith("arrivals: watch-inbox looks") for line in arrivals.setup_output)


def test_a_file_copied_into_the_inbox_is_in_the_service_within_two_minutes(
    arrivals: Arrivals,
) -> None:
    made = write_wastes_csv(arrivals.tenant.workdir / "residuos_enero.csv",
                            [waste_row(n) for n in range(6)])  # fmt: skip
    copied = time.monotonic()
    shutil.copy(made, arrivals.inbox / "wastes" / "residuos_enero.csv")

    while time.monotonic() - copied < RUN_WAIT and nights.service_wastes(arrivals.tenant) < 6:
        time.sleep(1)
    took = time.monotonic() - copied
    print(f"\narrival to the records in the service: {took:.1f} s")

    assert nights.service_wastes(arrivals.tenant) == 6, arrivals.log.read_text()[-4000:]
    assert took <= ARRIVAL_LIMIT
    _wait_for_runs(["residuos_enero.csv"], arrivals)
    assert _runs_of(arrivals, "residuos_enero.csv") == [("succeeded", 6)]


def test_the_same_content_under_another_name_adds_nothing_and_its_run_says_where_it_went(
    arrivals: Arrivals,
) -> None:
    first = arrivals.inbox / "wastes" / "residuos_enero.csv"
    _wait_for_runs([first.name], arrivals)  # whichever order the cases run in
    shutil.copy(first, arrivals.inbox / "wastes" / "residuos_enero (copia).csv")

    run = _wait_for_runs(["residuos_enero (copia).csv"], arrivals)["residuos_enero (copia).csv"]
    nights.wait_for_the_last_logs([run], time.monotonic() + 60)

    said = [log.message for log in nights.run_logs(run)]
    today = datetime.now(UTC).date().isoformat()
    skip = f"already loaded as wastes/residuos_enero.csv on {today}"
    assert any(skip in line for line in said), said
    assert nights.service_wastes(arrivals.tenant) == 6
    assert _runs_of(arrivals, "residuos_enero (copia).csv") == []


def test_three_files_at_once_are_each_loaded_once_by_a_run_of_their_own(
    arrivals: Arrivals,
) -> None:
    before = nights.service_wastes(arrivals.tenant)
    names = [f"site_{n}.csv" for n in range(3)]
    made = [write_wastes_csv(arrivals.tenant.workdir / name,
                             [waste_row(100 + 10 * n + i) for i in range(4)])
            for n, name in enumerate(names)]  # fmt: skip
    for path in made:
        shutil.copy(path, arrivals.inbox / "wastes" / path.name)

    _wait_for_runs(names, arrivals)

    assert nights.service_wastes(arrivals.tenant) == before + 12
    for name in names:
        assert _runs_of(arrivals, name) == [("succeeded", 4)]


def test_a_file_still_being_written_is_loaded_whole_once_it_is_complete(
    arrivals: Arrivals,
) -> None:
    before = nights.service_wastes(arrivals.tenant)
    rows = [waste_row(200 + n) for n in range(12)]
    whole = write_wastes_csv(arrivals.tenant.workdir / "whole.csv", rows).read_bytes()
    target = arrivals.inbox / "wastes" / "slow_copy.csv"
    chunk = len(whole) // 30 + 1

    def copy_slowly() -> None:  # 30 pieces, 3 s apart: 90 s, longer than a look's interval
        with target.open("wb") as out:
            for start in range(0, len(whole), chunk):
                out.write(whole[start : start + chunk])
                out.flush()
                time.sleep(3)

    writer = threading.Thread(target=copy_slowly)
    writer.start()
    writer.join()

    _wait_for_runs([target.name], arrivals)

    assert _runs_of(arrivals, target.name) == [("succeeded", 12)]
    assert nights.service_wastes(arrivals.tenant) == before + 12
