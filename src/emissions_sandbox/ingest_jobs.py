"""Ingest jobs and their items: creation in the caller's transaction, and their wire form
(interface: Ingest job, Ingest job item)."""

from __future__ import annotations

import json
import math
import sqlite3
import uuid
from collections.abc import Sequence
from typing import Any, NamedTuple

from emissions_sandbox.clock import utc_now

ENTITY_TYPE = "waste"
SOURCE_API_BULK = "api_bulk"
FINAL_STATUSES = ("completed", "completed_with_errors", "failed")


class NewItem(NamedTuple):
    """One submitted record: its position, its client id and the entity it concerns (a tuple:
    a POST makes 5,000 of them, and a frozen dataclass costs several times more to build)."""

    source_row_index: int
    client_row_id: str | None
    entity_id: str | None


def create_job(
    conn: sqlite3.Connection,
    *,
    organization_id: str,
    user_id: str,
    operation: str,
    stage: str,
    items: Sequence[NewItem],
    chunk_size: int,
    job_id: str | None = None,
) -> str:
    """Insert a `processing` job and one `pending` item per record; the worker does the rest."""
    job_id = job_id or str(uuid.uuid4())
    conn.execute(
        """INSERT INTO ingest_jobs (id, organization_id, created_by, entity_type, operation,
        source, status, submitted, chunks_total, created_at)
        VALUES (?, ?, ?, ?, ?, ?, 'processing', ?, ?, ?)""",
        (
            job_id,
            organization_id,
            user_id,
            ENTITY_TYPE,
            operation,
            SOURCE_API_BULK,
            len(items),
            math.ceil(len(items) / chunk_size),
            utc_now(),
        ),
    )
    conn.executemany(
        """INSERT INTO ingest_job_items (job_id, source_row_index, client_row_id, chunk_index,
        stage, status, entity_id) VALUES (?, ?, ?, ?, ?, 'pending', ?)""",
        [
            (
                job_id,
                item.source_row_index,
                item.client_row_id,
                item.source_row_index // chunk_size,
                stage,
                item.entity_id,
            )
            for item in items
        ],
    )
    return job_id


def job_path(job_id: str) -> str:
    return f"/v2/ingest-jobs/{job_id}"


def job_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "status": row["status"],
        "entity_type": row["entity_type"],
        "operation": row["operation"],
        "source": row["source"],
        "counts": {
            "submitted": row["submitted"],
            "succeeded": row["succeeded"],
            "failed": row["failed"],
        },
        "chunks_total": row["chunks_total"],
        "chunks_done": row["chunks_done"],
        "created_at": row["created_at"],
        "finished_at": row["finished_at"],
        "links": {"self": job_path(row["id"]), "items": job_path(row["id"]) + "/items"},
    }


def item_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "source_row_index": row["source_row_index"],
        "client_row_id": row["client_row_id"],
        "chunk_index": row["chunk_index"],
        "stage": row["stage"],
        "status": row["status"],
        "entity_id": row["entity_id"],
        "error_code": row["error_code"],
        "error_params": json.loads(row["error_params"]) if row["error_params"] else None,
        "attempt_count": row["attempt_count"],
    }


def read_job(conn: sqlite3.Connection, organization_id: str, job_id: str) -> dict | None:
    row = conn.execute(
        "SELECT * FROM ingest_jobs WHERE id = ? AND organization_id = ?", (job_id, organization_id)
    ).fetchone()
    return job_to_wire(row) if row else None
