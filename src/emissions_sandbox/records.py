"""Rows of the tables an organization owns (vehicles, purchases, employees, business travels):
read one only within the caller's organization, insert one, update some columns. One place,
so every resource scopes by `organization_id` and stamps `created_at`/`updated_at` alike.

`table` and column names come from the callers' constants, never from a request.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError


def get_owned(
    conn: sqlite3.Connection, table: str, row_id: str, organization_id: str
) -> sqlite3.Row | None:
    """The row, if it belongs to the organization (interface: rule 1)."""
    row: sqlite3.Row | None = conn.execute(
        f"SELECT * FROM {table} WHERE id = ? AND organization_id = ?", (row_id, organization_id)
    ).fetchone()
    return row


def owned_or_404(
    conn: sqlite3.Connection,
    table: str,
    row_id: str,
    organization_id: str,
    not_found: Callable[[str], ServiceError],
) -> sqlite3.Row:
    """The row, if it belongs to the organization; else the resource's 404."""
    row = get_owned(conn, table, row_id, organization_id)
    if row is None:
        raise not_found(row_id)
    return row


def insert_owned(
    conn: sqlite3.Connection,
    table: str,
    organization_id: str,
    user_id: str,
    columns: Sequence[str],
    fields: dict[str, Any],
) -> str:
    """Insert a row of `fields[column]` for `columns`, created by `user_id`; its new id."""
    row_id, now = str(uuid.uuid4()), utc_now()
    conn.execute(
        f"INSERT INTO {table} (id, organization_id, created_by, {', '.join(columns)}, "
        f"created_at, updated_at) VALUES ({', '.join('?' * (len(columns) + 5))})",
        [row_id, organization_id, user_id, *(fields[c] for c in columns), now, now],
    )
    return row_id


def update_columns(
    conn: sqlite3.Connection, table: str, row_id: str, changes: dict[str, Any]
) -> None:
    """Set `changes` (column → value) and `updated_at`."""
    changes = {**changes, "updated_at": utc_now()}
    assignments = ", ".join(f"{column} = ?" for column in changes)
    conn.execute(f"UPDATE {table} SET {assignments} WHERE id = ?", [*changes.values(), row_id])
