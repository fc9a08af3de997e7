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
from typing import Any, Protocol

import orjson
import pandas as pd

from emissions_etl.errors import NotFoundError
from emissions_etl.resources import Readback, ResourceSpec
from emissions_etl.warehouse import REMOTE_COLUMNS

READ_THREADS = 6
#: Ids per list request when the list filters by ids (query string well under 8 KB).
IDS_PER_REQUEST = 100


class ReadApi(Protocol):
    """The client calls read-back needs."""

    def iter_items(
        self, path: str, params: Mapping[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]: ...

    def send_json(self, method: str, path: str, body: Any = None) -> Any: ...


def remote_frame(
    items: list[dict[str, Any]], spec: ResourceSpec, source_keys: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Service records as ``remote_records`` columns (the record itself kept as JSON).

    ``source_keys`` maps remote ids to source keys for records that do not echo one.
    """
    if not items:
        return pd.DataFrame({column: pd.Series(dtype=object) for column in REMOTE_COLUMNS})
    readback = spec.readback
    raw = pd.DataFrame.from_records(items)
    ids = raw["id"].astype("str")
    echoed = _column(raw, _echoed_key(spec))
    keys = ids.map(dict(source_keys or {}))
    return pd.DataFrame(
        {
            "remote_id": ids,
            "source_key": keys.where(keys.notna(), echoed),
            "activity_date": _dates(raw, readback.activity_date_field),
            "co2e_kg": pd.to_numeric(_co2e(raw, readback.co2e_field), errors="coerce"),
            "status": _column(raw, readback.status_field) if readback.status_field else "active",
            "facility_id": _column(raw, readback.facility_field),
            "remote_updated_at": pd.to_datetime(
                _column(raw, "updated_at"), utc=True, errors="coerce", format="ISO8601"
            ),
            "payload": [orjson.dumps(item, default=str).decode() for item in items],
        }
    )


def _echoed_key(spec: ResourceSpec) -> str | None:
    key_field = getattr(spec.write, "key_field", None)
    return str(key_field) if key_field else None


def _column(raw: pd.DataFrame, name: str | None) -> pd.Series:
    if name and name in raw.columns:
        return raw[name]
    return pd.Series(None, index=raw.index, dtype=object)


def _co2e(raw: pd.DataFrame, name: str) -> pd.Series:
    """The co2e field; a dotted path through a list (``periods.co2e``) sums the list's values:
    a record whose co2e is that of the sub-records it embeds (0 for an empty list)."""
    if name in raw.columns or "." not in name:
        return _column(raw, name)
    outer, inner = name.split(".", 1)
    return _column(raw, outer).map(lambda value: _sum_at(value, inner.split(".")))


def _sum_at(value: Any, parts: list[str]) -> Any:
    if isinstance(value, list):
        found = [_sum_at(item, parts) for item in value]
        return sum(float(number) for number in found if number is not None)
    if not parts:
        return value
    return _sum_at(value.get(parts[0]), parts[1:]) if isinstance(value, dict) else None


def _dates(raw: pd.DataFrame, name: str | None) -> pd.Series:
    values = _column(raw, name)
    if name and "." in name and name not in raw.columns:  # data.start_date and the like
        outer, inner = name.split(".", 1)
        values = _column(raw, outer).map(lambda d: d.get(inner) if isinstance(d, dict) else None)
    return pd.to_datetime(values, errors="coerce").dt.date


def read_records(api: ReadApi, readback: Readback, records: pd.DataFrame) -> list[dict[str, Any]]:
    """The service's current version of ``records`` (``remote_id`` and ``payload`` columns);
    records the service no longer holds are left out."""
    if records.empty:
        return []
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

        def one(remote_id: str) -> dict[str, Any] | None:
            try:
                result: dict[str, Any] = api.send_json("GET", path.format(id=remote_id))
                return result
            except NotFoundError:
                return None

        with ThreadPoolExecutor(READ_THREADS, thread_name_prefix="readback") as pool:
            found = list(pool.map(one, records["remote_id"].astype(str)))
        return [item for item in found if item is not None]
    if readback.list_path is None or readback.list_query is None:
        return []
    wanted = set(records["remote_id"].astype(str))
    path, query = readback.list_path, readback.list_query
    lists = distinct_queries(
        {"path": fill_path(path, record), "params": dict(query(record))}
        for record in map(json.loads, records["payload"])
    )
    items = fetch_concurrently(lambda q: list(api.iter_items(q["path"], q["params"])), lists)
    return [item for item in items if str(item.get("id")) in wanted]


def fill_path(template: str, fields: Mapping[str, Any]) -> str:
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


def distinct_queries(queries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for query in queries:
        seen.setdefault(json.dumps(query, sort_keys=True, default=str), dict(query))
    return list(seen.values())


def fetch_concurrently(
    fetch: Callable[[dict[str, Any]], list[dict[str, Any]]], queries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    with ThreadPoolExecutor(READ_THREADS, thread_name_prefix="readback") as pool:
        return [item for items in pool.map(fetch, queries) for item in items]
