"""What becomes of a file given to a load: a csv is one resource; a workbook is read sheet by
sheet, each sheet going to the resource its name or header fits (``detection.route``) as if it
were a file of its own, the sheets of one resource loading together (one run, one source: a
sheet renamed or moved keeps its rows' keys). Sheets that fit nothing (notes, summaries) are
skipped and named; a sheet that cannot be told apart is refused and named, and the others load.

With the resource named (``--resource``, ``--profile``, ``inbox/<resource>/``), every sheet whose
header fits it is taken as it, as before; ``sheets`` picks sheets by name either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from emissions_etl.errors import (
    EmptySourceError,
    InputError,
    SheetNotFoundError,
    SourceNotFoundError,
    UnsupportedSourceError,
)
from emissions_etl.loading.detection import (
    Route,
    detect_resource,
    fits_resource,
    has_rows,
    route,
)
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources import is_workbook
from emissions_etl.sources.peek import peek_rows, sheet_names
from emissions_etl.storage import AnyPath, is_file

#: Why a sheet with a header and nothing under it (a template's sheet left empty) is skipped.
NO_ROWS = "not loaded, no rows under its header"


@dataclass(frozen=True)
class SheetFate:
    """Where a sheet of a workbook went: to ``resource``, or nowhere, and why (``not_loaded``)."""

    sheet: str
    resource: str = ""
    not_loaded: str = ""
    #: Not loaded because it could not be told apart or lacks columns (not a sheet of notes):
    #: rows that may be any resource's, so no mirror of the workbook deletes anything.
    refused: bool = False

    def record(self) -> dict[str, str | None]:
        """As the run's parameters hold it (JSON)."""
        return {
            "sheet": self.sheet,
            "resource": self.resource or None,
            "not_loaded": self.not_loaded or None,
        }


@dataclass(frozen=True)
class PlannedFile:
    """A file, or sheets of a workbook, to load as ``spec``; or, with ``spec`` None, what is
    not loaded and why (``problem``): a file or sheet refused (an ``error``), or with
    ``skipped`` a sheet that holds nothing to load."""

    path: AnyPath
    spec: ResourceSpec | None
    problem: str = ""
    #: The workbook's sheets this is (empty: the whole file, as read without naming sheets).
    sheets: tuple[str, ...] = ()
    skipped: bool = False
    #: Every sheet of the workbook planned, in its order, and where it goes: recorded on each
    #: run of the workbook, so the warehouse tells of the sheets no run read.
    workbook: tuple[SheetFate, ...] = ()
    error: type[InputError] = UnsupportedSourceError

    @property
    def shown_sheets(self) -> tuple[str, ...]:
        """The sheets to name beside the file: none when this is the whole workbook."""
        return self.sheets if len(self.workbook) > len(self.sheets) else ()

    @property
    def label(self) -> str:
        """``datos.xlsx``, ``datos.xlsx sheet Flota`` or ``datos.xlsx sheets Centros, Sedes``."""
        return file_label(self.path, self.shown_sheets)

    @property
    def reason(self) -> str:
        """Why it is not loaded, naming its sheet (``sheet Resumen: not loaded, ...``)."""
        return f"sheet {self.sheets[0]}: {self.problem}" if self.sheets else self.problem

    @property
    def where(self) -> str:
        """The label with the file's path as given, for error lines."""
        return file_label(self.path, self.shown_sheets, path_given=True)


def file_label(path: AnyPath, sheets: tuple[str, ...], *, path_given: bool = False) -> str:
    """A file's name (its path as given, with ``path_given``), with the sheets meant when they
    are not the whole workbook."""
    name = str(path) if path_given else path.name
    if not sheets:
        return name
    return f"{name} sheet{'s' if len(sheets) > 1 else ''} {', '.join(sheets)}"


def plan_file(
    path: AnyPath,
    *,
    spec: ResourceSpec | None = None,
    sheets: tuple[str, ...] = (),
    profile: str | None = None,
) -> list[PlannedFile]:
    """What becomes of ``path`` (see the module's docstring): one entry per resource it loads,
    and one per sheet it does not. ``spec``: the resource named (``profile``: the export
    profile named with it). Raises an InputError when the file is unusable or nothing in it
    can be loaded (a single line naming why, or each refused sheet)."""
    if not is_file(path):
        raise SourceNotFoundError(str(path), "no such file")
    if not is_workbook(path):
        return [PlannedFile(path, spec or detect_resource(path))]
    if spec is not None:
        return _as_named(path, spec, sheets, profile)
    _check_picked(path, sheets)
    names = list(sheets) or sheet_names(path)
    # A sheet picked by name, or a workbook's only sheet, is the data meant: never skipped.
    picked = bool(sheets) or len(names) == 1
    routes = {name: _route_sheet(path, name, picked) for name in names}
    planned = _entries(path, routes)
    if not any(entry.spec is not None for entry in planned):
        raise _nothing_to_load(path, planned)
    return planned


def _route_sheet(path: AnyPath, sheet: str, picked: bool) -> Route:
    """Where ``sheet`` goes; a sheet with nothing under its header (a template's sheet left
    empty) is skipped, unless picked."""
    head = peek_rows(path, sheet=sheet)
    found = route(head, sheet=sheet, picked=picked)
    if found.spec is not None and not picked and not has_rows(head, found):
        return Route(None, NO_ROWS, skipped=True)
    return found


def _as_named(
    path: AnyPath, spec: ResourceSpec, sheets: tuple[str, ...], profile: str | None
) -> list[PlannedFile]:
    """Every sheet picked, or every visible sheet whose header fits ``spec``, as ``spec``.
    When none fits, or the workbook cannot be opened, the whole file is given to the load,
    whose reader says why (and the run records it)."""
    if sheets:
        return _entries(path, {name: Route(spec) for name in sheets})
    try:
        names = sheet_names(path)
        if len(names) < 2:  # nothing to tell apart: the reader reads it (one calamine load)
            return [PlannedFile(path, spec)]
        routes = {
            name: Route(spec)
            if fits_resource(peek_rows(path, sheet=name), spec, profile)
            else Route(None, f"not loaded, its header does not fit {spec.name}", skipped=True)
            for name in names
        }
    except InputError:
        return [PlannedFile(path, spec)]
    if not any(found.spec is not None for found in routes.values()):
        return [PlannedFile(path, spec)]
    return _entries(path, routes)


def _entries(path: AnyPath, routes: dict[str, Route]) -> list[PlannedFile]:
    """One entry per resource (its sheets in the workbook's order), then one per sheet not
    loaded; each carries the whole workbook's plan."""
    workbook = tuple(
        SheetFate(name, found.spec.name) if found.spec is not None
        else SheetFate(name, not_loaded=found.problem, refused=not found.skipped)
        for name, found in routes.items()
    )  # fmt: skip
    by_resource: dict[str, tuple[ResourceSpec, list[str]]] = {}
    for name, found in routes.items():
        if found.spec is not None:
            by_resource.setdefault(found.spec.name, (found.spec, []))[1].append(name)
    planned = [
        PlannedFile(path, spec, sheets=tuple(names), workbook=workbook)
        for spec, names in by_resource.values()
    ]
    planned += [
        PlannedFile(path, None, found.problem, sheets=(name,),
                    skipped=found.skipped, workbook=workbook, error=found.error)
        for name, found in routes.items()
        if found.spec is None
    ]  # fmt: skip
    return planned


def _check_picked(path: AnyPath, sheets: tuple[str, ...]) -> None:
    if not sheets:
        return
    known = sheet_names(path, hidden=True)
    for name in sheets:
        if name not in known:
            listed = ", ".join(known)
            raise SheetNotFoundError(str(path), f"no sheet named {name!r}; sheets: {listed}")


def _nothing_to_load(path: AnyPath, planned: list[PlannedFile]) -> InputError:
    """The one-line error of a workbook none of whose sheets loads."""
    refused = [entry for entry in planned if not entry.skipped]
    if refused:
        return refused[0].error(str(path), "; ".join(entry.reason for entry in refused))
    reasons = "; ".join(entry.reason for entry in planned)
    if any(entry.problem == NO_ROWS for entry in planned):  # a template's sheets left empty
        return EmptySourceError(str(path), f"no data rows under any sheet's header ({reasons})")
    return UnsupportedSourceError(
        str(path),
        f"no sheet to load ({reasons}): name each sheet after its resource and its columns as "
        "`emissions-etl resources` lists them, or name the resource with --resource or put the "
        "file in inbox/<resource>/",
    )


__all__ = ["PlannedFile", "SheetFate", "file_label", "plan_file"]
