"""The loader's hook: read a file's batches either in the resource's own columns or through an
export profile, as ``pipeline.iter_validated`` asks; validation runs unchanged after.

The profile is the one named (``--profile``), else the resource's profile whose required source
headers the header has, unless the header has the resource's own columns and the profile does
not recognise more of it (a file written for the resource loads as it is). A file that is almost
a profile's layout but lacks a required column is refused naming that column.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import pandas as pd

from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.errors import SourceNotFoundError, UnsupportedSourceError
from emissions_etl.profiles.apply import ProfileMapper
from emissions_etl.profiles.catalog import Profile, profile_named
from emissions_etl.profiles.detect import (
    ProfileFit,
    fit,
    near_misses,
    own_columns_found,
    ranked_fits,
    usable_profiles,
)
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources import read_source
from emissions_etl.sources.peek import peek_rows
from emissions_etl.storage import AnyPath, is_file

#: Header cells a message lists before "...".
HEADERS_SHOWN = 15


class ReadOptions(Protocol):
    """The knobs of ``pipeline.LoadOptions`` reading uses."""

    @property
    def sheet(self) -> str | None: ...
    @property
    def encoding(self) -> str | None: ...
    @property
    def delimiter(self) -> str | None: ...
    @property
    def batch_rows(self) -> int: ...
    @property
    def profile(self) -> str | None: ...
    @property
    def profile_inputs(self) -> ProfileInputs | None: ...


def read_batches(
    path: AnyPath, spec: ResourceSpec, options: ReadOptions
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """(batch in ``spec``'s canonical columns, rejects of rows a profile left out) per batch."""
    profile = choose_profile(path, spec, options.profile, sheet=options.sheet)
    layout = (
        (profile.source_keys, profile.aliases, profile.required)
        if profile is not None
        else (spec.columns, spec.aliases, spec.required_columns)
    )
    batches = read_source(
        path,
        sheet=options.sheet,
        expected_columns=layout[0],
        aliases=layout[1],
        required_columns=layout[2],
        encoding=options.encoding,
        delimiter=options.delimiter,
        batch_rows=options.batch_rows,
    )
    if profile is None:
        for batch in batches:
            yield batch, empty_rejects()
        return
    inputs = options.profile_inputs or ProfileInputs.from_settings()
    mapper = ProfileMapper(profile, spec, inputs)
    for batch in batches:
        yield mapper.apply(batch)


def choose_profile(
    path: AnyPath, spec: ResourceSpec, name: str | None, *, sheet: str | None = None
) -> Profile | None:
    """The profile ``path`` is read through for ``spec`` (see the module's docstring).

    Raises ValueError for an unknown profile or one of another resource, and
    UnsupportedSourceError naming the missing column when the header lacks a required one.
    """
    if not name and not usable_profiles(spec.name):
        return None
    return profile_of_header(_peek(path, sheet), spec, name, where=str(path))


def profile_of_header(
    rows: Sequence[Sequence[str]], spec: ResourceSpec, name: str | None, *, where: str
) -> Profile | None:
    """``choose_profile`` of a header found among ``rows`` (a file's first rows, a query's
    column names); ``where`` names the source in messages."""
    if name:
        profile = profile_named(name)
        if profile.resource != spec.name:
            raise ValueError(f"profile {profile.name} is for {profile.resource}, not {spec.name}")
        found = fit(profile, rows)
        if not found.fits:
            raise UnsupportedSourceError(where, _missing_message(found))
        return profile
    candidates = usable_profiles(spec.name)
    if not candidates:
        return None
    own = own_columns_found(rows, spec)
    ranked = ranked_fits(rows, candidates)
    if ranked[0].fits and (own is None or len(ranked[0].found) > own):
        return ranked[0].profile  # the export's layout explains more of its header
    if own is not None:
        return None
    misses = near_misses(ranked)
    if misses:
        raise UnsupportedSourceError(
            where, f"not {spec.name}'s own columns, and {_missing_message(misses[0])}"
        )
    return None


def _missing_message(found: ProfileFit) -> str:
    cells = list(found.row[:HEADERS_SHOWN]) + (["..."] if len(found.row) > HEADERS_SHOWN else [])
    return f"{found.describe_missing()}; the header has: {', '.join(cells) or 'nothing'}"


def _peek(path: AnyPath, sheet: str | None) -> list[list[str]]:
    if not is_file(path):
        raise SourceNotFoundError(str(path), "no such file")
    return peek_rows(path, sheet=sheet)


__all__ = ["ReadOptions", "choose_profile", "read_batches"]
