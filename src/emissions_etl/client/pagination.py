"""Iterate the items of a paged list, for both page wrappers of the interface.

Page: ``items, total, page, size, pages``; Package page: the same without ``pages``
(interface: Page wrappers). Pages are read one after another, page 1 first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from emissions_etl.client.json_types import QueryParams, json_objects
from emissions_etl.json_values import JsonObject

#: The largest page the service serves (interface: Limits).
MAX_PAGE_SIZE = 100


class JsonGetter(Protocol):
    """Anything that GETs a path with query parameters and returns the decoded JSON object."""

    def get_json(self, path: str, params: QueryParams | None = None) -> JsonObject: ...


def iter_pages(
    client: JsonGetter,
    path: str,
    params: QueryParams | None = None,
    *,
    size: int = 100,
    start_page: int = 1,
) -> Iterator[JsonObject]:
    """Yield every item of the list at ``path``, following pages until the last one."""
    query = {key: value for key, value in (params or {}).items() if value is not None}
    page = start_page
    while True:
        body = client.get_json(path, {**query, "page": page, "size": min(size, MAX_PAGE_SIZE)})
        items = json_objects(body.get("items") or [], f"GET {path}: its items")
        yield from items
        if not items or is_last_page(body, page):
            return
        page += 1


def is_last_page(body: JsonObject, page: int) -> bool:
    pages = page_count(body, "pages")
    if pages is not None:
        return page >= pages
    # Package page: no ``pages``; the served size may differ from the requested one.
    items = body.get("items")
    served_size = page_count(body, "size") or (len(items) if isinstance(items, list) else 0)
    return page * served_size >= (page_count(body, "total") or 0)


def page_count(body: JsonObject, name: str) -> int | None:
    """A page's count ``name`` (``pages``, ``size``, ``total``), None when it has none."""
    value = body.get(name)
    if value is None or isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    return int(value)
