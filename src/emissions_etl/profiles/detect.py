"""Which profile a file's header fits: the one whose required source headers a row of the first
rows names, the most named columns winning; and what a near miss lacks, for the message."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from emissions_etl.profiles.catalog import Profile, all_profiles
from emissions_etl.resources import RESOURCES, ResourceSpec
from emissions_etl.sources.headers import ColumnNamer

#: A profile counts as a near miss (named in messages) from this many source columns found.
NEAR_MISS_COLUMNS = 3


@dataclass(frozen=True)
class ProfileFit:
    """How well the best header row fits one profile."""

    profile: Profile
    found: frozenset[str]
    missing: tuple[str, ...]
    #: The header row judged (its non-empty cells), for messages.
    row: tuple[str, ...] = ()

    @property
    def fits(self) -> bool:
        return not self.missing

    def describe_missing(self) -> str:
        """``profile sap_purchases needs Warengruppe (or Material Group, MATKL)``."""
        needs = "; ".join(self.profile.source(key).spelled for key in self.missing)
        return f"profile {self.profile.name} needs {needs}"


def usable_profiles(resource: str | None = None) -> list[Profile]:
    """Declared profiles whose resource exists (of ``resource`` only, when given)."""
    return [
        profile
        for profile in all_profiles().values()
        if profile.resource in RESOURCES and resource in (None, profile.resource)
    ]


def fit(profile: Profile, rows: Sequence[Sequence[str]]) -> ProfileFit:
    """The fit of the row naming the most of ``profile``'s required, then other, columns."""
    namer = ColumnNamer(profile.source_keys, profile.aliases, profile.required)
    required = set(profile.required)
    best: set[str] = set()
    best_row: tuple[str, ...] = ()
    for cells in rows:
        named = {namer.canonical(cell) for cell in cells} - {None}
        if (len(named & required), len(named)) > (len(best & required), len(best)):
            best = {str(key) for key in named}
            best_row = tuple(str(cell).strip() for cell in cells if str(cell).strip())
    missing = tuple(key for key in profile.required if key not in best)
    return ProfileFit(profile, frozenset(best), missing, best_row)


def ranked_fits(rows: Sequence[Sequence[str]], profiles: Iterable[Profile]) -> list[ProfileFit]:
    """Fits best first: fitting ones by columns found, then near misses by columns found."""
    fits = [fit(profile, rows) for profile in profiles]
    return sorted(fits, key=lambda f: (f.fits, len(f.found), -len(f.missing)), reverse=True)


def own_columns_found(rows: Sequence[Sequence[str]], spec: ResourceSpec) -> int | None:
    """How many columns of ``spec`` its own spellings find in the header row naming every
    required one; None when no row does (the file does not have the resource's columns)."""
    namer = ColumnNamer(spec.columns, spec.aliases, spec.required_columns)
    counts = [
        len({namer.canonical(cell) for cell in cells} - {None})
        for cells in rows
        if namer.is_header(cells)
    ]
    return max(counts) if counts else None


def near_misses(fits: Iterable[ProfileFit]) -> list[ProfileFit]:
    """Fits that miss a required column but find enough to be what the file was meant to be."""
    return [f for f in fits if not f.fits and len(f.found) >= NEAR_MISS_COLUMNS]


__all__ = [
    "ProfileFit",
    "fit",
    "near_misses",
    "own_columns_found",
    "ranked_fits",
    "usable_profiles",
]
