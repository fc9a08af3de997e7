"""Several files, each of its resource, loaded parents first with one client and one warehouse:
what the CLI's ``load`` and the nightly flow both do. A file that fails does not stop the
others; each ends with its outcome and, when it failed, the one-line reason and stable code."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from emissions_etl.connection import open_client
from emissions_etl.errors import ApiStatusError, EmissionsEtlError, InputError, StrictModeError
from emissions_etl.loading.pipeline import (
    LoadOptions,
    LoadSummary,
    ProgressCallback,
    load_file,
    refresh_aggregates,
)
from emissions_etl.loading.writing import JobCompletion
from emissions_etl.resources import ResourceSpec, in_dependency_order
from emissions_etl.settings import Settings
from emissions_etl.webhooks import WebhookSettings, open_job_completion
from emissions_etl.webhooks.notices import Notify


@dataclass
class FileOutcome:
    """How one file ended: its summary, or the error that stopped it."""

    path: Path
    resource: str
    summary: LoadSummary | None = None
    error: EmissionsEtlError | None = None

    @property
    def outcome(self) -> str:
        if self.summary is not None:
            return self.summary.outcome
        return "rejected" if isinstance(self.error, StrictModeError) else "failed"

    @property
    def reason(self) -> str:
        """One line: the stable code when the service sent one, and the message (without the
        file's path, named beside it wherever a reason is shown)."""
        if self.error is None:
            return ""
        code = getattr(self.error, "code", None) if isinstance(self.error, ApiStatusError) else None
        message = self.error.reason if isinstance(self.error, InputError) else str(self.error)
        return f"[{code or type(self.error).__name__}] {message}"


def in_load_order(planned: Sequence[tuple[Path, ResourceSpec]]) -> list[tuple[Path, ResourceSpec]]:
    """Files of parent resources first, then by the order given."""
    order = {spec.name: i for i, spec in enumerate(in_dependency_order(s for _, s in planned))}
    return sorted(planned, key=lambda item: order[item[1].name])


def load_files(
    planned: Sequence[tuple[Path, ResourceSpec]],
    *,
    settings: Settings,
    options: LoadOptions,
    progress: Callable[[Path], ProgressCallback | None] = lambda path: None,
    completion: JobCompletion | None = None,
    keep_going: bool = True,
    refresh: bool = True,
    webhooks: WebhookSettings | None = None,
    notify: Notify | None = None,
) -> list[FileOutcome]:
    """Load every file in dependency order; with ``keep_going`` a failed file is recorded and
    the next one loads, else the error is raised. With ``refresh``, records whose co2e sums
    others' (facilities, vehicles...) are read again at the end. ``webhooks``: how ingest jobs
    finish (default: the EMISSIONS_WEBHOOK_* environment); ``notify`` receives their lines, and
    the warehouse's while another load holds it."""
    outcomes = []
    warehouse = settings.open_warehouse(say=notify)
    with ExitStack() as stack:
        client = stack.enter_context(open_client(settings))
        if completion is None:
            webhooks = webhooks or WebhookSettings(warehouse=warehouse.target.location)
            completion = stack.enter_context(
                open_job_completion(client, webhooks, notify=notify)
            )
        for path, spec in in_load_order(planned):
            outcome = FileOutcome(path, spec.name)
            try:
                outcome.summary = load_file(
                    path,
                    api=client,
                    warehouse=warehouse,
                    spec=spec,
                    options=options,
                    progress=progress(path),
                    completion=completion,
                )
            except EmissionsEtlError as error:
                if not keep_going:
                    raise
                outcome.error = error
            outcomes.append(outcome)
        if refresh and any(o.summary is not None and o.summary.rows_loaded for o in outcomes):
            refresh_aggregates(client, warehouse)
    return outcomes
