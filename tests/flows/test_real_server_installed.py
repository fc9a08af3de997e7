"""emissions-etl installed as a package, with no checkout, on a real `prefect server start`:
``prefect-setup`` run from an empty folder with the installed package alone deploys the flows
by module path; a worker started in another empty folder runs the nightly deployment over an
inbox to Completed, from the installed flows; the warehouse holds its records with co2e.

The package is the session's wheel in a venv of its own (``tests/installed_package.py``):
neither process has the checkout on its path, and the run's own logs say where it imported
emissions-etl and its flows from.
"""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.orchestration.organizations import ORGANIZATIONS_VARIABLE
from emissions_etl.orchestration.setup import POOL
from tests.installed_package import PROJECT, InstalledPackage
from tests.sandbox_fixture import SandboxServer

from ..pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_xlsx
from .conftest import RealPrefectServer
from .nights import run_logs, worker_run_once

pytestmark = [
    pytest.mark.real_server,
    pytest.mark.timeout(600),
    pytest.mark.xdist_group("real-prefect-server"),  # one server (and PostgreSQL) for them all
]

QUEUE = "installed-package-test"  # the worker polls only this queue: scheduled runs stay put
ROWS = 6
SETUP_TIMEOUT = 300.0
WORKER_RUN_WAIT = 300.0
ENTRYPOINTS = {
    "nightly_load/nightly": "emissions_etl_flows.nightly.nightly_load",
    "maintain_warehouse/maintain-warehouse": "emissions_etl_flows.maintenance.maintain_warehouse",
    "load_wastes/load-wastes": "emissions_etl_flows.wastes.load_wastes",
}


@dataclass(frozen=True)
class InstalledNight:
    """prefect-setup from one empty folder, then a nightly run by a worker in another."""

    package: InstalledPackage
    tenant: Tenant
    setup: subprocess.CompletedProcess[str]
    setup_folder: Path
    worker_folder: Path
    run: Any
    worker_log: str
    seconds: float


@pytest.fixture(scope="module")
def installed_night(
    real_prefect_server: RealPrefectServer,
    installed_package: InstalledPackage,
    sandbox: SandboxServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> InstalledNight:
    from prefect.client.orchestration import get_client
    from prefect.variables import Variable

    started = time.monotonic()
    tenant = new_tenant(sandbox, tmp_path_factory.mktemp("installed-tenant"))
    (tenant.workdir / "inbox" / "wastes").mkdir(parents=True)
    write_wastes_xlsx(tenant.workdir / "inbox" / "wastes" / "night.xlsx",
                      [waste_row(n) for n in range(ROWS)])  # fmt: skip
    Variable.unset(ORGANIZATIONS_VARIABLE)  # another module's organizations: one run, not many
    setup_folder, worker_folder = (tmp_path_factory.mktemp(n) for n in ("setup", "worker"))
    settings = {
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(tenant.warehouse.path),
        "EMISSIONS_INBOX": str(tenant.workdir / "inbox"),
    }
    base = real_prefect_server.subprocess_env()  # no EMISSIONS_* of this process
    setup = subprocess.run(
        [installed_package.script("emissions-etl"), "prefect-setup"],
        cwd=setup_folder, env={**installed_package.env(base), **settings},
        capture_output=True, text=True, timeout=SETUP_TIMEOUT, check=False,
    )  # fmt: skip
    assert setup.returncode == 0, setup.stdout + setup.stderr
    with get_client(sync_client=True) as client:
        client.create_work_queue(name=QUEUE, work_pool_name=POOL)
        nightly = client.read_deployment_by_name("nightly_load/nightly")
        made = client.create_flow_run_from_deployment(nightly.id, work_queue_name=QUEUE)
    command = [str(installed_package.python), "-m", "prefect", "worker", "start", "--pool", POOL,
               "--work-queue", QUEUE, "--run-once"]  # fmt: skip
    # without any EMISSIONS_* variable: what prefect-setup wrote
    run, worker_log = worker_run_once(
        command, worker_folder, installed_package.env(base), made.id, WORKER_RUN_WAIT
    )
    seconds = time.monotonic() - started
    print(f"\nprefect-setup and a worker's nightly from the installed package: {seconds:.1f} s")
    return InstalledNight(installed_package, tenant, setup, setup_folder, worker_folder, run,
                          worker_log, seconds)  # fmt: skip


def test_prefect_setup_from_an_empty_folder_deploys_the_installed_flows_by_module_path(
    installed_night: InstalledNight,
) -> None:
    from prefect.client.orchestration import get_client

    declaration = installed_night.package.site_packages / "emissions_etl_flows" / "prefect.yaml"
    with get_client(sync_client=True) as client:
        entrypoints = {
            name: client.read_deployment_by_name(name).entrypoint for name in ENTRYPOINTS
        }

    assert entrypoints == ENTRYPOINTS
    assert f"deploying: prefect deploy --prefect-file {declaration} --all" in (
        installed_night.setup.stdout
    )
    assert installed_night.tenant.api_key not in installed_night.setup.stdout


def test_a_worker_in_an_empty_folder_runs_the_nightly_deployment_to_completed(
    installed_night: InstalledNight,
) -> None:
    state = installed_night.run.state

    assert state is not None
    assert state.is_completed(), (
        f"{state.name}: {state.message}\n{installed_night.worker_log[-4000:]}"
    )
    assert f"rows read {ROWS}, rejected 0, unchanged 0, loaded {ROWS}, failed 0" in state.message
    assert sorted(p.name for p in installed_night.worker_folder.iterdir()) == ["worker.log"]


def test_the_run_imports_emissions_etl_and_its_flows_from_the_installed_package(
    installed_night: InstalledNight,
) -> None:
    site = installed_night.package.site_packages
    said = [log.message for log in run_logs(installed_night.run)
            if log.message.startswith("emissions-etl ")]  # fmt: skip
    expected = re.escape(
        f"emissions-etl {installed_night.package.version} from {site} "
        f"(flows: {site / 'emissions_etl_flows'}); the run starts in "
    )

    assert len(said) == 1, said
    started_in = re.fullmatch(f"{expected}(.+)", said[0])
    assert started_in is not None, said[0]
    assert not Path(started_in[1]).is_relative_to(PROJECT)


def test_the_warehouse_holds_the_nights_records_with_their_co2e(
    installed_night: InstalledNight,
) -> None:
    landed = installed_night.tenant.warehouse.query(
        "SELECT count(*) AS n, count(remote_id) AS ids, count(co2e_kg) AS with_co2e, "
        "sum(co2e_kg) AS kg FROM emissions WHERE resource = 'wastes'"
    )

    counts = (int(landed["n"][0]), int(landed["ids"][0]), int(landed["with_co2e"][0]))
    assert counts == (ROWS, ROWS, ROWS)
    assert float(landed["kg"][0]) > 0
