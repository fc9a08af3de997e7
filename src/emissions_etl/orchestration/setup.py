"""``emissions-etl prefect-setup``: make a Prefect server ready to run this project's deployments.

Against the server in ``PREFECT_API_URL`` it creates or updates, and may be run again at will:
the process work pool ``emissions-etl``, the global concurrency limits through which workers on
several machines share the service's limits (``client.prefect_limits``), the Secret block
``emissions-api-key``, the variables the flows read (``prefect_config.VARIABLES``), with a file
of organizations their list and one Secret block each (``orchestration.organizations``), with a
file of table sources their list and their databases' passwords (``table_sources``), the limit
through which runs writing the warehouse take turns (``warehouse_turns``), every deployment of
``prefect.yaml`` (the installed flows', or a checkout's ``flows/prefect.yaml``: the same
declaration, whose entrypoints are module paths of the installed package; the arrivals' two
only with an inbox configured, unless ``--no-arrivals``), and with a block to
notify through, the automations that tell someone when a run fails or, if asked, completes
partial or finds data overdue (``alerts``).
Values come from the current settings (``EMISSIONS_*`` or the command's options); a value not
given leaves what the server holds untouched. Prefect is imported inside the functions so the
CLI starts fast.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from uuid import UUID

from pydantic import SecretStr

from emissions_etl.client import prefect_limits
from emissions_etl.connection import resource_limits
from emissions_etl.errors import ConfigurationError, EmissionsEtlError
from emissions_etl.orchestration.alerts import ensure_alerts, find_block
from emissions_etl.orchestration.config import SECRET_BLOCK, VARIABLES
from emissions_etl.orchestration.organizations import (
    ORGANIZATIONS_VARIABLE,
    key_block_name,
)
from emissions_etl.orchestration.steps import FLOWS_PACKAGE, MARKER, flows_folder
from emissions_etl.orchestration.table_sources import SOURCES_VARIABLE, save_sources
from emissions_etl.orchestration.warehouse_turns import (
    ORGANIZATION_PREFIX,
    absolute,
    turn_limit_name,
)
from emissions_etl.organizations import Organization, read_organizations
from emissions_etl.settings import DEFAULT_WAREHOUSE, Settings
from emissions_etl.tables.sources_file import read_sources_file
from emissions_etl.warehouse import Warehouse, WarehouseTarget

if TYPE_CHECKING:
    from prefect.client.orchestration import SyncPrefectClient
    from prefect.client.schemas.filters import WorkPoolFilter

POOL = "emissions-etl"
#: The deployments of arrivals (prefect.yaml): the watcher, and the load each of its events
#: starts.
ARRIVAL_DEPLOYMENTS = ("watch-inbox", "load-arrival")
WORKER_COMMAND = f"prefect worker start --pool {POOL}"
DEPLOY_TIMEOUT = 300.0

Say = Callable[[str], None]
Outcome = Literal["created", "updated", "unchanged"]


def setup_prefect(
    settings: Settings,
    *,
    project_dir: Path | None,
    deploy: bool = True,
    arrivals: bool = True,
    notify: str | None = None,
    notify_partial: bool | None = None,
    notify_overdue: bool | None = None,
    say: Say,
) -> None:
    """Work pool, limits, Secret block, variables, deployments, the warehouse's turns and, with
    ``notify`` (a block), the alerting automations; then how to start a worker. ``project_dir``:
    the folder runs start in, whose ``flows/prefect.yaml`` is deployed when it holds one (None,
    or a folder without: the installed flows' own). ``arrivals``: deploy the watcher of
    arrivals and its trigger too, when an inbox is configured (else they are removed)."""
    api_url = prefect_api_url()
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        if client.api_healthcheck() is not None:
            raise ConfigurationError(
                f"no Prefect server answers at PREFECT_API_URL={api_url}: start one with "
                "`prefect server start`"
            )
        block = find_block(client, notify) if notify else None  # refused before any change
        prefect_file = deployments_file(project_dir) if deploy else None  # so is this
        say(f"work pool {POOL} (process): {ensure_work_pool(client)}")
    _store_settings(settings, say)
    say(ensure_warehouse_turns(settings, project_dir))
    if prefect_file is not None:
        watching = arrivals and inbox_configured(settings)
        left_out = () if watching else ARRIVAL_DEPLOYMENTS
        deploy_all(prefect_file, project_dir or Path.cwd(), api_url, say=say, left_out=left_out)
        say(arrivals_line(watching, arrivals))
    if block is not None:
        with get_client(sync_client=True) as client:
            ids = pool_deployment_ids(client)
            made = ensure_alerts(client, block, ids, partial=notify_partial,
                                 overdue=notify_overdue)  # fmt: skip
            for name, done in made.items():
                say(f"automation {name!r} through {block} ({len(ids)} deployments): {done}")
    _say_what_is_next(settings, say)


def _store_settings(settings: Settings, say: Say) -> None:
    """The limits, the Secret block of the API key, the variables of the settings given, and
    the organizations and table sources with their keys' and passwords' blocks."""
    for limit in prefect_limits(resource_limits()):
        outcome = ensure_global_concurrency_limit(limit.name, limit.limit)
        say(f"global concurrency limit {limit.name} ({limit.limit} slots): {outcome}")
    if settings.api_key is not None:
        save_api_key(settings.api_key)
        say(f"Secret block {SECRET_BLOCK}: saved (value not shown)")
    else:
        say(f"Secret block {SECRET_BLOCK}: left as it is (no EMISSIONS_API_KEY given)")
    for variable, value in save_variables(settings).items():
        say(f"variable {variable} = {value}")
    given = "warehouse" in settings.model_fields_set
    if given and WarehouseTarget(settings.warehouse).has_password:
        say(
            f"the catalog's password is not stored in the variable {VARIABLES['warehouse']}: "
            "give every worker PGPASSWORD, or a .pgpass file, as libpq reads them"
        )
    if settings.organizations is not None:
        organizations = read_organizations(settings.organizations)
        save_organizations(organizations)
        names = ", ".join(o.name for o in organizations)
        say(f"variable {ORGANIZATIONS_VARIABLE}: {len(organizations)} organization(s): {names}")
        for organization in organizations:
            say(f"Secret block {key_block_name(organization.name)}: saved (value not shown)")
    if settings.sources is not None:
        entries = read_sources_file(settings.sources)
        names = ", ".join(entry.source.source_name for entry in entries)
        written = save_sources(entries)
        say(f"variable {SOURCES_VARIABLE}: {len(entries)} table source(s): {names}")
        for password_block in written:
            say(f"Secret block {password_block}: saved (value not shown)")


def _say_what_is_next(settings: Settings, say: Say) -> None:
    """How the workers share the limits (when not said), how to start one, where the UI is."""
    from prefect.settings import get_current_settings

    if "shared_limits" not in settings.model_fields_set:
        say(
            f"workers on several machines share the service's limits through these global "
            f"concurrency limits once the variable {VARIABLES['shared_limits']} is prefect: "
            "prefect-setup --shared-limits prefect"
        )
    say(f"start a worker (from any folder, where emissions-etl is installed): {WORKER_COMMAND}")
    say(f"the UI: {get_current_settings().ui_url} (Deployments, Flow runs, Blocks, Variables)")


def prefect_api_url() -> str:
    """The configured server; never the ephemeral one, whose scheduler does not run."""
    from prefect.settings import get_current_settings

    url = get_current_settings().api.url
    if not url:
        raise ConfigurationError(
            "PREFECT_API_URL is not set: start a server (`prefect server start`) and export "
            "PREFECT_API_URL=http://127.0.0.1:4200/api"
        )
    return url


def ensure_work_pool(client: SyncPrefectClient, name: str = POOL) -> Outcome:
    """A process work pool ``name`` that is not paused (its job template is left alone)."""
    from prefect.client.schemas.actions import WorkPoolCreate, WorkPoolUpdate
    from prefect.exceptions import ObjectNotFound
    from prefect.workers.process import ProcessWorker

    try:
        pool = client.read_work_pool(name)
    except ObjectNotFound:
        template = ProcessWorker.get_default_base_job_template()
        client.create_work_pool(
            WorkPoolCreate(name=name, type="process", base_job_template=template)
        )
        return "created"
    if pool.type != "process":
        raise ConfigurationError(
            f"work pool {name} exists with type {pool.type}: the deployments need a process "
            f"pool; delete it (`prefect work-pool delete {name}`) and run prefect-setup again"
        )
    if pool.is_paused:
        client.update_work_pool(name, WorkPoolUpdate(is_paused=False))
        return "updated"
    return "unchanged"


def save_api_key(key: SecretStr) -> None:
    """The key in the Secret block the flows read (encrypted at rest by the server)."""
    from prefect.blocks.system import Secret

    Secret(value=key).save(SECRET_BLOCK, overwrite=True)


def save_variables(settings: Settings) -> dict[str, str]:
    """Each variable whose setting was given (env or option), as stored; the rest untouched."""
    from prefect.variables import Variable

    saved: dict[str, str] = {}
    for field_name, variable in VARIABLES.items():
        value = getattr(settings, field_name)
        if field_name in settings.model_fields_set and value is not None:
            if field_name == "warehouse":
                # A variable is read by anyone with the UI: never the catalog's password
                # (workers take it from PGPASSWORD or .pgpass, as libpq does).
                value = WarehouseTarget(str(value)).without_password()
            Variable.set(variable, str(value), overwrite=True)
            saved[variable] = str(value)
    return saved


def save_organizations(organizations: list[Organization]) -> None:
    """Each organization's key in its Secret block, then the list the runs read (names, ids,
    URLs, inboxes: never a key) in the variable; ConfigurationError when two names would share
    a block."""
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    blocks: dict[str, str] = {}
    for organization in organizations:
        block = key_block_name(organization.name)
        if block in blocks:
            raise ConfigurationError(
                f"organizations {blocks[block]} and {organization.name} would share the Secret "
                f"block {block}: rename one"
            )
        blocks[block] = organization.name
    for organization in organizations:
        Secret(value=organization.api_key).save(key_block_name(organization.name), overwrite=True)
    listed = [organization.public() for organization in organizations]
    Variable.set(ORGANIZATIONS_VARIABLE, listed, overwrite=True)


def deployments_file(project_dir: Path | None) -> Path:
    """The declaration to deploy: the checkout's ``flows/prefect.yaml``, else the installed
    flows' ``prefect.yaml`` (the same file, as package data); ConfigurationError when neither
    is there."""
    if project_dir is not None and (project_dir / MARKER).is_file():
        return project_dir / MARKER
    folder = flows_folder()
    if folder is None or not (folder / MARKER.name).is_file():
        raise ConfigurationError(
            f"the flows are not installed ({FLOWS_PACKAGE}): reinstall emissions-etl, or give "
            f"--project-dir a checkout holding {MARKER}"
        )
    return folder / MARKER.name


def deploy_all(
    prefect_file: Path, cwd: Path, api_url: str, *, say: Say, left_out: tuple[str, ...] = ()
) -> None:
    """``prefect deploy --prefect-file PREFECT_FILE --all`` in ``cwd``, with this Python (the
    ``prefect`` script may be installed elsewhere, or not at all); with ``left_out``, every
    deployment but those (``--name`` each), which are removed from the server if there."""
    env = {name: value for name, value in os.environ.items() if name != "EMISSIONS_API_KEY"}
    chosen = deployments_chosen(prefect_file, left_out)
    command = [sys.executable, "-m", "prefect", "--no-prompt", "deploy", "--prefect-file",
               str(prefect_file), *chosen]  # fmt: skip
    say(f"deploying: prefect deploy --prefect-file {prefect_file} {' '.join(chosen)} (in {cwd})")
    done = subprocess.run(
        command,
        cwd=cwd,
        env={**env, "PREFECT_API_URL": api_url},
        capture_output=True,
        text=True,
        timeout=DEPLOY_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise EmissionsEtlError(f"prefect deploy failed (exit {done.returncode}):\n{tail}")
    for name in left_out:
        if remove_deployment(name):
            say(f"deployment {name} removed, with its triggers")
    for line in describe_deployments():
        say(line)


def deployments_chosen(prefect_file: Path, left_out: tuple[str, ...]) -> list[str]:
    """``prefect deploy``'s choice: ``--all``, or ``--name=`` each deployment of the file but
    those ``left_out``."""
    if not left_out:
        return ["--all"]
    import yaml

    names = [d["name"] for d in yaml.safe_load(prefect_file.read_text())["deployments"]]
    return [f"--name={name}" for name in names if name not in left_out]


def inbox_configured(settings: Settings) -> bool:
    """Whether the runs have an inbox: given (``--inbox``, EMISSIONS_INBOX), or in the variable
    the flows read, or organizations (each its inbox, or its folder in the inbox)."""
    from prefect.variables import Variable

    if settings.inbox is not None or settings.organizations is not None:
        return True
    return bool(Variable.get(VARIABLES["inbox"], default=None))


def arrivals_line(watching: bool, asked: bool) -> str:
    if watching:
        return (
            f"arrivals: {ARRIVAL_DEPLOYMENTS[0]} looks at the inbox every minute, "
            f"{ARRIVAL_DEPLOYMENTS[1]} loads each file that arrives (--no-arrivals: the nightly "
            "only)"
        )
    why = "--no-arrivals" if not asked else "no inbox configured (--inbox, EMISSIONS_INBOX)"
    return f"arrivals: not set up ({why}): the nightly loads what lands in the inbox"


def remove_deployment(name: str) -> bool:
    """The deployment ``name`` of prefect.yaml and the automations of its triggers deleted from
    the server; False when it was not there."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        for deployment in client.read_deployments(work_pool_filter=_pool_filter()):
            if deployment.name == name:
                client.delete_resource_owned_automations(f"prefect.deployment.{deployment.id}")
                client.delete_deployment(deployment.id)
                return True
    return False


def ensure_warehouse_turns(settings: Settings, project_dir: Path | None) -> str:
    """The one-slot limit through which runs writing the deployments' warehouse take turns
    (``warehouse_turns``): the warehouse given, else the one the variable names, else the
    default, a relative path taken from the project folder (else here) as runs take it."""
    from prefect.variables import Variable

    given = settings.warehouse if "warehouse" in settings.model_fields_set else None
    stored = None if given else Variable.get(VARIABLES["warehouse"], default=None)
    warehouse = Warehouse(str(given or stored or DEFAULT_WAREHOUSE))
    name = turn_limit_name(warehouse, base=project_dir)
    if name is None:
        return (
            f"warehouse {warehouse.target}: takes several writers at once, runs take no turns "
            f"(runs of one organization do, through {ORGANIZATION_PREFIX}<id>)"
        )
    path = absolute(warehouse.path, project_dir)
    outcome = ensure_global_concurrency_limit(name, 1)
    return f"global concurrency limit {name} (1 slot): {outcome}; runs writing {path} take turns"


def pool_deployment_ids(client: SyncPrefectClient, pool: str = POOL) -> list[UUID]:
    """The ids of the deployments that run on ``pool`` whose failures someone is told of: all
    but the watcher of arrivals, which runs every minute (an unreachable inbox would make a
    notice a minute; the nightly's run over that inbox fails and tells)."""
    deployments = client.read_deployments(work_pool_filter=_pool_filter(pool))
    return [d.id for d in deployments if d.name != ARRIVAL_DEPLOYMENTS[0]]


def describe_deployments(pool: str = POOL) -> list[str]:
    """One line per deployment of ``pool``: its full name and its schedules."""
    from prefect.client.orchestration import get_client

    lines = []
    with get_client(sync_client=True) as client:
        deployments = client.read_deployments(work_pool_filter=_pool_filter(pool))
        for deployment in deployments:
            flow = client.read_flow(deployment.flow_id)
            schedules = ", ".join(_schedule_text(s.schedule) for s in deployment.schedules)
            lines.append(f"deployment {flow.name}/{deployment.name}: {schedules or 'on demand'}")
    return lines


def _pool_filter(pool: str = POOL) -> WorkPoolFilter:
    from prefect.client.schemas.filters import WorkPoolFilter, WorkPoolFilterName

    return WorkPoolFilter(name=WorkPoolFilterName(any_=[pool]))


def _schedule_text(schedule: object) -> str:
    cron, timezone = getattr(schedule, "cron", None), getattr(schedule, "timezone", None)
    interval = getattr(schedule, "interval", None)
    if cron:
        return f"cron {cron} ({timezone or 'UTC'})"
    if interval is not None:
        return f"every {interval.total_seconds():.0f} s"
    return str(schedule)


def ensure_global_concurrency_limit(
    name: str, limit: int, slot_decay_per_second: float | None = None
) -> Outcome:
    """An active global concurrency limit shared by every worker (``PrefectTokenSource``).

    With ``slot_decay_per_second`` it paces (Prefect's ``rate_limit``); without, it caps
    concurrency.
    """
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import (
        GlobalConcurrencyLimitCreate,
        GlobalConcurrencyLimitUpdate,
    )
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            current = client.read_global_concurrency_limit_by_name(name)
        except ObjectNotFound:
            client.create_global_concurrency_limit(
                GlobalConcurrencyLimitCreate(
                    name=name,
                    limit=limit,
                    slot_decay_per_second=slot_decay_per_second or 0.0,  # 0: released, not decayed
                    active=True,
                )
            )
            return "created"
        wanted = (limit, slot_decay_per_second or 0.0, True)
        if (current.limit, current.slot_decay_per_second or 0.0, current.active) == wanted:
            return "unchanged"
        client.update_global_concurrency_limit(
            name,
            GlobalConcurrencyLimitUpdate(
                limit=limit, slot_decay_per_second=slot_decay_per_second or 0.0, active=True
            ),
        )
        return "updated"
