"""A table source's row identity: its source and its ``--key`` values, never its place.

A row of the query is ``<source>#txn_id=T-0101`` (``company=ES01, doc_no=42`` for a key of
several columns), hashed like any key longer than the service echoes. A row with an empty key
column, or whose key other rows of the result share, cannot be found again: it is rejected at
its key, and the others of that key with it (a query has no order to tell the first).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.domain.row_keys import echoable
from emissions_etl.sources.frames import KEY_ROWS_COLUMN, ROW_KEY_COLUMN


def table_keys(source: str, labels: pd.Series) -> pd.Series:
    """Each row's ``source_key`` from its key as a person reads it (``txn_id=T-0101``)."""
    keys = [echoable(f"{source}#{label}") for label in labels.astype(str)]
    return pd.Series(keys, index=labels.index, dtype="str")


def split_by_key(
    batch: pd.DataFrame, key: Sequence[str], headers: Sequence[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(rows whose key is theirs alone, rejects of the others): an empty key column is
    REQUIRED, a key several rows hold DUPLICATE_ROW_ID. ``headers``: the batch's column of each
    key column (the query's names, as the batch names them)."""
    labels = batch[ROW_KEY_COLUMN]
    missing = labels.isna().to_numpy()
    shared = ~missing & (batch[KEY_ROWS_COLUMN].to_numpy() > 1)
    rejects = [empty_rejects()]
    if missing.any():
        rejects += _missing(batch, missing, key, headers)
    if shared.any():
        rows = batch[shared]
        counts = rows[KEY_ROWS_COLUMN].astype("int64").astype(str)
        rejects.append(
            make_rejects(
                rows,
                column=", ".join(key),
                value=rows[ROW_KEY_COLUMN].astype(str),
                code=RejectCode.DUPLICATE_ROW_ID,
                message=rows[ROW_KEY_COLUMN].astype(str) + " is the key of " + counts
                + " rows of the query: a key names one row; give each row its own, or a --key "
                "of more columns.",
            )
        )  # fmt: skip
    kept = batch[~(missing | shared)].drop(columns=KEY_ROWS_COLUMN).reset_index(drop=True)
    kept.attrs = batch.attrs
    return kept, pd.concat(rejects, ignore_index=True)


def _missing(
    batch: pd.DataFrame, missing: np.ndarray, key: Sequence[str], headers: Sequence[str]
) -> list[pd.DataFrame]:
    """A REQUIRED reject at the first empty key column of each row without its key."""
    rows = batch[missing]
    left = np.ones(len(rows), dtype=bool)
    found = []
    for column, header in zip(key, headers, strict=True):
        empty = left & rows[header].isna().to_numpy()
        if empty.any():
            found.append(
                make_rejects(
                    rows[empty],
                    column=column,
                    value=pd.Series("", index=rows.index[empty]),
                    code=RejectCode.REQUIRED,
                    message=f"{column} is empty: the key (--key {','.join(key)}) is how the row "
                    "is found again; give it one.",
                )
            )
            left &= ~empty
    return found
