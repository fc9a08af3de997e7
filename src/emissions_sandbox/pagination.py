"""The interface's Page wrapper: `items, total, page, size, pages` (interface: Page wrappers)."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import Query

MAX_PAGE_SIZE = 100  # interface: Limits, page size max 100


class PageParams:
    """`page` (default 1) and `size` (default 50, at most 100) query parameters."""

    def __init__(
        self,
        page: int = Query(1, ge=1, le=1_000_000),
        size: int = Query(50, ge=1, le=MAX_PAGE_SIZE),
    ) -> None:
        self.page = page
        self.size = size


def select_page(
    conn: sqlite3.Connection,
    *,
    table: str,
    where: Sequence[str],
    params: Sequence[Any],
    order_by: str,
    paging: PageParams,
    to_wire: Callable[[sqlite3.Row], dict[str, Any]],
    columns: str = "*",
) -> dict[str, Any]:
    clause = " WHERE " + " AND ".join(where) if where else ""
    total = conn.execute(f"SELECT COUNT(*) FROM {table}{clause}", params).fetchone()[0]
    rows = conn.execute(
        f"SELECT {columns} FROM {table}{clause} ORDER BY {order_by} LIMIT ? OFFSET ?",
        [*params, paging.size, (paging.page - 1) * paging.size],
    ).fetchall()
    return {
        "items": [to_wire(r) for r in rows],
        "total": total,
        "page": paging.page,
        "size": paging.size,
        "pages": math.ceil(total / paging.size),
    }


def in_clause(column: str, values: Sequence[Any]) -> str:
    return f"{column} IN ({','.join('?' * len(values))})"
