"""Prefect tasks: thin wrappers that add names, retries, logs and artifacts to library calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import Task, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.client.schemas.objects import TaskRun
from prefect.states import Completed, Failed, State

from emissions_etl.connection import open_client
from emissions_etl.errors import EmissionsEtlError
from emissions_etl.loading.file_loads import FileOutcome, load_files
from emissions_etl.loading.file_plan import PlannedFile, SheetFate
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.loading.pipeline import LoadOptions, refresh_aggregates
from emissions_etl.orchestration.config import resolve_inbox, resolve_settings
from emissions_etl.orchestration.run_report import (
    RunVerdict,
    log_outcome,
    rejects_note,
    rejects_rows,
    summary_markdown,
    verdict,
)
from emissions_etl.report import write_report
from emissions_etl.resources import resource_spec


def _transient_only(task: Task[..., Any], task_run: TaskRun, state: State[Any]) -> bool:
    """Retry a task only when its error says the same call may succeed later."""
    try:
        state.result()
    except EmissionsEtlError as error:
        return error.transient
    except Exception:
        return False
    return False


@task(name="plan inbox")
def plan(inbox: str | None) -> list[PlannedFile]:
    """Every file of the inbox, and every sheet of its workbooks, parents first: what loads as
    which resource, and what does not, with why."""
    logger = get_run_logger()
    folder = resolve_inbox(inbox)
    planned = plan_inbox(folder)
    logger.info("inbox %s: %d file(s)", folder, len({f.path for f in planned}))
    for entry in planned:
        if entry.spec is None:
            logger.info("%s: %s", entry.label, entry.problem)
    return planned


@task(
    name="load file",
    retries=2,
    retry_delay_seconds=[10, 60],
    retry_condition_fn=_transient_only,
)
def load_one(
    path: str, resource: str, options: LoadOptions, workbook: tuple[SheetFate, ...] = ()
) -> FileOutcome:
    """Read, validate, write and land one file, or the sheets ``options.sheets`` of a workbook
    (``workbook``: where each of its sheets goes, for the run's record); safe to retry: writes
    are exactly-once."""
    settings = resolve_settings()
    logger = get_run_logger()
    planned = PlannedFile(Path(path), resource_spec(resource), sheets=options.sheets,
                          workbook=workbook)  # fmt: skip
    [outcome] = load_files(
        [planned],
        settings=settings,
        options=options,
        refresh=False,
        notify=logger.info,  # the webhook's lines, in the run's logs at INFO
    )
    log_outcome(logger, outcome)
    if outcome.error is not None and outcome.error.transient:
        raise outcome.error  # a retry may succeed
    return outcome


def publish(outcomes: list[FileOutcome]) -> State[Any]:
    """The summary and the rejects (whatever the outcome), then the run's true end state.

    The state is made here, in the flow, for the flow to return as it is. A State that a task
    returns becomes that task's own state: the flow would only count it ("1/1 states failed.",
    "All states completed."), losing the "Partial" name and the message with the counts.
    """
    run = publish_artifacts(outcomes)
    if run.state == "failed":
        return Failed(message=run.message)
    if run.state == "partial":
        return Completed(name="Partial", message=run.message)
    return Completed(message=run.message)


@task(name="refresh sums", retries=2, retry_delay_seconds=[10, 60])
def refresh_sums() -> int:
    """Read again the records whose co2e sums others' (facilities, hubs, vehicles, employees),
    once every file of the run has loaded."""
    settings = resolve_settings()
    with open_client(settings) as client:
        refreshed = refresh_aggregates(client, settings.open_warehouse())
    get_run_logger().info("refreshed %d record(s) whose co2e sums others'", refreshed)
    return refreshed


@task(name="publish run artifacts")
def publish_artifacts(outcomes: list[FileOutcome]) -> RunVerdict:
    """The summary markdown and the rejects table; returns how the run ends."""
    settings = resolve_settings(require_api=False)
    warehouse = settings.open_warehouse()
    report = (
        write_report(
            warehouse,
            warehouse.target.local_path.with_name("report.html"),
            consolidation=settings.consolidation,
        )
        if warehouse.target.exists
        else None
    )
    create_markdown_artifact(
        key="emissions-load-summary",
        markdown=summary_markdown(outcomes, str(report.path.resolve()) if report else None),
        description="Load summary",
    )
    rows, total = rejects_rows(outcomes)
    if rows:
        create_table_artifact(
            key="emissions-load-rejects",
            table=rows,
            description=rejects_note(len(rows), total, str(warehouse.target)),
        )
    run = verdict(outcomes)
    get_run_logger().info("run %s: %s", run.state, run.message)
    return run


def failed_file(
    path: str, resource: str | None, problem: str, sheets: tuple[str, ...] = ()
) -> FileOutcome:
    """A file (or sheets of a workbook) that could not be routed or loaded: failed, with the
    one-line reason."""
    return FileOutcome(
        Path(path), resource or "unknown", error=EmissionsEtlError(problem), sheets=sheets
    )


def not_loaded(planned: PlannedFile) -> FileOutcome:
    """What the plan does not load: a sheet skipped (notes, a summary), or a file or sheet
    refused, with why."""
    outcome = FileOutcome.not_loaded(planned)
    if outcome.skipped:
        get_run_logger().info("%s: %s", outcome.label, outcome.skipped)
    else:
        log_outcome(get_run_logger(), outcome)
    return outcome
