"""What the flows need to read as a table of contents, written once for ``flows/``: the
options a nightly run's files and table sources load with, which organizations a night runs a
child for, a load task's final state read as its file's outcome, and whether anything loaded
(then the sums are read again).

The flows walk their plan themselves, a task per planned file (``orchestration/tasks.py``); nothing
here calls a task or loops over a plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from emissions_etl.errors import EmissionsEtlError
from emissions_etl.json_values import JsonValue
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.file_plan import PlannedFile
from emissions_etl.loading.options import LoadOptions
from emissions_etl.orchestration.organizations import organization_names
from emissions_etl.storage import as_path

if TYPE_CHECKING:
    from prefect.client.schemas.objects import State


@dataclass(frozen=True)
class PlannedSource:
    """A table source of the night, as its task is given it: its name and resource only (the
    task reads the rest, passwords included, when it runs: none is a task's parameter)."""

    name: str
    resource: str


#: What a load task's state holds: Prefect types it by the task's return, an outcome or the
#: Failed state a task returns for a file it could not load.
_Result = TypeVar("_Result")


def file_outcome(
    path: str | None,
    resource: str,
    state: State[_Result],
    sheets: tuple[str, ...] = (),
    *,
    table: str = "",
) -> FileOutcome:
    """The outcome of a load task from its final state (``sheets``: the workbook's sheets it
    loaded, when not the whole workbook; ``table``: the table source it synced, ``path``
    None)."""
    if state.is_completed() and isinstance(outcome := state.result(), FileOutcome):
        return outcome
    error = state.result(raise_on_failure=False)
    if not isinstance(error, EmissionsEtlError):
        error = EmissionsEtlError(str(state.message))
    where = as_path(path) if path is not None else None
    return FileOutcome(where, resource, error=error, sheets=sheets, table=table)


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

    def as_flow_parameters(self) -> dict[str, JsonValue]:
        """The parameters a child run of the nightly is started with (and its organization)."""
        return asdict(self)


@dataclass(frozen=True)
class ArrivalParameters(NightlyParameters):
    """A run of one file that arrived: loaded as the nightly loads it, but not again when its
    content is what its source last loaded (``LoadOptions.content_once``: the same file sent
    twice)."""

    def options(self, planned: PlannedFile) -> LoadOptions:
        return replace(super().options(planned), content_once=True)


def organizations_of_the_night(organization: str | None) -> list[str]:
    """The organizations a nightly runs one child each for: none when it loads one
    (``organization`` given, or no organizations configured)."""
    return [] if organization else organization_names()


def anything_loaded(outcomes: Sequence[FileOutcome]) -> bool:
    """Whether a file or table source of the run loaded (its sums are then read again)."""
    return any(outcome.summary is not None for outcome in outcomes)
