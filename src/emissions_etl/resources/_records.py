"""Small helpers resource modules share when they turn valid rows into API records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from emissions_etl.domain.row_keys import key_text
from emissions_etl.sources.frames import ORIGIN_COLUMNS, ROW_KEY_COLUMN

#: Columns that ride along with every record: where the row came from, its key and hash.
CARRIED_COLUMNS = (*ORIGIN_COLUMNS, "source_key", "source_hash")


def keep_origin(records: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """``records`` (built from ``rows``, same index) with the carried columns, reindexed 0..n."""
    for name in (*CARRIED_COLUMNS, *([ROW_KEY_COLUMN] if ROW_KEY_COLUMN in rows else [])):
        records[name] = rows[name].to_numpy()
    return records.reset_index(drop=True)


def named(record: Mapping[str, Any]) -> str | None:
    """A record's or row's name as a key holds it (trimmed, spaces joined, case-blind)."""
    name = record.get("name")
    return key_text(name) if name else None
