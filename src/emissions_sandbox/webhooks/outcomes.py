"""What one delivery attempt does to its delivery and endpoint (interface: Events rule 4).

A delivery is `pending` until it ends `succeeded` or `failed`; failed attempts are retried
on a schedule; 5 deliveries in a row that end `failed` disable the endpoint.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from emissions_sandbox.webhooks.store import now_text

MAX_CONSECUTIVE_FAILURES = 5  # interface: Limits, consecutive failed deliveries
MAX_RETRY_AFTER_SECONDS = 300.0  # a receiver's Retry-After is honoured up to this wait
DISABLED_REASON = "TOO_MANY_FAILURES"


@dataclass(frozen=True)
class AttemptOutcome:
    """The receiver's answer to one attempt, or why there was none."""

    status_code: int | None = None
    error: str | None = None
    retry_after_seconds: float | None = None

    @property
    def succeeded(self) -> bool:
        # Standard Webhooks: only 2xx is success; a redirect is a failure.
        return self.status_code is not None and 200 <= self.status_code < 300


def record_attempt(
    conn: sqlite3.Connection,
    delivery_id: str,
    outcome: AttemptOutcome,
    retry_delays: tuple[float, ...],
) -> None:
    """Count the attempt; succeed, schedule the next attempt, or end the delivery `failed`."""
    row = conn.execute(
        "SELECT endpoint_id, attempt_count FROM webhook_deliveries WHERE id = ?", (delivery_id,)
    ).fetchone()
    if row is None:  # the endpoint was deleted meanwhile, its deliveries with it
        return
    attempts = int(row["attempt_count"]) + 1
    now = now_text()
    if outcome.succeeded:
        status, next_attempt_at = "succeeded", None
    elif attempts <= len(retry_delays):
        delay = retry_delays[attempts - 1]
        if outcome.retry_after_seconds is not None:
            delay = max(delay, min(outcome.retry_after_seconds, MAX_RETRY_AFTER_SECONDS))
        status, next_attempt_at = "pending", now_text(delay)
    else:
        status, next_attempt_at = "failed", None
    conn.execute(
        "UPDATE webhook_deliveries SET status = ?, attempt_count = ?, last_status_code = ?, "
        "last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?",
        (status, attempts, outcome.status_code, outcome.error, next_attempt_at, now, delivery_id),
    )
    if status == "succeeded":
        conn.execute(
            "UPDATE webhook_endpoints SET consecutive_failures = 0, updated_at = ? WHERE id = ?",
            (now, row["endpoint_id"]),
        )
    elif status == "failed":
        _count_failed_delivery(conn, row["endpoint_id"], now)


def record_endpoint_disabled(conn: sqlite3.Connection, delivery_id: str) -> None:
    """End a pending delivery whose endpoint is disabled; it is not counted as a failure."""
    conn.execute(
        "UPDATE webhook_deliveries SET status = 'failed', last_error = 'ENDPOINT_DISABLED', "
        "next_attempt_at = NULL, updated_at = ? WHERE id = ? AND status = 'pending'",
        (now_text(), delivery_id),
    )


def _count_failed_delivery(conn: sqlite3.Connection, endpoint_id: str, now: str) -> None:
    conn.execute(
        "UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, "
        "updated_at = ? WHERE id = ?",
        (now, endpoint_id),
    )
    conn.execute(
        "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? "
        "WHERE id = ? AND enabled = 1 AND consecutive_failures >= ?",
        (DISABLED_REASON, now, endpoint_id, MAX_CONSECUTIVE_FAILURES),
    )
