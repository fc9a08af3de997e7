"""The background worker that calculates (or deletes) the records of ingest jobs chunk by chunk.

State lives in the database, so a restarted server resumes every `processing` job. A chunk that
raises is retried; after MAX_CHUNK_ATTEMPTS the job ends `failed` (README: decisions).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from emissions_sandbox.background import BackgroundWorker
from emissions_sandbox.clock import utc_now
from emissions_sandbox.db import Database
from emissions_sandbox.ingest_jobs import read_job
from emissions_sandbox.settings import SandboxSettings
from emissions_sandbox.waste_calculation import FactorCache, calculate_waste

log = logging.getLogger(__name__)
MAX_CHUNK_ATTEMPTS = 3


class CalculationWorker(BackgroundWorker):
    """A daemon thread: picks the oldest unfinished job and processes its next chunk."""

    thread_name = "calculation-worker"

    def __init__(self, db: Database, settings: SandboxSettings) -> None:
        super().__init__()
        self._db = db
        self._settings = settings
        self._factors = FactorCache()

    def _run(self) -> None:
        while not self._stop.is_set():
            job = self._next_job()
            if job is None:
                self._wake.wait(self._settings.worker_poll_seconds * 20)
                self._wake.clear()
                continue
            if self._settings.calc_delay:
                self._stop.wait(self._settings.calc_delay)
                if self._stop.is_set():
                    return
            self._process_next_chunk(job)

    def _next_job(self) -> sqlite3.Row | None:
        conn = self._db.reader()
        row: sqlite3.Row | None = conn.execute(
            "SELECT * FROM ingest_jobs WHERE status = 'processing' ORDER BY created_at, id LIMIT 1"
        ).fetchone()
        return row

    def _process_next_chunk(self, job: sqlite3.Row) -> None:
        try:
            with self._db.transaction() as conn:
                finished = self._chunk(conn, job)
        except Exception:
            log.exception("chunk %s of job %s failed", job["chunks_done"], job["id"])
            finished = self._record_failed_attempt(job)
        if finished:
            self._announce(job)

    def _chunk(self, conn: sqlite3.Connection, job: sqlite3.Row) -> bool:
        chunk_index = job["chunks_done"]
        if job["operation"] == "delete":
            succeeded, failed = _delete_chunk(conn, job["id"], job["organization_id"], chunk_index)
        else:
            succeeded, failed = _calculate_chunk(conn, job["id"], chunk_index, self._factors)
        done = chunk_index + 1
        finished = done >= job["chunks_total"]
        total_failed = job["failed"] + failed
        status = "processing"
        if finished:
            status = "completed_with_errors" if total_failed else "completed"
        conn.execute(
            """UPDATE ingest_jobs SET chunks_done = ?, succeeded = succeeded + ?,
            failed = failed + ?, status = ?, attempts = 0, finished_at = ? WHERE id = ?""",
            (done, succeeded, failed, status, utc_now() if finished else None, job["id"]),
        )
        return finished

    def _record_failed_attempt(self, job: sqlite3.Row) -> bool:
        """Count a failed attempt; on the last one the job ends `failed`."""
        with self._db.transaction() as conn:
            attempts = job["attempts"] + 1
            if attempts < MAX_CHUNK_ATTEMPTS:
                conn.execute(
                    "UPDATE ingest_jobs SET attempts = ? WHERE id = ?", (attempts, job["id"])
                )
                return False
            conn.execute(
                """UPDATE ingest_job_items SET status = 'failed', error_code = 'INTERNAL_ERROR',
                attempt_count = attempt_count + ? WHERE job_id = ? AND status = 'pending'""",
                (attempts, job["id"]),
            )
            conn.execute(
                """UPDATE ingest_jobs SET status = 'failed', attempts = ?, finished_at = ?,
                failed = submitted - succeeded WHERE id = ?""",
                (attempts, utc_now(), job["id"]),
            )
            return True

    def _announce(self, job: sqlite3.Row) -> None:
        """Send `ingest_job.finished` through the webhook package, when it exists."""
        try:
            from emissions_sandbox.webhooks.delivery import enqueue_event
        except ImportError:
            return
        data = read_job(self._db.reader(), job["organization_id"], job["id"])
        if data is None:
            return
        try:
            enqueue_event(self._db, job["organization_id"], "ingest_job.finished", data)
        except Exception:
            log.exception("could not enqueue ingest_job.finished for %s", job["id"])


def _calculate_chunk(
    conn: sqlite3.Connection, job_id: str, chunk_index: int, factors: FactorCache
) -> tuple[int, int]:
    # w.rowid: the UPDATE below finds each row by it, not by a second search of the uuid index
    rows = conn.execute(
        """SELECT i.source_row_index, w.id, w.rowid AS waste_rowid, w.base_quantity, w.unit_id,
        w.waste_efs_id, c.custom_ef_record_id
        FROM ingest_job_items i
        LEFT JOIN wastes w ON w.id = i.entity_id
        LEFT JOIN waste_calculation_configs c ON c.waste_id = w.id
        WHERE i.job_id = ? AND i.chunk_index = ? AND i.status = 'pending'""",
        (job_id, chunk_index),
    ).fetchall()
    factors.refresh_custom(conn, [r["custom_ef_record_id"] for r in rows])
    now = utc_now()
    waste_updates: list[tuple[Any, ...]] = []
    item_updates: list[tuple[Any, ...]] = []
    succeeded = failed = 0
    for row in rows:
        if row["id"] is None:  # deleted before it was calculated
            item_updates.append(("skipped", "ENTITY_DELETED", None, job_id, row[0]))
            continue
        result = calculate_waste(row, factors)
        if result.error_code is None:
            succeeded += 1
            waste_updates.append(
                ("active", result.quantity, result.co2e, 0.0, None, now, row["waste_rowid"])
            )
        else:
            failed += 1
            waste_updates.append(
                ("error", result.quantity, None, None, result.error_code, now, row["waste_rowid"])
            )
            params = json.dumps(result.error_params)
            item_updates.append(("failed", result.error_code, params, job_id, row[0]))
    conn.executemany(
        """UPDATE wastes SET status = ?, quantity = ?, co2e = ?, co2e_biomass = ?, error_code = ?,
        updated_at = ? WHERE rowid = ?""",
        waste_updates,
    )
    conn.executemany(
        """UPDATE ingest_job_items SET stage = 'calculate', status = ?, error_code = ?,
        error_params = ?, attempt_count = attempt_count + 1
        WHERE job_id = ? AND source_row_index = ?""",
        item_updates,
    )
    _mark_succeeded(conn, job_id, chunk_index)
    return succeeded, failed


def _mark_succeeded(conn: sqlite3.Connection, job_id: str, chunk_index: int) -> None:
    """The chunk's items still pending once its failed and skipped ones are marked are the ones
    that succeeded (same transaction, so nothing else changed them): one statement along the
    chunk's index rather than a lookup of each item by its key."""
    conn.execute(
        """UPDATE ingest_job_items SET stage = 'calculate', status = 'succeeded',
        error_code = NULL, error_params = NULL, attempt_count = attempt_count + 1
        WHERE job_id = ? AND chunk_index = ? AND status = 'pending'""",
        (job_id, chunk_index),
    )


def _delete_chunk(
    conn: sqlite3.Connection, job_id: str, organization_id: str, chunk_index: int
) -> tuple[int, int]:
    """Delete the chunk's wastes; an unknown or already deleted id is `skipped` (idempotent)."""
    rows = conn.execute(
        """SELECT i.source_row_index, w.id AS waste_id FROM ingest_job_items i
        LEFT JOIN wastes w ON w.id = i.entity_id AND w.organization_id = ?
        WHERE i.job_id = ? AND i.chunk_index = ? AND i.status = 'pending'
        ORDER BY i.source_row_index""",
        (organization_id, job_id, chunk_index),
    ).fetchall()
    deleted: set[str] = set()
    statuses = []
    for row in rows:
        # an id given twice is deleted once; its second item is skipped
        first = row["waste_id"] is not None and row["waste_id"] not in deleted
        if first:
            deleted.add(row["waste_id"])
        statuses.append(("succeeded" if first else "skipped", job_id, row["source_row_index"]))
    present = [(waste_id,) for waste_id in deleted]
    conn.executemany("DELETE FROM waste_calculation_configs WHERE waste_id = ?", present)
    conn.executemany("DELETE FROM wastes WHERE id = ?", present)
    conn.executemany(
        """UPDATE ingest_job_items SET status = ?, attempt_count = attempt_count + 1
        WHERE job_id = ? AND source_row_index = ?""",
        statuses,
    )
    return len(present), 0
