"""Small helpers resource modules share when they turn valid rows into API records."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.client.json_types import QueryValue
from emissions_etl.domain.row_keys import key_text
from emissions_etl.json_values import JsonValue
from emissions_etl.sources.frames import ORIGIN_COLUMNS, ROW_KEY_COLUMN

#: Columns that ride along with every record: where the row came from, its key and hash.
CARRIED_COLUMNS = (*ORIGIN_COLUMNS, "source_key", "source_hash")


def keep_origin(records: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """``records`` (built from ``rows``, same index) with the carried columns, reindexed 0..n."""
    for name in (*CARRIED_COLUMNS, *([ROW_KEY_COLUMN] if ROW_KEY_COLUMN in rows else [])):
        records[name] = rows[name].to_numpy()
    return records.reset_index(drop=True)


def named(record: Mapping[str, JsonValue]) -> str | None:
    """A record's or row's name as a key holds it (trimmed, spaces joined, case-blind)."""
    name = record.get("name")
    return key_text(name) if name else None


def text_of(value: JsonValue) -> str | None:
    """A field of a record as text (None when the record has none)."""
    return None if value is None else str(value)


def query_value(value: JsonValue) -> QueryValue:
    """A field of a payload as a list query's value: a scalar as it is (None is left out of the
    query string); a list or an object, which no list query takes, as its text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
