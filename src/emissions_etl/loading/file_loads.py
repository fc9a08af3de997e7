"""Several files, each of its resource, loaded parents first with one client and one warehouse:
what the CLI's ``load`` and the nightly flow both do. A file that fails does not stop the
others; each ends with its outcome and, when it failed, the one-line reason and stable code.
A workbook's sheets are loaded as its plan says (``file_plan``): each resource's sheets as one
load, among the other files' in dependency order; the sheets not loaded are outcomes too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from emissions_etl.connection import open_client
from emissions_etl.errors import (
    AlreadyLoadedError,
    ApiStatusError,
    EmissionsEtlError,
    InputError,
    StrictModeError,
)
from emissions_etl.loading.file_plan import PlannedFile, file_label
from emissions_etl.loading.pipeline import (
    LoadApi,
    LoadOptions,
    LoadSummary,
    ProgressCallback,
    load_file,
    refresh_aggregates,
)
from emissions_etl.loading.ports import PlannableWarehouse
from emissions_etl.loading.table_loads import PlannedTable, load_table
from emissions_etl.loading.writing import JobCompletion
from emissions_etl.resources import ResourceSpec, in_dependency_order
from emissions_etl.settings import Settings
from emissions_etl.storage import AnyPath
from emissions_etl.webhooks import WebhookSettings, open_job_completion
from emissions_etl.webhooks.notices import Notify


@dataclass
class FileOutcome:
    """How one file (or sheets of a workbook, or a table source) ended: its summary, or the
    error that stopped it, or with ``skipped`` why its sheet was not loaded (notes, a summary:
    no failure) or, ``already_loaded``, why its content was not loaded again."""

    #: The file; None for a table source.
    path: AnyPath | None
    resource: str
    summary: LoadSummary | None = None
    error: EmissionsEtlError | None = None
    #: The workbook's sheets this was, when not the whole workbook.
    sheets: tuple[str, ...] = ()
    skipped: str = ""
    #: The table source's name, when this was one (``load --from-sql``, a sources file).
    table: str = ""
    #: Skipped because its content was loaded before (``loading.run_keys``).
    already_loaded: bool = False

    @classmethod
    def of_table(cls, planned: PlannedTable) -> FileOutcome:
        """A table source's outcome, before it loads."""
        return cls(None, planned.spec.name, table=planned.label)

    @classmethod
    def not_loaded(cls, planned: PlannedFile) -> FileOutcome:
        """The outcome of what a plan does not load: skipped, or failed with its reason."""
        if planned.skipped:
            return cls(planned.path, "-", sheets=planned.shown_sheets, skipped=planned.problem)
        error = planned.error(str(planned.path), planned.reason)
        return cls(planned.path, "unknown", error=error, sheets=planned.shown_sheets)

    @property
    def origin(self) -> AnyPath | str:
        """The file, or a table source's name: what its rejects belong to."""
        return self.table if self.path is None else self.path

    @property
    def label(self) -> str:
        """The file's name, with its sheets when they are not the whole workbook; a table
        source's name."""
        if self.path is None:
            return self.table
        return file_label(self.path, self.sheets)

    @property
    def outcome(self) -> str:
        if self.summary is not None:
            return self.summary.outcome
        if self.skipped:
            return "skipped"
        return "rejected" if isinstance(self.error, StrictModeError) else "failed"

    @property
    def reason(self) -> str:
        """One line: the stable code when the service sent one, and the message (without the
        file's path, named beside it wherever a reason is shown); for a sheet skipped, why."""
        if self.skipped:
            return self.skipped
        if self.error is None:
            return ""
        code = getattr(self.error, "code", None) if isinstance(self.error, ApiStatusError) else None
        message = self.error.reason if isinstance(self.error, InputError) else str(self.error)
        return f"[{code or type(self.error).__name__}] {message}"


#: What ``load_files`` takes: planned files, or (path, resource) for a whole file, or table
#: sources (loaded after the files).
Planned = PlannedFile | tuple[AnyPath, ResourceSpec] | PlannedTable


def in_load_order(planned: Sequence[Planned]) -> list[PlannedFile]:
    """Files (and sheets) of parent resources first, then by the order given (table sources
    left out: ``tables_in_load_order``)."""
    files = [_as_planned(item) for item in planned if not isinstance(item, PlannedTable)]
    specs = [f.spec for f in files if f.spec is not None]
    order = {spec.name: i for i, spec in enumerate(in_dependency_order(specs))}
    return sorted(files, key=lambda f: order[f.spec.name] if f.spec is not None else -1)


def tables_in_load_order(planned: Sequence[Planned]) -> list[PlannedTable]:
    """The table sources among ``planned``, those of parent resources first."""
    tables = [item for item in planned if isinstance(item, PlannedTable)]
    order = {spec.name: i for i, spec in enumerate(in_dependency_order([t.spec for t in tables]))}
    return sorted(tables, key=lambda table: order[table.spec.name])


def _as_planned(item: PlannedFile | tuple[AnyPath, ResourceSpec]) -> PlannedFile:
    return item if isinstance(item, PlannedFile) else PlannedFile(*item)


def _outcome_of(entry: PlannedFile | PlannedTable) -> FileOutcome:
    if isinstance(entry, PlannedTable):
        return FileOutcome.of_table(entry)
    assert entry.spec is not None
    return FileOutcome(entry.path, entry.spec.name, sheets=entry.shown_sheets)


def _load_one(
    entry: PlannedFile | PlannedTable,
    client: LoadApi,
    warehouse: PlannableWarehouse,
    options: LoadOptions,
    progress: ProgressCallback | None,
    completion: JobCompletion,
) -> LoadSummary:
    """One file (or a workbook's sheets), or one table source, loaded."""
    if isinstance(entry, PlannedTable):
        return load_table(entry.source, api=client, warehouse=warehouse, spec=entry.spec,
                          options=options, progress=progress, completion=completion)  # fmt: skip
    assert entry.spec is not None
    return load_file(
        entry.path, api=client, warehouse=warehouse, spec=entry.spec,
        options=options.for_sheets(entry.sheets), progress=progress, completion=completion,
        workbook=entry.workbook,
    )  # fmt: skip


def load_files(
    planned: Sequence[Planned],
    *,
    settings: Settings,
    options: LoadOptions,
    progress: Callable[[str], ProgressCallback | None] = lambda label: None,
    completion: JobCompletion | None = None,
    keep_going: bool = True,
    refresh: bool = True,
    webhooks: WebhookSettings | None = None,
    notify: Notify | None = None,
) -> list[FileOutcome]:
    """Load every file in dependency order, then every table source; with ``keep_going`` a
    failed file (or source) is recorded and the next one loads, else the error is raised.
    With ``refresh``, records whose co2e sums others' (facilities, vehicles...) are read again
    at the end. ``webhooks``: how ingest jobs
    finish (default: the EMISSIONS_WEBHOOK_* environment); ``notify`` receives their lines, and
    the warehouse's while another load holds it. What a plan does not load (``PlannedFile.spec``
    None) is an outcome after the loads, whatever ``keep_going``. ``progress`` is called with
    each load's label (``datos.xlsx sheet Flota``)."""
    outcomes = []
    warehouse = settings.open_warehouse(say=notify)
    with ExitStack() as stack:
        stack.enter_context(warehouse.attached())  # a lake: attached once for every file
        client = stack.enter_context(open_client(settings))
        if completion is None:
            webhooks = webhooks or WebhookSettings(warehouse=warehouse.target.location)
            completion = stack.enter_context(open_job_completion(client, webhooks, notify=notify))
        ordered = in_load_order(planned)
        loads: list[PlannedFile | PlannedTable] = [e for e in ordered if e.spec is not None]
        for entry in [*loads, *tables_in_load_order(planned)]:
            outcome = _outcome_of(entry)
            try:
                outcome.summary = _load_one(entry, client, warehouse, options,
                                            progress(entry.label), completion)  # fmt: skip
            except AlreadyLoadedError as loaded:  # not a failure, whatever keep_going
                outcome.skipped, outcome.already_loaded = str(loaded), True
            except EmissionsEtlError as error:
                if not keep_going:
                    raise
                outcome.error = error
            outcomes.append(outcome)
        outcomes += [FileOutcome.not_loaded(entry) for entry in ordered if entry.spec is None]
        if refresh and any(o.summary is not None and o.summary.rows_loaded for o in outcomes):
            refresh_aggregates(client, warehouse)
    return outcomes
