"""Each source row's identity (``source_key``) and content fingerprint (``source_hash``).

The key decides which remote record a row maps to across runs; the hash decides whether the row
changed since it was sent. Both are computed vectorised, in C, for whole batches.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.util import hash_array

from emissions_etl.sources.cells import is_text_dtype

#: Longest key the service echoes (interface: Limits, ``client_row_id`` 255 characters).
MAX_KEY_LENGTH = 255
ROW_ID_COLUMN = "client_row_id"


def row_keys(typed: pd.DataFrame, natural_key: Sequence[str]) -> pd.Series:
    """The natural key's values joined by ``|`` (dates ISO, text trimmed and lower-cased), or,
    without a natural key, ``client_row_id`` where given and ``file#sheet!row`` elsewhere.

    The first part is the key's identity: a row without it is keyed like a row of a resource
    without a natural key (the schema rejects the empty cell when the part is required; an
    optional one, a leg's ``movement_id``, leaves the row its own id). A missing further part
    is empty text (a leg without a stretch).
    """
    if natural_key:
        parts = [_key_text(typed[name]) for name in natural_key]
        joined = parts[0]
        for part in parts[1:]:
            joined = joined + "|" + part.fillna("")
        return _filled(joined.astype("str"), lambda rows: row_keys(typed[rows], ()))
    if ROW_ID_COLUMN in typed.columns:
        return _filled(typed[ROW_ID_COLUMN].astype("str"), lambda rows: _place_keys(typed[rows]))
    return _place_keys(typed)


def _filled(keys: pd.Series, fallback: Callable[[np.ndarray], pd.Series]) -> pd.Series:
    """``keys`` with the missing ones taken from ``fallback`` (computed for those rows only:
    most files give every row its key)."""
    lacking = keys.isna().to_numpy()
    if not lacking.any():
        return keys
    keys = keys.copy()
    keys[lacking] = fallback(lacking).to_numpy()
    return keys


def _key_text(values: pd.Series) -> pd.Series:
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values.dt.strftime("%Y-%m-%d")
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        # 15 significant digits: 1234.567 and 1234.568 stay apart (``:g`` keeps six).
        return values.map(lambda number: f"{number:.15g}", na_action="ignore")
    text = values.astype("str").str.strip().str.lower()
    return text.str.replace(r"\s+", " ", regex=True)


def _place_keys(typed: pd.DataFrame) -> pd.Series:
    """``file#sheet!row`` (``file#row`` for csv), hashed when longer than the service allows."""
    if typed.empty:
        return pd.Series([], index=typed.index, dtype="str")
    files, sheets = typed["_file"].astype("str"), typed["_sheet"].astype("str")
    rows = typed["_row"].astype("int64").astype("str")
    keys = files + "#" + sheets.where(sheets == "", sheets + "!") + rows
    long = (keys.str.len() > MAX_KEY_LENGTH).to_numpy(dtype=bool)
    if long.any():
        keys[long] = keys[long].map(
            lambda key: "sha256:" + hashlib.sha256(key.encode()).hexdigest()
        )
    return keys.astype("str")


def source_hash(frame: pd.DataFrame) -> pd.Series:
    """A stable 16-hex-digit hash of each row's values, computed in C.

    Text columns are joined per row (Arrow) and hashed once; dates and numbers are hashed as
    they are; the column hashes are combined like ``pd.util.hash_pandas_object`` does.
    """
    if frame.empty:
        return pd.Series([], index=frame.index, dtype="str")
    texts = [frame[c] for c in frame.columns if is_text_dtype(frame[c])]
    others = [frame[c] for c in frame.columns if not is_text_dtype(frame[c])]
    hashes = []
    if texts:
        joined = pc.binary_join_element_wise(
            *[pa.array(t.fillna(""), type=pa.large_string()) for t in texts],
            pa.scalar("\x1f", type=pa.large_string()),
        )
        hashes.append(
            hash_array(
                np.asarray(joined.to_numpy(zero_copy_only=False), dtype=object), categorize=False
            )
        )
    for values in others:
        hashes.append(hash_array(values.to_numpy(), categorize=False))
    combined = np.zeros(len(frame), dtype="uint64")
    with np.errstate(over="ignore"):
        for column_hash in hashes:
            combined = combined * np.uint64(1000003) ^ column_hash
    digits = np.frombuffer(combined.astype(">u8").tobytes(), dtype=np.uint8).reshape(-1, 8)
    hex_bytes = pa.array(_HEX_PAIRS[digits].view("S16").ravel(), type=pa.binary(16))
    hex_text = pc.cast(pc.cast(hex_bytes, pa.binary()), pa.string()).to_pandas()
    return hex_text.set_axis(frame.index).astype("str")


_HEX_PAIRS = np.array([f"{i:02x}".encode() for i in range(256)], dtype="S2")
