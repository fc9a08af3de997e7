"""Read records back from the service (ids, status, calculated co2e) as a frame for the warehouse.

Pages are capped at 100 items (interface: Limits), so a large load reads thousands of pages;
after the first page says how many there are, the rest are fetched by a few threads at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pandas as pd

from emissions_etl.resources import ResourceSpec
from emissions_etl.warehouse import REMOTE_COLUMNS

PAGE_SIZE = 100
READ_THREADS = 4


#: One GET returning a parsed Page wrapper (the client's ``get_json``).
GetJson = Callable[[str, Mapping[str, Any]], dict[str, Any]]


def iter_all_items(get_json: GetJson, path: str, params: Mapping[str, Any]) -> Iterator[dict]:
    """Every item of a Page-wrapped list, pages 2..n fetched concurrently, in page order."""
    first = get_json(path, {**params, "page": 1, "size": PAGE_SIZE})
    yield from first["items"]
    pages = int(first.get("pages") or 0)
    if pages <= 1:
        return

    def fetch(page: int) -> list[dict]:
        return list(get_json(path, {**params, "page": page, "size": PAGE_SIZE})["items"])

    with ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="readback") as pool:
        for items in pool.map(fetch, range(2, pages + 1)):
            yield from items


def remote_frame(items: list[dict], spec: ResourceSpec) -> pd.DataFrame:
    """Service records as the warehouse's ``remote_records`` columns (payload kept as JSON)."""
    if not items:
        return pd.DataFrame({column: pd.Series(dtype=object) for column in REMOTE_COLUMNS})
    raw = pd.DataFrame.from_records(items)
    for column in (spec.key_field, "co2e", "status", "facility_id", "updated_at"):
        if column not in raw.columns:
            raw[column] = None
    frame = pd.DataFrame(
        {
            "remote_id": raw["id"].astype(str),
            "source_key": raw[spec.key_field],
            "activity_date": pd.to_datetime(raw[spec.activity_date_field]).dt.date,
            "co2e_kg": pd.to_numeric(raw["co2e"], errors="coerce"),
            "status": raw["status"],
            "facility_id": raw["facility_id"],
            "remote_updated_at": pd.to_datetime(raw["updated_at"], utc=True, errors="coerce"),
            "payload": [json.dumps(item, sort_keys=True) for item in items],
        }
    )
    return frame
