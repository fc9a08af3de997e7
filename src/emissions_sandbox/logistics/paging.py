"""Paging of the logistics lists: `page` (default 1) and `size` (default 10, 1 to 100), the
defaults of packages, recharges, requests and hubs (interface: Limits; facts §4.4, §4.5, §9.3)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import Query

from emissions_sandbox.pagination import MAX_PAGE_SIZE


class SmallPageParams:
    def __init__(
        self,
        page: int = Query(1, ge=1, le=1_000_000),
        size: int = Query(10, ge=1, le=MAX_PAGE_SIZE),
    ) -> None:
        self.page = page
        self.size = size


def fetch_page(
    conn: sqlite3.Connection,
    *,
    table: str,
    where: Sequence[str],
    params: Sequence[Any],
    paging: SmallPageParams,
    to_wire: Callable[[sqlite3.Row], dict[str, Any]],
    columns: str = "*",
    order_by: str = "created_at, id",
) -> tuple[list[dict[str, Any]], int]:
    """(items of the page, total matching) for `SELECT columns FROM table WHERE ...`."""
    clause = " WHERE " + " AND ".join(where) if where else ""
    total = conn.execute(f"SELECT COUNT(*) FROM {table}{clause}", params).fetchone()[0]
    rows = conn.execute(
        f"SELECT {columns} FROM {table}{clause} ORDER BY {order_by} LIMIT ? OFFSET ?",
        [*params, paging.size, (paging.page - 1) * paging.size],
    ).fetchall()
    return [to_wire(row) for row in rows], int(total)
