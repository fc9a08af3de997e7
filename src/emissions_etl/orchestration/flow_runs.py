"""What the flows run, written once for ``flows/`` to wire: a file loaded by the flow's load
task and its final state read as the file's outcome, and the nightly's walk: which
organizations a night runs a child for, each planned file of an inbox loaded with the run's
options (or told why not), and the sums read again once anything loaded.

The Prefect tasks that do each step are the flows' (``flows/_tasks.py``) and come in as
arguments: the loop, its branches and the options are here, the flows only wire.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from emissions_etl.errors import EmissionsEtlError
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.file_plan import PlannedFile, SheetFate
from emissions_etl.loading.options import LoadOptions
from emissions_etl.orchestration.organizations import organization_names
from emissions_etl.storage import as_path

if TYPE_CHECKING:
    from prefect.client.schemas.objects import State


class LoadTask(Protocol):
    """The flows' task loading one file (``emissions_etl_flows._tasks.load_one``), run for its
    state."""

    def __call__(
        self,
        path: str,
        resource: str,
        options: LoadOptions,
        workbook: tuple[SheetFate, ...],
        organization: str | None,
        *,
        return_state: Literal[True],
    ) -> State[Any]: ...


class SourceTask(Protocol):
    """The flows' task syncing one table source (``emissions_etl_flows._tasks.load_source``), by
    its name."""

    def __call__(
        self,
        name: str,
        resource: str,
        options: LoadOptions,
        organization: str | None,
        *,
        return_state: Literal[True],
    ) -> State[Any]: ...


@dataclass(frozen=True)
class PlannedSource:
    """A table source of the night, as its task is given it: its name and resource only (the
    task reads the rest, passwords included, when it runs: none is a task's parameter)."""

    name: str
    resource: str


class RefreshTask(Protocol):
    """The flows' task reading the sums again (``emissions_etl_flows._tasks.refresh_sums``)."""

    def __call__(self, organization: str | None, *, return_state: Literal[True]) -> State[Any]: ...


def file_outcome(
    path: str | None,
    resource: str,
    state: State[Any],
    sheets: tuple[str, ...] = (),
    *,
    table: str = "",
) -> FileOutcome:
    """The outcome of a load task from its final state (``sheets``: the workbook's sheets it
    loaded, when not the whole workbook; ``table``: the table source it synced, ``path``
    None)."""
    if state.is_completed():
        outcome: FileOutcome = state.result()
        return outcome
    error = state.result(raise_on_failure=False)
    if not isinstance(error, EmissionsEtlError):
        error = EmissionsEtlError(str(state.message))
    where = as_path(path) if path is not None else None
    return FileOutcome(where, resource, error=error, sheets=sheets, table=table)


def load_file(
    load: LoadTask,
    path: str,
    resource: str,
    options: LoadOptions,
    *,
    workbook: tuple[SheetFate, ...] = (),
    organization: str | None = None,
    sheets: tuple[str, ...] = (),
) -> FileOutcome:
    """Run the ``load`` task on one file (or the ``options.sheets`` of a workbook) and read what
    came of it; a file that could not be loaded is an outcome with its error, not a raise."""
    state = load(path, resource, options, workbook, organization, return_state=True)
    return file_outcome(path, resource, state, sheets)


@dataclass(frozen=True)
class NightlyParameters:
    """What a nightly run was given but its organization: each of its children gets these."""

    inbox: str | None = None
    strict: bool = False
    mirror: bool = False
    allow_mass_delete: bool = False

    def options(self, planned: PlannedFile) -> LoadOptions:
        """How one planned file loads (the sheets of a workbook the plan gives its resource)."""
        return LoadOptions(
            strict=self.strict,
            mirror=self.mirror,
            allow_mass_delete=self.allow_mass_delete,
            sheets=planned.sheets,
        )

    def table_options(self) -> LoadOptions:
        """How each table source of the night loads."""
        return LoadOptions(
            strict=self.strict, mirror=self.mirror, allow_mass_delete=self.allow_mass_delete
        )

    def as_flow_parameters(self) -> dict[str, Any]:
        """The parameters a child run of the nightly is started with (and its organization)."""
        return asdict(self)


def organizations_of_the_night(organization: str | None) -> list[str]:
    """The organizations a nightly runs one child each for: none when it loads one
    (``organization`` given, or no organizations configured)."""
    return [] if organization else organization_names()


def load_planned(
    planned: Sequence[PlannedFile],
    parameters: NightlyParameters,
    organization: str | None,
    *,
    load: LoadTask,
    not_loaded: Callable[[PlannedFile], FileOutcome],
    refresh_sums: RefreshTask,
    sources: Sequence[PlannedSource] = (),
    load_source: SourceTask | None = None,
) -> list[FileOutcome]:
    """Each planned file loaded by ``load`` (one that fails does not stop the others) or, with
    no resource, told why not; then each table source synced by ``load_source``, a task each
    as a file's; then, when anything loaded, the sums read again by ``refresh_sums`` (a
    failure is that task's: the files stand loaded)."""
    outcomes = []
    for file in planned:
        if file.spec is None:
            outcomes.append(not_loaded(file))
            continue
        outcome = load_file(
            load,
            str(file.path),
            file.spec.name,
            parameters.options(file),
            workbook=file.workbook,
            organization=organization,
            sheets=file.shown_sheets,
        )
        outcomes.append(outcome)
    for source in sources:
        if load_source is None:
            raise ValueError("table sources to sync, and no task to sync them with")
        state = load_source(source.name, source.resource, parameters.table_options(),
                            organization, return_state=True)  # fmt: skip
        outcomes.append(file_outcome(None, source.resource, state, table=source.name))
    if any(outcome.summary is not None for outcome in outcomes):
        refresh_sums(organization, return_state=True)
    return outcomes
