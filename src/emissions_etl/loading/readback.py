"""Read records back from the service (ids, status, calculated co2e) as the warehouse's frame,
and read again the ones the service had not finished calculating.

A record whose status is unsettled (``pending``, ``loading``) is read again with a growing pause
until it settles or the wait ends; what is still unsettled then is read by the next run, so no
co2e stays stale in the warehouse.
"""

from __future__ import annotations

import json
import string
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypedDict, TypeVar

import orjson
import pandas as pd

from emissions_etl.client.json_types import QueryParams, json_object
from emissions_etl.errors import NotFoundError
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.resources import Readback, ResourceSpec
from emissions_etl.warehouse import REMOTE_COLUMNS

READ_THREADS = 6
#: Ids per list request when the list filters by ids (query string well under 8 KB).
IDS_PER_REQUEST = 100

Query = TypeVar("Query")


class ListQuery(TypedDict):
    """One list to read: its path (a parent's id filled in) and its query parameters."""

    path: str
    params: QueryParams


class ReadApi(Protocol):
    """The client calls read-back needs."""

    def iter_items(self, path: str, params: QueryParams | None = None) -> Iterator[JsonObject]: ...

    def send_json(self, method: str, path: str, body: object = None) -> JsonValue: ...


def remote_frame(
    items: list[JsonObject], spec: ResourceSpec, source_keys: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Service records as ``remote_records`` columns (the record itself kept as JSON).

    ``source_keys`` maps remote ids to source keys for records that do not echo one.
    """
    if not items:
        return pd.DataFrame({column: pd.Series(dtype=object) for column in REMOTE_COLUMNS})
    readback = spec.readback
    # Only the fields the warehouse keeps are taken out, item by item (a frame of every field
    # of 200,000 records took seconds); the record itself is kept whole as JSON.
    ids = pd.Series([str(item.get("id")) for item in items], dtype="str")
    echoed = pd.Series(_values(items, _echoed_key(spec)), dtype=object)
    keys = ids.map(dict(source_keys or {}))
    statuses = _values(items, readback.status_field) if readback.status_field else "active"
    return pd.DataFrame(
        {
            "remote_id": ids,
            "source_key": keys.where(keys.notna(), echoed),
            "activity_date": pd.to_datetime(
                pd.Series(_values(items, readback.activity_date_field), dtype=object),
                errors="coerce",
            ).dt.date,
            "co2e_kg": pd.to_numeric(
                pd.Series(_values(items, readback.co2e_field, summed=True), dtype=object),
                errors="coerce",
            ),
            "status": statuses,
            "facility_id": _values(items, readback.facility_field),
            "remote_updated_at": pd.to_datetime(
                pd.Series(_values(items, "updated_at"), dtype=object),
                utc=True,
                errors="coerce",
                format="ISO8601",
            ),
            "payload": [orjson.dumps(item, default=str).decode() for item in items],
        }
    )


def _echoed_key(spec: ResourceSpec) -> str | None:
    key_field = getattr(spec.write, "key_field", None)
    return str(key_field) if key_field else None


def _values(items: list[JsonObject], name: str | None, *, summed: bool = False) -> list[JsonValue]:
    """Each item's field ``name``; a dotted name walks nested objects (``data.start_date``), and
    with ``summed`` through lists too, summing what it finds (``periods.co2e``: a record whose
    co2e is that of the sub-records it embeds, 0 for an empty list)."""
    if not name:
        return [None] * len(items)
    if "." not in name:
        return [item.get(name) for item in items]
    parts = name.split(".")
    return [item[name] if name in item else _at(item, parts, summed) for item in items]


def _at(value: JsonValue, parts: list[str], summed: bool) -> JsonValue:
    if isinstance(value, list):
        if not summed:
            return None
        found = [_at(item, parts, summed) for item in value]
        return sum(float(number) for number in found if isinstance(number, int | float | str))
    if not parts:
        return value
    return _at(value.get(parts[0]), parts[1:], summed) if isinstance(value, dict) else None


def read_records(api: ReadApi, readback: Readback, records: pd.DataFrame) -> list[JsonObject]:
    """The service's current version of ``records`` (``remote_id`` and ``payload`` columns);
    records the service no longer holds are left out."""
    if records.empty:
        return []
    if readback.range_query is not None and readback.list_path is not None:
        wanted = set(records["remote_id"].astype(str))
        covering = readback.range_query([json.loads(payload) for payload in records["payload"]])
        listed = api.iter_items(readback.list_path, covering)  # later pages several at once
        return [item for item in listed if str(item.get("id")) in wanted]
    if readback.ids_param is not None and readback.list_path is not None:
        ids = records["remote_id"].astype(str).tolist()
        batches = [
            {str(readback.ids_param): ids[start : start + IDS_PER_REQUEST]}
            for start in range(0, len(ids), IDS_PER_REQUEST)
        ]
        return fetch_concurrently(
            lambda q: list(api.iter_items(str(readback.list_path), q)), batches
        )
    if readback.get_path is not None:
        path = readback.get_path

        def one(remote_id: str) -> JsonObject | None:
            where = path.format(id=remote_id)
            try:
                found = api.send_json("GET", where)
            except NotFoundError:
                return None
            return None if found is None else json_object(found, f"GET {where}")

        with ThreadPoolExecutor(READ_THREADS, thread_name_prefix="readback") as pool:
            found = list(pool.map(one, records["remote_id"].astype(str)))
        return [item for item in found if item is not None]
    if readback.list_path is None or readback.list_query is None:
        return []
    wanted = set(records["remote_id"].astype(str))
    path, query = readback.list_path, readback.list_query
    lists = distinct_queries(
        ListQuery(path=fill_path(path, record), params=dict(query(record)))
        for record in map(json.loads, records["payload"])
    )
    items = fetch_concurrently(lambda q: list(api.iter_items(q["path"], q["params"])), lists)
    return [item for item in items if str(item.get("id")) in wanted]


def fill_path(template: str, fields: Mapping[str, object]) -> str:
    """``template`` with its ``{field}`` parts taken from ``fields`` (a record's parent id in
    ``/v1/vehicles/{vehicle_id}/consumptions``)."""
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    return template.format(**{name: fields.get(name, "") for name in names})


def settle(
    api: ReadApi,
    spec: ResourceSpec,
    remote: pd.DataFrame,
    *,
    wait_seconds: float,
    sleep: Callable[[float], None] = time.sleep,
) -> pd.DataFrame:
    """``remote`` with unsettled records read again until they settle or ``wait_seconds`` end."""
    unsettled = spec.readback.unsettled
    deadline = time.monotonic() + wait_seconds
    pause = 0.2
    while True:
        pending = remote[remote["status"].isin(unsettled)]
        if pending.empty or time.monotonic() + pause > deadline:
            return remote
        sleep(pause)
        pause = min(pause * 2, 5.0)
        keys = dict(zip(pending["remote_id"], pending["source_key"], strict=True))
        fresh = remote_frame(read_records(api, spec.readback, pending), spec, keys)
        remote = pd.concat([remote[~remote["remote_id"].isin(fresh["remote_id"])], fresh])
        remote = remote.reset_index(drop=True)


def distinct_queries(queries: Iterable[ListQuery]) -> list[ListQuery]:
    seen: dict[str, ListQuery] = {}
    for query in queries:
        seen.setdefault(json.dumps(query, sort_keys=True, default=str), query)
    return list(seen.values())


def fetch_concurrently(
    fetch: Callable[[Query], list[JsonObject]], queries: list[Query]
) -> list[JsonObject]:
    with ThreadPoolExecutor(READ_THREADS, thread_name_prefix="readback") as pool:
        return [item for items in pool.map(fetch, queries) for item in items]
