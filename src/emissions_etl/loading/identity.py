"""What makes a record the same record: a row's payload and a record the service lists,
compared as the service stores them (text trimmed and case-blind, numbers by value, dates ISO),
by identity (``Finding.identity`` or its match fields) and field by field."""

from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.resources import Finding


def pair_by_identity(
    finding: Finding, payloads: Sequence[Mapping[str, JsonValue]], items: Sequence[JsonObject]
) -> dict[int, JsonObject]:
    """Row position -> the record it is: the n-th row of an identity takes the n-th record of
    it (records in the order the service lists them), each record at most once."""
    pairs: dict[int, JsonObject] = {}
    taken: set[str] = set()
    index: dict[tuple[str, ...], dict[Hashable, deque[JsonObject]]] = {}
    for position, payload in enumerate(payloads):
        fields = _compared(finding, payload)
        if fields not in index:
            index[fields] = defaultdict(deque)
            for item in items:
                index[fields][_identity_of_item(finding, item, fields)].append(item)
        waiting = index[fields].get(_identity_of_payload(finding, payload, fields))
        while waiting:
            item = waiting.popleft()
            if str(item.get("id")) not in taken:
                taken.add(str(item.get("id")))
                pairs[position] = dict(item)
                break
    return pairs


def same_record(
    record_fields: Sequence[str], finding: Finding, row: pd.Series, item: Mapping[str, object]
) -> bool:
    """Whether the record the service holds says what the row says: every field of the row's
    record, an empty one included (an emptied cell is a difference to clear), except those
    the service fills in when they are left out."""
    for name in record_fields:
        if name not in row.index or name in finding.not_returned:
            continue
        value = row[name]
        sent = None if _missing(value) else value
        if sent is None and name in finding.compared_when_sent:
            continue
        held = lookup(item, finding.item_paths.get(name, name))
        if normalised(sent) != normalised(held):
            return False
    return True


def lookup(item: Mapping[str, object], path: str) -> object:
    """A field of a listed item, by dotted path (``data.custom_id``)."""
    value: object = item
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def normalised(value: object) -> Hashable:
    """A value as the service would store it, comparable and hashable: text trimmed, spaces
    joined and case-blind; numbers by value (12 significant digits); dates ISO; empty text and
    empty lists as nothing."""
    if value is None or _missing(value):
        return None
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | float | np.integer | np.floating):
        return float(f"{float(value):.12g}")
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, list | tuple | np.ndarray):
        return tuple(normalised(part) for part in value) or None
    text = " ".join(str(value).split()).lower()
    return text or None


def _missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and math.isnan(value)


def _compared(finding: Finding, payload: Mapping[str, JsonValue]) -> tuple[str, ...]:
    return tuple(
        name
        for name in finding.match_fields
        if name in payload or name not in finding.compared_when_sent
    )


def _identity_of_payload(
    finding: Finding, payload: Mapping[str, JsonValue], fields: tuple[str, ...]
) -> Hashable:
    if finding.identity is not None:
        return finding.identity(payload)
    return tuple(normalised(payload.get(name)) for name in fields)


def _identity_of_item(
    finding: Finding, item: Mapping[str, JsonValue], fields: tuple[str, ...]
) -> Hashable:
    if finding.identity is not None:
        return finding.identity(item)
    return tuple(normalised(lookup(item, finding.item_paths.get(name, name))) for name in fields)
