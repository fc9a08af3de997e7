"""Which resource a file or a workbook's sheet holds, when neither the command line nor the folder
says: the resource whose required columns the header names, the most columns winning (directly
or through an export profile: SAP, Concur...); for a sheet, among the resources its name names
("Flota", "Viajes 2026": ``sheet_names``) when it names any.

Nothing is guessed: a header that fits two resources equally is refused naming them, and so is a
sheet whose name says one resource while its header fits another better, or a header that fits
one resource but names more columns of another it lacks a column of; a sheet named after a
resource whose header lacks some of its columns is refused naming them. A sheet that fits
nothing (notes, a summary, a chart's data) is skipped, and says so; a file that fits nothing is
refused naming the closest resources (and profile) and what they miss.
"""

from __future__ import annotations

from dataclasses import dataclass

from emissions_etl.errors import (
    AmbiguousSourceError,
    InputError,
    SourceNotFoundError,
    UnsupportedSourceError,
)
from emissions_etl.loading.sheet_names import read_sheet_name
from emissions_etl.profiles.catalog import Profile, profile_named
from emissions_etl.profiles.detect import fit, near_misses, ranked_fits, usable_profiles
from emissions_etl.resources import RESOURCES, ResourceSpec
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, locate_header
from emissions_etl.sources.peek import peek_rows
from emissions_etl.storage import AnyPath, is_file

#: Columns a header must name to be taken for a resource on its own (no name saying which): a
#: lone "Fecha" names logistics_requests' only required column, and is as likely a summary's.
MIN_COLUMNS_BY_HEADER = 2
_ADVICE = "Name the resource with --resource or put the file in inbox/<resource>/"


@dataclass(frozen=True)
class HeaderFit:
    """How well a header (its best row among the first ones) fits one resource."""

    spec: ResourceSpec
    #: Columns of the resource the header names (through ``profile`` when it is read so).
    found: int
    #: Required columns of the resource's own the header lacks.
    missing: tuple[str, ...]
    #: The export profile whose layout the header fits, when it is read through one.
    profile: str | None = None

    @property
    def fits(self) -> bool:
        return not self.missing or self.profile is not None

    @property
    def close(self) -> bool:
        """Misses some required columns but names most of them: meant to be this resource."""
        named = len(self.spec.required_columns) - len(self.missing)
        return named >= 2 and 2 * named >= len(self.spec.required_columns)


@dataclass(frozen=True)
class Route:
    """Where a sheet or a file goes: ``spec``, or nowhere, saying why (``problem``). A skipped
    sheet (notes, a summary) is no error; any other ``problem`` is, raised as ``error``."""

    spec: ResourceSpec | None
    problem: str = ""
    skipped: bool = False
    error: type[InputError] = UnsupportedSourceError
    #: How the header fits ``spec``.
    fit: HeaderFit | None = None


def header_fits(rows: list[list[str]]) -> list[HeaderFit]:
    """Every resource's fit to the header in ``rows``, best first: fitting ones by columns
    named, then the others by columns named and missing."""
    profiles = usable_profiles()
    found = []
    for spec in RESOURCES.values():
        own = _own_fit(rows, spec)
        mine = [p for p in profiles if p.resource == spec.name]
        best = next(iter(ranked_fits(rows, mine)), None) if mine else None
        if best is not None and best.fits and (own.missing or len(best.found) > own.found):
            own = HeaderFit(spec, len(best.found), own.missing, best.profile.name)
        found.append(own)
    return sorted(found, key=lambda f: (f.fits, f.found, -len(f.missing)), reverse=True)


def fits_resource(rows: list[list[str]], spec: ResourceSpec, profile: str | None = None) -> bool:
    """True when the header fits ``spec`` as a load of ``spec`` reads it: its own columns or a
    profile of it (``profile`` only, when named)."""
    if profile:
        return fit(profile_named(profile), rows).fits
    if not _own_fit(rows, spec).missing:
        return True
    return any(fitted.fits for fitted in ranked_fits(rows, usable_profiles(spec.name)))


def route(rows: list[list[str]], *, sheet: str | None = None, picked: bool = False) -> Route:
    """Where the header in ``rows`` goes: a file's (``sheet`` None) or the sheet ``sheet``'s,
    which its name may narrow (``picked``: the person chose the sheet, so it is never skipped)."""
    fits = header_fits(rows)
    fitting = [f for f in fits if f.fits]
    said = read_sheet_name(sheet) if sheet is not None else None
    if said is not None and said.not_data and not picked:
        fits_one = any(f.found >= MIN_COLUMNS_BY_HEADER for f in fitting)
        why = "its name marks notes or a summary" if fits_one else "its header fits no resource"
        return Route(None, f"not loaded, {why}", skipped=True)
    if said is not None and said.resources:
        named = [f for f in fitting if f.spec.name in said.resources]
        if named:
            return _named_route(named, fitting)
        meant = [f for f in fits if f.spec.name in said.resources and f.found >= 2]
        if meant:
            return Route(
                None,
                f"its name says {meant[0].spec.name} but its header lacks "
                f"{', '.join(meant[0].missing)}",
            )
    # Of two profiles reading one layout, the header alone is only the first's.
    recognised = {profile.name for profile in _detectable_profiles()}
    by_header = [
        f
        for f in fitting
        if f.found >= MIN_COLUMNS_BY_HEADER and (f.profile is None or f.profile in recognised)
    ]
    if by_header:
        tied = [f for f in by_header if f.found == by_header[0].found]
        if len(tied) > 1:
            return _ambiguous(tied, sheet is not None)
        closer = [f for f in fits if not f.fits and f.close and f.found > tied[0].found]
        if closer:  # a facilities sheet without its country is no list of hubs
            return Route(
                None,
                f"its header fits {tied[0].spec.name} but names more columns of "
                f"{closer[0].spec.name} ({closer[0].found} against {tied[0].found}), which "
                f"needs {', '.join(closer[0].missing)}: add the column, or name the resource "
                "with --resource",
                error=AmbiguousSourceError,
            )
        return Route(by_header[0].spec, fit=by_header[0])
    if sheet is not None:
        near = [f for f in fits if not f.fits and f.close]
        if near:
            return Route(
                None, f"its header is close to {near[0].spec.name} but lacks "
                f"{', '.join(near[0].missing)}",
            )  # fmt: skip
        if not picked:
            return Route(None, "not loaded, its header fits no resource", skipped=True)
    return Route(None, _fits_none(rows, fits))


def has_rows(rows: list[list[str]], found: Route) -> bool:
    """False when ``rows`` are a whole sheet (fewer than the rows peeked) with nothing under the
    header ``found`` fits: a sheet of a template left empty."""
    if found.fit is None or len(rows) >= HEADER_SEARCH_ROWS:
        return True
    if found.fit.profile is not None:
        profile = profile_named(found.fit.profile)
        namer = ColumnNamer(profile.source_keys, profile.aliases, profile.required)
    else:
        spec = found.fit.spec
        namer = ColumnNamer(spec.columns, spec.aliases, spec.required_columns)
    header = locate_header(rows, namer)
    below = rows[header + 1 :] if header is not None else rows
    return any(str(cell).strip() for row in below for cell in row)


def detect_resource(path: AnyPath, *, sheet: str | None = None) -> ResourceSpec:
    """The resource ``path`` holds, from its header (of ``sheet``, else the first sheet); an
    InputError naming the closest ones, or the ones it fits equally, otherwise."""
    found = route(_first_rows(path, sheet))
    if found.spec is None:
        raise found.error(str(path), found.problem)
    return found.spec


def _named_route(named: list[HeaderFit], fitting: list[HeaderFit]) -> Route:
    """The resource the sheet's name and header both say; refused when the header fits another
    resource better, or two named ones equally."""
    best = named[0]
    names = {f.spec.name for f in named}
    better = [f for f in fitting if f.found > best.found and f.spec.name not in names]
    if better:
        return Route(
            None,
            f"its name says {best.spec.name} but its header fits {better[0].spec.name} better "
            f"({better[0].found} of its columns against {best.found}): rename the sheet, or "
            "load it with --resource and --sheet",
            error=AmbiguousSourceError,
        )
    tied = [f for f in named if f.found == best.found]
    return _ambiguous(tied, True) if len(tied) > 1 else Route(best.spec, fit=best)


def _ambiguous(tied: list[HeaderFit], is_sheet: bool) -> Route:
    names = ", ".join(f.spec.name for f in tied[:-1]) + f" and {tied[-1].spec.name}"
    advice = _ADVICE
    if is_sheet:
        either = " or ".join(f.spec.name for f in tied)
        advice = (
            f"name the sheet after its resource ({either}), or load it with --resource and --sheet"
        )
    return Route(
        None,
        f"its header fits {names} equally ({tied[0].found} columns each): {advice}",
        error=AmbiguousSourceError,
    )


def _fits_none(rows: list[list[str]], fits: list[HeaderFit]) -> str:
    closest = "; ".join(f"{f.spec.name} (missing {', '.join(f.missing)})" for f in fits[:3])
    misses = near_misses(ranked_fits(rows, usable_profiles()))
    closest += "".join(f"; {miss.describe_missing()}" for miss in misses[:1])
    return f"its header fits no resource; closest: {closest}. {_ADVICE}"


def _own_fit(rows: list[list[str]], spec: ResourceSpec) -> HeaderFit:
    """The fit of the row naming the most required, then other, columns of ``spec``."""
    namer = ColumnNamer(spec.columns, spec.aliases, spec.required_columns)
    required = set(spec.required_columns)
    best: set[str] = set()
    for cells in rows:
        named = {namer.canonical(cell) for cell in cells} - {None}
        if (len(named & required), len(named)) > (len(best & required), len(best)):
            best = {str(name) for name in named}
    missing = tuple(c for c in spec.required_columns if c not in best)
    return HeaderFit(spec, len(best), missing)


def _detectable_profiles() -> list[Profile]:
    """Profiles a header alone is recognised as. Of two reading one layout (``fuel_card``, and
    ``fuel_card_fleet`` declared with ``layout = "fuel_card"``), the first by name: the other
    is for its folder, ``--resource``, ``--profile`` or a sheet named after its resource."""
    kept: list[Profile] = []
    for profile in usable_profiles():
        if all(profile.sources != other.sources for other in kept):
            kept.append(profile)
    return kept


def _first_rows(path: AnyPath, sheet: str | None) -> list[list[str]]:
    if not is_file(path):
        raise SourceNotFoundError(str(path), "no such file")
    return peek_rows(path, sheet=sheet)
