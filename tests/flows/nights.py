"""The nightly of several organizations on a real server: workers of one pool on a queue of the
test's own, a night started from the deployment and waited for, and what the service holds
after."""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from emissions_etl.orchestration.setup import POOL
from emissions_etl.warehouse import Warehouse

from ..pipeline.tenancy import Tenant
from .conftest import PREFECT_BIN, stop_process_group

NIGHT_WAIT = 420.0  # a parent and two children, each a fresh process on a 2-core machine


@contextmanager
def pool_workers(
    queue: str, homes: Sequence[Path], env_of: Mapping[Path, Mapping[str, str]]
) -> Iterator[list[Path]]:
    """One ``prefect worker start`` (two runs at once) per folder of ``homes``, run there with
    its environment, polling ``queue`` only; stopped together at the end. Yields their logs."""
    from prefect.client.orchestration import get_client
    from prefect.exceptions import ObjectAlreadyExists

    with get_client(sync_client=True) as client, contextlib.suppress(ObjectAlreadyExists):
        client.create_work_queue(name=queue, work_pool_name=POOL)
    workers, logs = [], []
    for n, home in enumerate(homes):
        log = home / f"worker-{n}.log"
        with log.open("w") as out:
            workers.append(
                subprocess.Popen(
                    [PREFECT_BIN, "worker", "start", "--pool", POOL, "--work-queue", queue,
                     "--limit", "2", "--name", f"{queue}-worker-{n}"],
                    cwd=home, env=dict(env_of[home]), stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            )
        logs.append(log)
    try:
        yield logs
    finally:  # both at once: a worker takes up to 15 s to stop on SIGTERM
        stopping = [threading.Thread(target=stop_process_group, args=(w,)) for w in workers]
        for thread in stopping:
            thread.start()
        for thread in stopping:
            thread.join()


def night(queue: str, logs: Sequence[Path], what: str) -> tuple[Any, list[Any]]:
    """One nightly run of the deployment on ``queue``, waited for; it and its children."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterParentFlowRunId

    with get_client(sync_client=True) as client:
        nightly = client.read_deployment_by_name("nightly_load/nightly")
        made = client.create_flow_run_from_deployment(nightly.id, work_queue_name=queue)
        started = time.monotonic()
        while time.monotonic() - started < NIGHT_WAIT:
            parent = client.read_flow_run(made.id)
            if parent.state is not None and parent.state.is_final():
                break
            time.sleep(2)
        children = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(
                parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[made.id])
            )
        )
    tails = "\n".join(log.read_text(errors="replace")[-3000:] for log in logs)
    assert parent.state is not None, tails
    assert parent.state.is_final(), tails
    print(f"\n{what}: {time.monotonic() - started:.1f} s")
    return parent, sorted(children, key=lambda run: run.name)


def worker_run_once(
    command: Sequence[str], folder: Path, env: Mapping[str, str], run_id: Any, wait: float
) -> tuple[Any, str]:
    """``command`` (a ``prefect worker start ... --run-once``) run in ``folder`` with ``env``
    alone until it ends (stopped after ``wait`` seconds); the flow run ``run_id`` as it is
    then, and what the worker said (its log is ``folder/worker.log``)."""
    from prefect.client.orchestration import get_client

    log = folder / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
            list(command), cwd=folder, env=dict(env), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        worker.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        pass
    finally:
        stop_process_group(worker)
    with get_client(sync_client=True) as client:
        return client.read_flow_run(run_id), log.read_text(errors="replace")


def run_logs(run: Any) -> list[Any]:
    """Every log line the server holds for ``run``."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId

    with get_client(sync_client=True) as client:
        return client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run.id])))


def wait_for_the_last_logs(runs: list[Any], deadline: float) -> None:
    """Until the server holds each run's last log line (``Finished in state ...``). A run's
    state is final before its process has sent its last logs; stopping the worker then kills
    the process with them (the UI test once waited 90 s for a task's lines that never came)."""
    waiting = list(runs)
    while time.monotonic() < deadline:
        waiting = [
            run
            for run in waiting
            if not any(log.message.startswith("Finished in state") for log in run_logs(run))
        ]
        if not waiting:
            return
        time.sleep(0.5)


def service_wastes(tenant: Tenant) -> int:
    """How many wastes the service holds for the tenant."""
    with tenant.client() as client:
        return sum(1 for _ in client.iter_wastes())


def check_first_night(
    night: tuple[Any, list[Any]],
    logs: Sequence[Path],
    tenants: Mapping[str, Tenant],
    rows: Mapping[str, int],
) -> None:
    """A first night: it and a child per organization (named after it and its inbox) completed,
    each organization's service holds its rows, and no key is in the workers' logs."""
    parent, children = night
    text = "\n".join(log.read_text(errors="replace") for log in logs)
    assert parent.state.is_completed(), f"{parent.state.message}\n{text[-6000:]}"
    assert [child.name for child in children] == [f"nightly {name} inbox/{name}" for name in rows]
    for child in children:
        assert child.state.is_completed(), child.state.message
    for name, tenant in tenants.items():
        assert service_wastes(tenant) == rows[name]
        assert tenant.api_key not in text


def check_nothing_created_again(
    night: tuple[Any, list[Any]],
    tenants: Mapping[str, Tenant],
    rows: Mapping[str, int],
    lake: Warehouse,
) -> None:
    """A second night over the same files: every run completed having loaded nothing, each
    organization's service holds its rows once, and the lake its wastes once."""
    parent, children = night
    assert parent.state.is_completed(), parent.state.message
    for child in children:
        assert child.state.is_completed(), child.state.message
        assert ", loaded 0, " in child.state.message
    for name, tenant in tenants.items():
        assert service_wastes(tenant) == rows[name]
    landed = lake.query("SELECT count(*) AS n FROM emissions WHERE resource = 'wastes'")
    assert int(landed["n"][0]) == sum(rows.values())
