"""Prefect tasks: one-line wrappers that add names, retries and artifacts to library calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import Task, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.client.schemas.objects import TaskRun
from prefect.states import State

from emissions_etl.connection import open_client
from emissions_etl.errors import EmissionsEtlError
from emissions_etl.inbox import inbox_files
from emissions_etl.pipeline import LoadOptions, LoadSummary, load_file
from emissions_etl.prefect_config import resolve_settings
from emissions_etl.reporting import rejects_table, run_markdown
from emissions_etl.warehouse import Warehouse


def _transient_only(task: Task[..., Any], task_run: TaskRun, state: State[Any]) -> bool:
    """Retry a task only when its error says the same call may succeed later."""
    try:
        state.result()
    except EmissionsEtlError as error:
        return error.transient
    except Exception:
        return False
    return False


@task(name="list inbox files")
def list_inbox(inbox: str) -> list[str]:
    """The loadable files of the inbox folder, in name order."""
    return [str(path) for path in inbox_files(Path(inbox))]


@task(
    name="load file",
    retries=2,
    retry_delay_seconds=[10, 60],
    retry_condition_fn=_transient_only,
)
def load_one_file(path: str, options: LoadOptions) -> LoadSummary:
    """Read, validate, upsert and land one file (safe to retry: uploads are idempotent)."""
    settings = resolve_settings()
    with open_client(settings) as client:
        return load_file(
            Path(path), api=client, warehouse=Warehouse(settings.warehouse), options=options
        )


@task(name="publish run artifacts")
def publish_artifacts(summaries: list[LoadSummary]) -> None:
    """A markdown summary and a table of rejects, visible on the flow run's page."""
    create_markdown_artifact(
        key="emissions-load-summary", markdown=run_markdown(summaries), description="Load summary"
    )
    rows = rejects_table(summaries)
    if rows:
        create_table_artifact(
            key="emissions-load-rejects", table=rows, description="Rejected cells"
        )
