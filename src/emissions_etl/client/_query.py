"""Query-string helpers: repeatable list filters split so that every URL stays under 8 KB."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from urllib.parse import quote

#: Bytes of repeated ``name=value`` pairs per request; leaves room for the path and other filters
#: under the 8 KB request-line limit most servers and proxies apply.
QUERY_BUDGET = 6000


def chunk_values(
    name: str, values: Sequence[str], budget: int = QUERY_BUDGET
) -> Iterator[list[str]]:
    """Split ``values`` into runs whose encoded ``&name=value`` pairs fit in ``budget`` bytes."""
    chunk: list[str] = []
    used = 0
    for value in values:
        cost = len(name) + len(quote(str(value), safe="")) + 2
        if chunk and used + cost > budget:
            yield chunk
            chunk, used = [], 0
        chunk.append(value)
        used += cost
    if chunk:
        yield chunk


def timestamp(value: str | dt.date | dt.datetime | None) -> str | None:
    """An ISO 8601 query value (dates as ``YYYY-MM-DD``, datetimes as given, naive means UTC)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.isoformat()
