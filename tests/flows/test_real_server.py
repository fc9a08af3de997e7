"""On a real `prefect server start`: prefect-setup, the scheduler's runs, and a worker's run.

Everything the ephemeral test harness cannot show: the scheduler service turns the nightly
cron into scheduled flow runs, and a process worker started outside the project runs a
deployment configured only by the Prefect variables and Secret block that prefect-setup wrote.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from emissions_etl.client import (
    DEFAULT_OCCUPY,
    ApiKeyAuth,
    EmissionsClient,
    PrefectTokenSource,
    prefect_limits,
)
from emissions_etl.connection import resource_limits
from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.config import SECRET_BLOCK, VARIABLES
from emissions_etl.orchestration.setup import (
    POOL,
    WORKER_COMMAND,
    ensure_global_concurrency_limit,
    setup_prefect,
)
from emissions_etl.settings import Settings
from emissions_etl.warehouse import Warehouse
from tests.limits_driver import POLICIES, RATE_ROUTE, SLOT_ROUTE, Job, count_statuses, run_processes
from tests.sandbox_fixture import OrgCredentials, SandboxServer, create_org

from ..pipeline.tenancy import FACILITIES, waste_row, write_wastes_xlsx
from .conftest import PREFECT_BIN, RealPrefectServer, stop_process_group

pytestmark = [
    pytest.mark.real_server,
    pytest.mark.timeout(360),
    pytest.mark.xdist_group("prefect-server"),  # one server for the module, on one worker
]

PROJECT = Path(__file__).resolve().parents[2]
SCHEDULED_RUN_WAIT = 90.0
WORKER_RUN_WAIT = 150.0
TEST_QUEUE = "real-server-test"  # the worker polls only this queue: the nightly runs stay put


@dataclass(frozen=True)
class PreparedServer:
    """A real server after prefect-setup, for an organization of its own on the sandbox."""

    server: RealPrefectServer
    org: OrgCredentials
    workdir: Path
    output: list[str]
    setup_seconds: float


@pytest.fixture(scope="module")
def prepared(
    real_prefect_server: RealPrefectServer,
    sandbox: SandboxServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> PreparedServer:
    workdir = tmp_path_factory.mktemp("real-server-run")
    org = create_org(sandbox.db_path, "Real Prefect server")
    auth = ApiKeyAuth(org.api_key, org.organization_id)
    with EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client:
        for name in FACILITIES:
            client.create_facility(name=name, type="warehouse", country="ES")
    (workdir / "inbox").mkdir()
    settings = Settings(
        api_url=sandbox.base_url,
        api_key=org.api_key,
        organization_id=org.organization_id,
        ca_file=sandbox.ca_file,
        warehouse=workdir / "warehouse.duckdb",
        inbox=workdir / "inbox",
    )
    output: list[str] = []
    started = time.monotonic()
    setup_prefect(settings, project_dir=PROJECT, say=output.append)
    return PreparedServer(real_prefect_server, org, workdir, output, time.monotonic() - started)


def test_setup_creates_the_pool_the_secret_the_variables_and_every_deployment(
    prepared: PreparedServer,
) -> None:
    from prefect.blocks.system import Secret
    from prefect.client.orchestration import get_client
    from prefect.variables import Variable

    print(
        f"\nprefect server healthy after {prepared.server.started_in:.1f} s; "
        f"prefect-setup took {prepared.setup_seconds:.1f} s"
    )
    with get_client(sync_client=True) as client:
        pool = client.read_work_pool(POOL)
        nightly = client.read_deployment_by_name("nightly_load/nightly")
        wastes = client.read_deployment_by_name("load_wastes/load-wastes")

    assert pool.type == "process"
    assert Secret.load(SECRET_BLOCK).get() == prepared.org.api_key  # type: ignore[union-attr]
    assert Variable.get(VARIABLES["organization_id"]) == prepared.org.organization_id
    assert Variable.get(VARIABLES["inbox"]) == str(prepared.workdir / "inbox")
    [schedule] = nightly.schedules
    assert (schedule.schedule.cron, schedule.schedule.timezone) == (  # type: ignore[union-attr]
        "30 2 * * *",
        "Europe/Madrid",
    )
    assert schedule.active
    assert "inbox" not in nightly.parameters  # read when the run starts, not baked in
    for deployment in (nightly, wastes):  # no folder of the deploying machine baked in either
        step = "emissions_etl.orchestration.steps.set_project_directory"
        assert deployment.pull_steps == [{step: {}}]
    assert any(WORKER_COMMAND in line for line in prepared.output)
    assert prepared.org.api_key not in "\n".join(prepared.output)


def test_setup_again_changes_only_what_is_given(
    prepared: PreparedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    for name in ("API_URL", "API_KEY", "ORGANIZATION_ID", "CA_FILE", "WAREHOUSE", "INBOX"):
        monkeypatch.delenv(f"EMISSIONS_{name}", raising=False)
    output: list[str] = []

    setup_prefect(Settings(inbox=tmp_path), project_dir=PROJECT, deploy=False, say=output.append)

    assert f"work pool {POOL} (process): unchanged" in output
    assert Variable.get(VARIABLES["inbox"]) == str(tmp_path)
    assert Variable.get(VARIABLES["organization_id"]) == prepared.org.organization_id
    assert Secret.load(SECRET_BLOCK).get() == prepared.org.api_key  # type: ignore[union-attr]


def test_the_scheduler_creates_scheduled_runs_of_the_nightly_deployment(
    prepared: PreparedServer,
) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterDeploymentId,
        FlowRunFilterState,
        FlowRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType

    started = time.monotonic()
    with get_client(sync_client=True) as client:
        nightly = client.read_deployment_by_name("nightly_load/nightly")
        scheduled_runs = FlowRunFilter(
            deployment_id=FlowRunFilterDeploymentId(any_=[nightly.id]),
            state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[StateType.SCHEDULED])),
        )
        runs = client.read_flow_runs(flow_run_filter=scheduled_runs)
        while not runs and time.monotonic() - started < SCHEDULED_RUN_WAIT:
            time.sleep(1)
            runs = client.read_flow_runs(flow_run_filter=scheduled_runs)
    if runs and nightly.created:
        after = min(run.created for run in runs if run.created) - nightly.created
        print(f"\nscheduler made {len(runs)} runs {after.total_seconds():.1f} s after the deploy")

    assert runs, f"no scheduled run after {SCHEDULED_RUN_WAIT:.0f} s"
    assert all(run.auto_scheduled for run in runs)  # made by the scheduler service
    for run in runs:
        assert run.expected_start_time is not None
        local = run.expected_start_time.astimezone(ZoneInfo("Europe/Madrid"))
        assert (local.hour, local.minute) == (2, 30)
        assert local > datetime.now(ZoneInfo("Europe/Madrid"))


def test_a_worker_runs_the_load_wastes_deployment_end_to_end(
    prepared: PreparedServer, tmp_path: Path
) -> None:
    from prefect.client.orchestration import get_client

    workbook = write_wastes_xlsx(tmp_path / "wastes.xlsx", [waste_row(n) for n in range(5)])
    with get_client(sync_client=True) as client:
        client.create_work_queue(name=TEST_QUEUE, work_pool_name=POOL)
        deployment = client.read_deployment_by_name("load_wastes/load-wastes")
        run = client.create_flow_run_from_deployment(
            deployment.id, parameters={"path": str(workbook)}, work_queue_name=TEST_QUEUE
        )
    worker_log = tmp_path / "worker.log"
    command = [PREFECT_BIN, "worker", "start", "--pool", POOL, "--work-queue", TEST_QUEUE]
    started = time.monotonic()
    with worker_log.open("w") as out:
        worker = subprocess.Popen(  # outside the project, without any EMISSIONS_* variable
            [*command, "--run-once"],
            cwd=tmp_path,
            env=prepared.server.subprocess_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        worker.wait(timeout=WORKER_RUN_WAIT)
    except subprocess.TimeoutExpired:
        pass
    finally:
        stop_process_group(worker)
    with get_client(sync_client=True) as client:
        state = client.read_flow_run(run.id).state
    log = worker_log.read_text(errors="replace")
    print(f"\nworker run-once took {time.monotonic() - started:.1f} s")

    assert state is not None
    assert state.is_completed(), f"{state.name}: {state.message}\n{log[-4000:]}"
    runs = Warehouse(prepared.workdir / "warehouse.duckdb").query(
        "SELECT source, outcome, rows_loaded FROM load_runs"
    )
    assert [(Path(r.source).name, r.outcome, r.rows_loaded) for r in runs.itertuples()] == [
        ("wastes.xlsx", "succeeded", 5)
    ]
    assert prepared.org.api_key not in log


def test_a_global_concurrency_limit_is_created_once_and_kept_as_asked(
    real_prefect_server: RealPrefectServer,
) -> None:
    from prefect.client.orchestration import get_client

    name = "emissions-api-bulk-uploads"
    assert ensure_global_concurrency_limit(name, 4, slot_decay_per_second=2.0) == "created"
    assert ensure_global_concurrency_limit(name, 4, slot_decay_per_second=2.0) == "unchanged"
    assert ensure_global_concurrency_limit(name, 6, slot_decay_per_second=3.0) == "updated"

    with get_client(sync_client=True) as client:
        limit = client.read_global_concurrency_limit_by_name(name)
    assert (limit.limit, limit.slot_decay_per_second, limit.active) == (6, 3.0, True)


def test_setup_creates_a_prefect_limit_for_every_limit_of_the_service(
    prepared: PreparedServer,
) -> None:
    from prefect.client.orchestration import get_client

    wanted = prefect_limits(resource_limits())
    with get_client(sync_client=True) as client:
        held = {
            limit.name: (limit.limit, limit.slot_decay_per_second, limit.active)
            for limit in (client.read_global_concurrency_limit_by_name(w.name) for w in wanted)
        }
    # interface: Limits, 30/s and 10 in flight on the logistics routes the resources write to
    assert held == {
        "emissions-etl-post-v1-logistics-recharges": (30, 0.0, True),
        "emissions-etl-post-v1-logistics-recharges-bulk-in-flight": (10, 0.0, True),
        "emissions-etl-post-v1-logistics-requests": (30, 0.0, True),
        "emissions-etl-post-v1-logistics-requests-bulk-in-flight": (10, 0.0, True),
    }
    assert any(
        line.startswith("global concurrency limit emissions-etl-post-v1-logistics-requests ")
        for line in prepared.output
    )


def _two_machines(
    server: RealPrefectServer, sandbox: SandboxServer, route: str, *, hold: float | None
) -> dict[int, int]:
    """Two processes on one key, each with pools of its own (as on two machines) behind the
    real server's limits, 8 threads each posting for 3 s: how many answers had each status."""
    for limit in prefect_limits(POLICIES):
        ensure_global_concurrency_limit(limit.name, limit.limit)
    org = create_org(sandbox.db_path, f"Two machines {route}")
    job = Job(
        sandbox.base_url,
        str(sandbox.ca_file),
        org.organization_id,
        route,
        seconds=3.0,
        threads=8,
        hold=hold,
        prefect_occupy=DEFAULT_OCCUPY,
    )
    rows, _ = run_processes([job, job], org.api_key, env=server.subprocess_env())
    return count_statuses(rows)


def test_workers_on_two_machines_share_one_keys_concurrency_cap_through_prefect(
    real_prefect_server: RealPrefectServer, sandbox: SandboxServer
) -> None:
    # 16 threads against the sandbox's cap of 10 in flight: each machine alone would send 10.
    statuses = _two_machines(real_prefect_server, sandbox, SLOT_ROUTE, hold=0.3)
    print(f"\n{statuses[200]} requests of 0.3 s in 3 s through the Prefect concurrency limit")
    assert set(statuses) == {200}, statuses
    # 10 slots for 3 s are 100 requests of 0.3 s; handing slots over between machines costs
    # some (94 on an idle machine), and the other tests share the cores.
    assert statuses[200] >= 50


def test_workers_on_two_machines_share_one_keys_rate_through_prefect(
    real_prefect_server: RealPrefectServer, sandbox: SandboxServer
) -> None:
    # 16 threads against the sandbox's 30 a second: each machine alone would send 30 a second.
    statuses = _two_machines(real_prefect_server, sandbox, RATE_ROUTE, hold=None)
    print(f"\n{statuses[200]} requests in 3 s through the Prefect rate limit")
    assert set(statuses) == {200}, statuses
    # 30 a second for 3 s (106 on an idle machine: the run overlaps a fourth window); machines
    # wait for a lease only until another gives one back, not for Prefect's Retry-After.
    assert statuses[200] >= 60


def test_a_prefect_limit_that_does_not_exist_stops_the_request_with_what_to_run(
    real_prefect_server: RealPrefectServer, sandbox: SandboxServer
) -> None:
    org = create_org(sandbox.db_path, "Limit never created")
    source = PrefectTokenSource(name_of=lambda bucket: "emissions-etl-never-created")
    auth = ApiKeyAuth(org.api_key, org.organization_id)
    with (
        EmissionsClient(
            sandbox.base_url,
            auth,
            ca_file=sandbox.ca_file,
            policies=POLICIES,
            token_source=source,
            owns_token_source=True,
        ) as client,
        pytest.raises(ConfigurationError, match="emissions-etl-never-created.*prefect-setup"),
    ):
        client.request("POST", SLOT_ROUTE)  # asked in the background, raised to the request
