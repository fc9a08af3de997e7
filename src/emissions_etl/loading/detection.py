"""Which resource a file holds, from its header row, when neither the command line nor the
folder says: the resource whose required columns the header names, the most columns winning;
or the resource of the export profile whose required source headers it names, when no resource
fits or the profile recognises more of the header. A file that fits none is refused naming the
closest resources (and profile) and what they miss."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.errors import SourceNotFoundError, UnsupportedSourceError
from emissions_etl.profiles.detect import near_misses, ranked_fits, usable_profiles
from emissions_etl.resources import RESOURCES, ResourceSpec
from emissions_etl.sources import is_workbook, normalise_header
from emissions_etl.sources.peek import peek_rows


def detect_resource(path: Path, *, sheet: str | None = None) -> ResourceSpec:
    """The resource ``path`` holds; UnsupportedSourceError naming the closest ones otherwise."""
    rows = _first_rows(path, sheet)
    scored = []
    for spec in RESOURCES.values():
        lookup = {normalise_header(name): name for name in spec.columns}
        for alias, canonical in spec.aliases.items():
            lookup.setdefault(normalise_header(alias), canonical)
        best: set[str] = set()
        for cells in rows:
            named = {lookup[key] for key in map(normalise_header, cells) if key in lookup}
            if len(named & set(spec.required_columns)) > len(best & set(spec.required_columns)):
                best = named
        missing = [c for c in spec.required_columns if c not in best]
        scored.append((not missing, len(best), -len(missing), spec, missing))
    scored.sort(key=lambda entry: entry[:3], reverse=True)
    fitting = [entry for entry in scored if entry[0]]
    # Export profiles (SAP, Concur...): the resource of the one whose required headers fit,
    # unless a resource's own columns fit and explain as much of the header.
    profiled = ranked_fits(rows, usable_profiles())
    if profiled and profiled[0].fits and (not fitting or len(profiled[0].found) > fitting[0][1]):
        return RESOURCES[profiled[0].profile.resource]
    if fitting:
        return fitting[0][3]
    closest = "; ".join(
        f"{spec.name} (missing {', '.join(missing)})" for _, _, _, spec, missing in scored[:3]
    )
    closest += "".join(f"; {miss.describe_missing()}" for miss in near_misses(profiled)[:1])
    raise UnsupportedSourceError(
        str(path),
        f"its header fits no resource; closest: {closest}. "
        "Name the resource with --resource or put the file in inbox/<resource>/",
    )


def _first_rows(path: Path, sheet: str | None) -> list[list[str]]:
    if not path.is_file():
        raise SourceNotFoundError(str(path), "no such file")
    return peek_rows(path, sheet=sheet, workbook=is_workbook(path))
