"""Rows as the API records a writer sends, and as the JSON a pending mark keeps of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import orjson
import pandas as pd

from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.resources import ResourceSpec


def to_payload(
    chunk: pd.DataFrame, spec: ResourceSpec, *, with_nulls: bool = False
) -> list[JsonObject]:
    """Chunk rows as API records: dates as ISO strings, missing optional fields left out (sent
    as null ``with_nulls``: an update clears what a new version of the row left empty), plain
    Python values. Built column by column: rows sharing which fields are missing share one key
    list, so no per-cell Python work is done."""
    fields = [name for name in spec.record_fields if name in chunk.columns]
    if chunk.empty or not fields:
        return [{} for _ in range(len(chunk))]
    values: dict[str, list[JsonValue]] = {}
    missing = np.zeros((len(chunk), len(fields)), dtype=bool)
    for position, name in enumerate(fields):
        column = chunk[name]
        if name in spec.date_fields:
            column = pd.to_datetime(column).dt.strftime("%Y-%m-%d")
        missing[:, position] = column.isna().to_numpy()
        values[name] = column.tolist()
    records: list[JsonObject] = [{}] * len(chunk)
    if with_nulls:
        missing[:] = False
        values = {
            name: [None if _is_missing(v) else v for v in column] for name, column in values.items()
        }
    codes = missing @ (1 << np.arange(len(fields), dtype=np.int64))  # one int per pattern
    for code in np.unique(codes).tolist():
        keep = [name for bit, name in enumerate(fields) if not code >> bit & 1]
        rows = np.flatnonzero(codes == code).tolist()
        if len(rows) == len(chunk):
            columns = [values[name] for name in keep]
        else:
            columns = [[values[name][row] for row in rows] for name in keep]
        for row, record in zip(rows, zip(*columns, strict=True), strict=True):
            records[row] = dict(zip(keep, record, strict=True))
        if not keep:
            for row in rows:
                records[row] = {}
    return records


def _is_missing(value: object) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))


def payload_json(payloads: Sequence[Mapping[str, JsonValue]]) -> list[str]:
    """Each payload as compact JSON with sorted keys (stored with a pending write)."""
    return [orjson.dumps(p, option=orjson.OPT_SORT_KEYS, default=str).decode() for p in payloads]
