"""The loader's hook for a table source: its query's columns named as a file's header is (the
resource's names and aliases, or an export profile's layout, chosen from the column names as
from a header row), its rows without a key of their own left out as rejects, and the profile
applied; validation runs unchanged after."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.domain.table_keys import split_by_key
from emissions_etl.profiles.apply import ProfileMapper
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.profiles.reading import ReadOptions, profile_of_header
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources.headers import ColumnNamer
from emissions_etl.tables import TableReader, TableSource


def read_table_batches(
    source: TableSource, spec: ResourceSpec, options: ReadOptions
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """(batch in ``spec``'s canonical columns, rejects of the rows left out of it) per batch
    of the query's result, in the key's order."""
    with TableReader(source) as reader:
        columns = reader.columns
        profile = profile_of_header([columns], spec, options.profile, where=source.source_name)
        if profile is None:
            namer = ColumnNamer(spec.columns, spec.aliases, spec.required_columns)
            mapper = None
        else:
            namer = ColumnNamer(profile.source_keys, profile.aliases, profile.required)
            inputs = options.profile_inputs or ProfileInputs.from_settings()
            mapper = ProfileMapper(profile, spec, inputs)
        named = dict(zip(columns, namer.name_row(0, columns).names, strict=True))
        key_columns = [named[column] for column in source.key]
        for batch in reader.batches(namer, options.batch_rows):
            kept, rejects = split_by_key(batch, source.key, key_columns)
            left_out = empty_rejects()
            if mapper is not None:
                kept, left_out = mapper.apply(kept)
            yield kept, pd.concat([rejects, left_out], ignore_index=True)


__all__ = ["read_table_batches"]
