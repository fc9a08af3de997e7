"""The flows' Prefect tasks, and the steps their bodies call: thin wrappers that add names,
retries, logs and artifacts to library calls. The flows (``emissions_etl_flows``) read as a
table of contents of these; they keep no logic of their own."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from uuid import UUID

from prefect import Task, get_run_logger, task
from prefect.client.schemas.objects import TaskRun
from prefect.runtime import flow_run
from prefect.states import Failed, State

from emissions_etl.connection import open_client
from emissions_etl.errors import EmissionsEtlError
from emissions_etl.loading.file_loads import FileOutcome, Planned, load_files
from emissions_etl.loading.file_plan import PlannedFile, SheetFate
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.loading.pipeline import LoadOptions, refresh_aggregates
from emissions_etl.loading.progress import PlannedTotals, TenthsLog
from emissions_etl.loading.table_loads import PlannedTable
from emissions_etl.orchestration import late_data, organization_runs, run_report, warehouse_turns
from emissions_etl.orchestration.artifacts import publish_markdown, publish_table
from emissions_etl.orchestration.flow_runs import NightlyParameters, PlannedSource, file_outcome
from emissions_etl.orchestration.organization_runs import OrganizationRun
from emissions_etl.orchestration.organizations import inbox_for, settings_for
from emissions_etl.orchestration.run_logs import quiet_run_logs
from emissions_etl.orchestration.run_names import artifact_key, load_task_name, table_task_name
from emissions_etl.orchestration.run_report import RunVerdict
from emissions_etl.orchestration.run_states import end_state, retried_only_on_outage
from emissions_etl.orchestration.table_sources import source_named
from emissions_etl.report import write_report
from emissions_etl.resources import resource_spec
from emissions_etl.scrubbing import scrub
from emissions_etl.storage import as_path
from emissions_etl.warehouse import Warehouse

quiet_run_logs()  # imported by the run's process before the run starts


def _transient_only(task: Task[..., object], task_run: TaskRun, state: State[object]) -> bool:
    """Retry a task only when its error says the same call may succeed later."""
    try:
        state.result()
    except EmissionsEtlError as error:
        return error.transient
    except Exception:
        return False
    return False


@contextmanager
def warehouse_turn(organization: str | None = None) -> Iterator[None]:
    """This run's turn on its warehouse: runs that write one warehouse take turns (in a lake,
    runs that load one organization); a lake is attached once for the run's files and sums
    (``Warehouse.attached``)."""
    settings = settings_for(organization, require=False)
    warehouse = settings.open_warehouse()
    with _turn(warehouse, settings.organization_id), warehouse.attached():
        yield


def upkeep_turn() -> AbstractContextManager[None]:
    """The warehouse's turn for its upkeep: a file's (after the load writing it); none for a
    lake that takes several writers, whose upkeep runs beside the loads."""
    return _turn(settings_for(None, require=False).open_warehouse())


def _turn(warehouse: Warehouse, organization_id: str | None = None) -> AbstractContextManager[None]:
    run_id = flow_run.get_id()
    return warehouse_turns.warehouse_turn(
        warehouse,
        say=get_run_logger().info,
        flow_run_id=UUID(run_id) if run_id else None,
        organization_id=organization_id,
    )


@task(name="maintain warehouse", task_run_name="maintain warehouse")
def maintain(retention_days: int | None = None) -> list[str]:
    """Upkeep of the configured warehouse (``Warehouse.maintain``): each step logged, and the
    whole as the artifact ``emissions-<deployment>-upkeep``."""
    logger = get_run_logger()
    settings = settings_for(None, require=False)
    days = settings.warehouse_retention_days if retention_days is None else retention_days
    warehouse = settings.open_warehouse(say=logger.info)
    upkeep = warehouse.maintain(retention_days=days)
    lines = upkeep.lines()
    for line in lines:
        logger.info("%s", line)
    publish_markdown(
        key=artifact_key("upkeep"),
        markdown=run_report.upkeep_markdown(lines, str(warehouse.target)),
        description=f"Upkeep of {warehouse.target}",
    )
    return lines


@task(name="plan inbox", task_run_name="plan inbox")
def plan(inbox: str | None, organization: str | None = None) -> list[PlannedFile]:
    """Every file of the inbox (``organization``'s), and every sheet of its workbooks, parents
    first: what loads as which resource, and what does not, with why."""
    logger = get_run_logger()
    folder = inbox_for(inbox, organization)
    planned = plan_inbox(folder)
    logger.info("inbox %s: %d file(s)", folder, len({f.path for f in planned}))
    return planned


@task(
    name="load file",
    task_run_name=load_task_name,
    retries=2,
    retry_delay_seconds=[10, 60],
    retry_condition_fn=_transient_only,
)
def load_one(
    path: str,
    resource: str,
    options: LoadOptions,
    workbook: tuple[SheetFate, ...] = (),
    organization: str | None = None,
) -> FileOutcome | State[None]:
    """Read, validate, write and land one file, or the sheets ``options.sheets`` of a workbook
    (``workbook``: where each of its sheets goes, for the run's record); safe to retry: writes
    are exactly-once. A file that could not be loaded ends the task Failed, its error as the
    state's data. ``organization``: whose key and id load it (default: the plain settings')."""
    planned = PlannedFile(as_path(path), resource_spec(resource), sheets=options.sheets,
                          workbook=workbook)  # fmt: skip
    return _loaded(planned, options, organization)


def _loaded(
    planned: Planned, options: LoadOptions, organization: str | None
) -> FileOutcome | State[None]:
    """One file's or table source's load, logged: its outcome, or a Failed state whose data is
    the error that stopped it."""
    logger = get_run_logger()
    [outcome] = load_files(
        [planned],
        settings=settings_for(organization),
        options=options,
        progress=TenthsLog(logger.info, PlannedTotals([planned])),  # a line each tenth
        refresh=False,
        notify=logger.info,  # the webhook's lines and the warehouse's, in the run's logs
    )
    run_report.log_outcome(logger, outcome)
    if outcome.error is not None:
        return Failed(message=scrub(f"{outcome.label}: {outcome.reason}"), data=outcome.error)
    return outcome


def load_planned_file(
    file: PlannedFile, parameters: NightlyParameters, organization: str | None = None
) -> FileOutcome:
    """One planned file of the night (or the sheets of a workbook the plan gives a resource),
    loaded by its task with the run's options; a file that fails is an outcome with its error,
    the others load all the same. A file or sheet the plan does not load is told why not."""
    if file.spec is None:
        return not_loaded(file)
    state = load_one(str(file.path), file.spec.name, parameters.options(file), file.workbook,
                     organization, return_state=True)  # fmt: skip
    return file_outcome(str(file.path), file.spec.name, state, file.shown_sheets)


def sync_planned_source(
    source: PlannedSource, parameters: NightlyParameters, organization: str | None = None
) -> FileOutcome:
    """One table source of the night, synced by its task as a file is loaded."""
    state = load_source(source.name, source.resource, parameters.table_options(), organization,
                        return_state=True)  # fmt: skip
    return file_outcome(None, source.resource, state, table=source.name)


def not_loaded(planned: PlannedFile) -> FileOutcome:
    """What the plan does not load: a sheet skipped (notes, a summary), or a file or sheet
    refused, with why."""
    outcome = FileOutcome.not_loaded(planned)
    run_report.log_outcome(get_run_logger(), outcome)
    return outcome


@task(
    name="sync table source",
    task_run_name=table_task_name,
    retries=2,
    retry_delay_seconds=[10, 60],
    retry_condition_fn=_transient_only,
)
def load_source(
    name: str, resource: str, options: LoadOptions, organization: str | None = None
) -> FileOutcome | State[None]:
    """Read, validate, write and land one table source's rows (its query, the databases it
    attaches with their passwords read now), as a file's task does; safe to retry."""
    return _loaded(PlannedTable.of(source_named(name, organization)), options, organization)


@task(name="refresh sums", task_run_name="refresh sums", retries=2, retry_delay_seconds=[10, 60])
def refresh_sums(organization: str | None = None) -> int:
    """Read again the records whose co2e sums others' (``resources.aggregate_resources``), once
    every file of the run has loaded."""
    settings = settings_for(organization)
    logger = get_run_logger()
    with open_client(settings) as client:
        refreshed = refresh_aggregates(client, settings.open_warehouse(say=logger.info))
    logger.info("refreshed %d record(s) whose co2e sums others'", refreshed)
    return refreshed


def load_file_run(
    resource: str, path: str, options: LoadOptions, organization: str | None = None
) -> State[None]:
    """A run of one file of one resource (``load_resource``'s, ``load_wastes``'): the file
    loaded by its task in the warehouse's turn, then the run's artifacts and its end state."""
    with retried_only_on_outage(), warehouse_turn(organization):
        state = load_one(path, resource, options, (), organization, return_state=True)
        return publish([file_outcome(path, resource, state)], organization)


def publish(
    outcomes: list[FileOutcome], organization: str | None = None, *, coverage: bool = False
) -> State[None]:
    """The summary, the rejects and the report (whatever the outcome), with ``coverage`` what
    arrived, is missing and overdue, then the run's end state, made here in the flow for the
    flow to return as it is (a State a task returns is that task's own)."""
    return end_state(publish_artifacts(outcomes, organization, coverage))


@task(name="publish run artifacts", task_run_name="publish run artifacts")
def publish_artifacts(
    outcomes: list[FileOutcome], organization: str | None = None, coverage: bool = False
) -> RunVerdict:
    """The summary markdown, the rejects table, the report's artifact and with ``coverage`` the
    coverage's (``organization``'s own, keyed and titled with its name); returns how the run
    ends, logged in one line."""
    logger = get_run_logger()
    settings = settings_for(organization, require=False)
    warehouse = settings.open_warehouse()
    run = run_report.verdict(outcomes)
    publish_markdown(
        key=artifact_key("summary", organization),
        markdown=run_report.summary_markdown(outcomes, run, organization=organization),
        description=f"Load summary{f' of {organization}' if organization else ''}: {run.state}",
    )
    rows, cells, rejected = run_report.rejects_rows(outcomes)
    if rows:
        publish_table(
            key=artifact_key("rejects", organization),
            table=rows,
            description=run_report.rejects_note(len(rows), cells, rejected, str(warehouse.target)),
        )
    scope = (organization, settings.organization_id) if organization else None
    _publish_report(warehouse, settings.consolidation, logger, scope)
    if coverage and warehouse.target.exists:
        run = late_data.report_late_data(warehouse, settings, outcomes, run, logger, organization)
    level = {"failed": "error", "partial": "warning"}.get(run.state, "info")
    of = f" for {organization}" if organization else ""
    getattr(logger, level)("run%s %s: %s", of, run.state, run.message)
    return run


def _publish_report(
    warehouse: Warehouse,
    consolidation: str,
    logger: logging.Logger | logging.LoggerAdapter[logging.Logger],
    scope: tuple[str, str | None] | None,
) -> None:
    """Write report.html beside the warehouse (``report-<organization>.html`` of the records
    of the organization ``scope`` names, as (name, id)) and say where it is, with its
    headline."""
    if not warehouse.target.exists:
        return
    name, organization_id = scope or (None, None)
    out = warehouse.target.local_path.with_name(f"report-{name}.html" if name else "report.html")
    try:
        report = write_report(
            warehouse, out, consolidation=consolidation, organization=organization_id
        )
        with warehouse.reading(organization_id):
            by_resource = warehouse.query(run_report.CO2E_BY_RESOURCE)
    except (EmissionsEtlError, OSError) as error:
        logger.warning("the report was not written: %s", error)
        return
    host = socket.gethostname()
    publish_markdown(
        key=artifact_key("report", name),
        markdown=run_report.report_markdown(
            report, host=host, by_resource=by_resource, warehouse=str(warehouse.target)
        ),
        description=f"Report: {report.path.resolve()} on {host}",
    )
    logger.info("report %s written (%d activity records)", report.path.resolve(), report.records)


def publish_organizations(runs: list[OrganizationRun]) -> State[None]:
    """The parent run's table of its organizations' runs, then its end state (as they ended)."""
    return end_state(publish_organization_runs(runs))


@task(name="publish organizations", task_run_name="publish organizations")
def publish_organization_runs(runs: list[OrganizationRun]) -> RunVerdict:
    """Each organization's run, how it ended and why, as one artifact and one line each."""
    logger = get_run_logger()
    run = organization_runs.verdict(runs)
    for child in runs:
        level = "info" if child.completed else "error"
        getattr(logger, level)("%s: %s %s", child.organization, child.state, child.message)
    publish_markdown(
        key=artifact_key("organizations"),
        markdown=organization_runs.runs_markdown(runs, run),
        description=f"Organizations: {run.state}",
    )
    level = {"failed": "error", "partial": "warning"}.get(run.state, "info")
    getattr(logger, level)("run %s: %s", run.state, run.message)
    return run
