"""Paging of every list: the `page` and `size` query parameters and one SELECT of a page.

Two wire forms (interface: Page wrappers): the Page `{items, total, page, size, pages}`, and
the logistics pages without `pages` (facts §4.4, §4.5). Lists default to 50 records a page;
the logistics lists to 10 (interface: Limits; facts §4.4, §4.5, §9.3).

A page whose items are already in their model's wire form is sent as `page_response`.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import orjson
from fastapi import Query, Response

MAX_PAGE_SIZE = 100  # interface: Limits, page size max 100
MAX_PAGE = 1_000_000  # bounds the OFFSET: a larger page number would overflow SQLite's integer

PageNumber = Annotated[int, Query(ge=1, le=MAX_PAGE)]
PageSize = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)]


class PageParams:
    """The `page` and `size` a list was asked for; routes take it as `Depends(page_params)`."""

    def __init__(self, page: int, size: int) -> None:
        self.page = page
        self.size = size

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size


# The paging dependencies are coroutines: FastAPI runs a class or a plain function dependency on
# its thread pool, and that hop (for two integers) was about a seventh of a page read's CPU.
async def page_params(page: PageNumber = 1, size: PageSize = 50) -> PageParams:
    """`page` (default 1) and `size` (default 50, at most 100) query parameters."""
    return PageParams(page, size)


async def small_page_params(page: PageNumber = 1, size: PageSize = 10) -> PageParams:
    """The logistics lists' paging: `size` defaults to 10."""
    return PageParams(page, size)


def select_page(
    conn: sqlite3.Connection,
    *,
    table: str,
    where: Sequence[str],
    params: Sequence[Any],
    paging: PageParams,
    to_wire: Callable[[sqlite3.Row], dict[str, Any]],
    columns: str = "*",
    order_by: str = "created_at, id",
    with_pages: bool = True,
) -> dict[str, Any]:
    """A page of `SELECT columns FROM table WHERE ...`; `with_pages=False` for the logistics
    form, which has no `pages`."""
    clause = " WHERE " + " AND ".join(where) if where else ""
    total = int(conn.execute(f"SELECT COUNT(*) FROM {table}{clause}", params).fetchone()[0])
    rows = conn.execute(
        f"SELECT {columns} FROM {table}{clause} ORDER BY {order_by} LIMIT ? OFFSET ?",
        [*params, paging.size, paging.offset],
    ).fetchall()
    page: dict[str, Any] = {
        "items": [to_wire(row) for row in rows],
        "total": total,
        "page": paging.page,
        "size": paging.size,
    }
    if with_pages:
        page["pages"] = math.ceil(total / paging.size)
    return page


def page_response(page: dict[str, Any]) -> Response:
    """The page encoded once, for a route whose `to_wire` yields exactly its response model's
    wire form (same keys in the model's order, same JSON types). FastAPI would validate every
    item against `response_model` and serialise it again (most of a page's cost); the route
    keeps `response_model=` for the OpenAPI document. orjson writes the bytes pydantic writes
    (compact, UTF-8, a non-finite float as null), so the answer is unchanged."""
    return Response(orjson.dumps(page), media_type="application/json")


def in_clause(column: str, values: Sequence[Any]) -> str:
    return f"{column} IN ({','.join('?' * len(values))})"
