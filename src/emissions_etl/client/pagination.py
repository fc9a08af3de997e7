"""Iterate the items of a paged list, for both page wrappers of the interface.

Page: ``items, total, page, size, pages``; Package page: the same without ``pages``
(interface: Page wrappers). Pages are read one after another, page 1 first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

#: The largest page the service serves (interface: Limits).
MAX_PAGE_SIZE = 100


class JsonGetter(Protocol):
    """Anything that GETs a path with query parameters and returns the decoded JSON object."""

    def get_json(self, path: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]: ...


def iter_pages(
    client: JsonGetter,
    path: str,
    params: Mapping[str, Any] | None = None,
    *,
    size: int = 100,
    start_page: int = 1,
) -> Iterator[dict[str, Any]]:
    """Yield every item of the list at ``path``, following pages until the last one."""
    query = {key: value for key, value in (params or {}).items() if value is not None}
    page = start_page
    while True:
        body = client.get_json(path, {**query, "page": page, "size": min(size, MAX_PAGE_SIZE)})
        items = body.get("items") or []
        yield from items
        if not items or is_last_page(body, page):
            return
        page += 1


def is_last_page(body: Mapping[str, Any], page: int) -> bool:
    if body.get("pages") is not None:
        return page >= int(body["pages"])
    # Package page: no ``pages``; the served size may differ from the requested one.
    served_size = int(body.get("size") or len(body.get("items") or ()))
    return page * served_size >= int(body.get("total") or 0)
