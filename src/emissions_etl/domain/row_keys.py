"""Each source row's identity (``source_key``) and content fingerprint (``source_hash``).

A row's identity is its key or its content, never its place. The key is the interface's where
there is one (a name, a plate, an e-mail, a movement and stretch, a recharge's upsert key) or
the row's own ``client_row_id``; a row without one is identified by its content within its
**source** (the data set a file is a version of: ``--source``, default the file's name):
``<source>#<content hash>#<n>``, the n-th row of that content in the source. A row inserted
above, a file renamed under the same source or a sheet moved keeps every other row's key; two
identical rows stay two records.

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
    without a natural key, ``client_row_id`` where given; missing (NA) for rows identified by
    their content (``ContentKeys`` numbers those once their hash is known).

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
        return typed[ROW_ID_COLUMN].astype("str")
    return pd.Series(pd.NA, index=typed.index, dtype="str")


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
        days: pd.Series = values.dt.strftime("%Y-%m-%d")
        return days
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        # 15 significant digits: 1234.567 and 1234.568 stay apart (``:g`` keeps six).
        return values.map(lambda number: f"{number:.15g}", na_action="ignore")
    text = values.astype("str").str.strip().str.lower()
    return text.str.replace(r"\s+", " ", regex=True)


def key_text(value: object) -> str:
    """One value as ``row_keys`` writes it in a key (text trimmed, lower-cased, spaces joined):
    what the service holds, keyed as a row would be."""
    return " ".join(str(value).split()).lower()


class ContentKeys:
    """Keys of the rows a source identifies by their content, numbered across a whole file:
    the n-th row of a content in ``source`` is ``<source>#<hash>#<n>``.

    One instance per load of a file (its batches share the count), so a version of the file
    with rows inserted above, or in another order, gives every old row its old key. The count
    is kept by digest, in sorted arrays, and a batch is numbered in bulk rather than a row at a
    time, as the key is defined (a test in tests/test_validation.py holds the two equal).
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self._digests = np.empty(0, dtype="uint64")  # sorted: each content seen so far
        self._counts = np.empty(0, dtype="int64")  # its rows so far

    def fill(self, keys: pd.Series, digests: np.ndarray) -> pd.Series:
        """``keys`` (text) with the missing ones made from the rows' ``digests``
        (``row_digests``, in the order of ``keys``)."""
        lacking = keys.isna().to_numpy()
        if not lacking.any():
            return keys
        made = _content_keys(self.source, digests[lacking], self._numbered(digests[lacking]))
        if not lacking.all():
            given = pa.array(keys, type=pa.string(), from_pandas=True)
            made = pc.replace_with_mask(given, pa.array(lacking), made)
        filled: pd.Series = made.to_pandas(types_mapper=_TEXT.get).set_axis(keys.index)
        return filled

    def _numbered(self, digests: np.ndarray) -> np.ndarray:
        """Each row's n (from 1): the rows of its content before it, in this batch and in the
        batches before, plus one."""
        order = np.argsort(digests, kind="stable")  # a content's rows together, in file order
        ordered = digests[order]
        starts = np.ones(len(ordered), dtype=bool)
        starts[1:] = ordered[1:] != ordered[:-1]
        first = np.flatnonzero(starts)  # where each content's rows start in ``ordered``
        content = np.cumsum(starts) - 1  # each ordered row's content
        contents = ordered[first]
        rows = np.diff(first, append=len(ordered))
        at = np.searchsorted(self._digests, contents)
        seen = at < len(self._digests)
        seen[seen] = self._digests[at[seen]] == contents[seen]
        earlier = np.zeros(len(contents), dtype="int64")
        earlier[seen] = self._counts[at[seen]]
        self._counts[at[seen]] += rows[seen]
        self._digests = np.insert(self._digests, at[~seen], contents[~seen])
        self._counts = np.insert(self._counts, at[~seen], rows[~seen])
        numbered = np.empty(len(digests), dtype="int64")
        numbered[order] = earlier[content] + np.arange(len(ordered)) - first[content] + 1
        return numbered


def content_key(source: str, digest: str, nth: int) -> str:
    """``<source>#<digest>#<nth>``, hashed when longer than the service echoes."""
    return echoable(f"{source}#{digest}#{nth}")


def echoable(key: str) -> str:
    """``key``, or its SHA-256 when longer than the service echoes (``MAX_KEY_LENGTH``)."""
    if len(key) > MAX_KEY_LENGTH:
        return "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


def _content_keys(source: str, digests: np.ndarray, nth: np.ndarray) -> pa.Array:
    """``content_key`` of each row, built by Arrow."""
    keys = pc.binary_join_element_wise(
        pa.scalar(source), _hex(digests), pc.cast(pa.array(nth), pa.string()), "#"
    )
    too_long = pc.greater(pc.utf8_length(keys), MAX_KEY_LENGTH).to_numpy(zero_copy_only=False)
    if not too_long.any():
        return keys
    return pa.array([echoable(key) for key in keys.to_pylist()], type=pa.string())


def source_of_key(key: str) -> str | None:
    """The source named in a content key (None for other keys, or a hashed one)."""
    parts = key.rsplit("#", 2)
    if len(parts) == 3 and len(parts[1]) == 16 and parts[2].isdigit():
        return parts[0]
    return None


def hex_digests(digests: np.ndarray, index: pd.Index) -> pd.Series:
    """``digests`` as 16 hex digits each, on ``index``: a row's ``source_hash``, stored in every
    warehouse (another spelling would make every row look changed)."""
    hexes: pd.Series = _hex(digests).to_pandas(types_mapper=_TEXT.get).set_axis(index)
    return hexes


def row_digests(frame: pd.DataFrame) -> np.ndarray:
    """Each row's 64-bit hash of its values, computed in C.

    Text columns are joined per row (Arrow) and hashed once; dates and numbers are hashed as
    they are; the column hashes are combined like ``pd.util.hash_pandas_object`` does.
    """
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
    return combined


def _hex(digests: np.ndarray) -> pa.Array:
    """Each digest as 16 hex digits (Arrow text)."""
    digits = np.frombuffer(digests.astype(">u8").tobytes(), dtype=np.uint8).reshape(-1, 8)
    hex_bytes = pa.array(_HEX_PAIRS[digits].view("S16").ravel(), type=pa.binary(16))
    return pc.cast(pc.cast(hex_bytes, pa.binary()), pa.string())


#: Arrow text as pandas' default text dtype (``str``), as ``row_keys`` gives keys.
_TEXT = {pa.string(): pd.api.types.pandas_dtype("str")}
_HEX_PAIRS = np.array([f"{i:02x}".encode() for i in range(256)], dtype="S2")
