"""Queueing of events and the worker thread that delivers them, signed, to their endpoints.

Deliveries are rows, so a restart resumes them: the worker claims due rows with a lease
and a claimed row whose attempt never finished becomes due again when the lease ends.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
import uuid
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from emissions_sandbox.clock import parse_datetime
from emissions_sandbox.db import Database
from emissions_sandbox.webhooks import store
from emissions_sandbox.webhooks.outcomes import (
    AttemptOutcome,
    record_attempt,
    record_endpoint_disabled,
)
from emissions_sandbox.webhooks.signing import signature_headers
from emissions_sandbox.webhooks.url_policy import check_webhook_url

API_VERSION = "2026-10-05"  # interface: Versioning, the latest changelog date
RETRY_DELAYS_SECONDS: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0)  # after attempts 1 to 4
SEND_TIMEOUT_SECONDS = 10.0
_SENDERS = 4
_LEASE_SECONDS = SEND_TIMEOUT_SECONDS + 20.0
#: The longest the poller sleeps with nothing due and nothing committed in this process.
IDLE_POLL_SECONDS = 2.0

logger = logging.getLogger(__name__)


def enqueue_event(
    db: Database, organization_id: str, event_type: str, data: dict[str, Any]
) -> None:
    """Queue one event for every enabled endpoint of the organization subscribed to it."""
    body = event_body(event_type, data)
    event_id = new_event_id()
    with db.transaction() as conn:
        for endpoint in store.subscribed_endpoints(conn, organization_id, event_type):
            store.insert_delivery(conn, endpoint["id"], event_id, event_type, body)


def event_body(event_type: str, data: dict[str, Any]) -> str:
    """The JSON payload `{type, timestamp, api_version, data}`, fixed once for all attempts."""
    payload = {
        "type": event_type,
        "timestamp": store.now_text(),
        "api_version": API_VERSION,
        "data": data,
    }
    return json.dumps(payload, separators=(",", ":"))


def new_event_id() -> str:
    # Standard Webhooks: the message id must not contain a dot.
    return "evt_" + uuid.uuid4().hex


def start_delivery_worker(app: Any) -> None:
    """Start the delivery threads for `app` (reads `app.state.db` and `app.state.settings`)."""
    settings = app.state.settings
    worker = DeliveryWorker(
        app.state.db,
        allow_private=settings.allow_private_webhooks,
        retry_delays=tuple(getattr(settings, "webhook_retry_delays", RETRY_DELAYS_SECONDS)),
    )
    worker.start()
    app.state.webhook_worker = worker


def stop_delivery_worker(app: Any) -> None:
    worker: DeliveryWorker | None = getattr(app.state, "webhook_worker", None)
    if worker is not None:
        worker.stop()
        app.state.webhook_worker = None


class DeliveryWorker:
    """A poller that claims due deliveries and a few sender threads that attempt them."""

    def __init__(
        self,
        db: Database,
        *,
        allow_private: bool,
        retry_delays: tuple[float, ...] = RETRY_DELAYS_SECONDS,
        poll_seconds: float = 0.1,
        idle_seconds: float = IDLE_POLL_SECONDS,
    ) -> None:
        self.db = db
        self.allow_private = allow_private
        self.retry_delays = retry_delays
        self.poll_seconds = max(poll_seconds, 0.02)
        self.idle_seconds = max(idle_seconds, self.poll_seconds)
        self._stopping = threading.Event()
        self._committed = threading.Event()
        self._claimed: queue.Queue[str | None] = queue.Queue()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self.db.on_commit(self._committed.set)
        targets = [self._poll] + [self._send_claimed] * _SENDERS
        for index, target in enumerate(targets):
            thread = threading.Thread(target=target, name=f"webhook-delivery-{index}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop claiming; an attempt in flight is abandoned and resumed after its lease."""
        self._stopping.set()
        self._committed.set()
        for _ in range(_SENDERS):
            self._claimed.put(None)  # one for each sender waiting for a claim
        for thread in self._threads:
            thread.join(timeout=1.0)

    def _poll(self) -> None:
        """Claim what is due at most every ``poll_seconds``; between rounds, sleep until the
        next attempt falls due or a commit may have queued one (``idle_seconds`` at most, for
        rows another process writes), so an idle sandbox does not poll without end."""
        while not self._stopping.wait(self.poll_seconds):
            self._committed.clear()
            try:
                for delivery_id in self._claim_due():
                    self._claimed.put(delivery_id)
                next_due = self._seconds_to_next_due()
            except Exception:
                logger.exception("claiming due webhook deliveries failed")
                next_due = 0.0
            self._committed.wait(min(self.idle_seconds, next_due) - self.poll_seconds)

    def _seconds_to_next_due(self) -> float:
        """Seconds until the earliest pending delivery falls due (``idle_seconds`` if none)."""
        [earliest] = (
            self.db.reader()
            .execute("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'")
            .fetchone()
        )
        if earliest is None:
            return self.idle_seconds
        due = parse_datetime(str(earliest))
        return max((due - datetime.now(UTC)).total_seconds(), 0.0)

    def _claim_due(self) -> list[str]:
        free = _SENDERS - self._claimed.qsize()
        if free <= 0:
            return []
        now = store.now_text()
        due = (
            self.db.reader()
            .execute(
                "SELECT id FROM webhook_deliveries WHERE status = 'pending' "
                "AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
                (now, free),
            )
            .fetchall()
        )
        if not due:  # the common case takes no write lock
            return []
        claimed: list[str] = []
        with self.db.transaction() as conn:
            for row in due:
                cursor = conn.execute(
                    "UPDATE webhook_deliveries SET next_attempt_at = ? "
                    "WHERE id = ? AND status = 'pending' AND next_attempt_at <= ?",
                    (store.now_text(_LEASE_SECONDS), row["id"], now),
                )
                if cursor.rowcount == 1:
                    claimed.append(str(row["id"]))
        return claimed

    def _send_claimed(self) -> None:
        while not self._stopping.is_set():
            delivery_id = self._claimed.get()
            if delivery_id is None:
                return  # stop()
            try:
                self._attempt(delivery_id)
            except Exception:
                logger.exception("webhook delivery attempt %s failed unexpectedly", delivery_id)

    def _attempt(self, delivery_id: str) -> None:
        row = self._delivery_with_endpoint(delivery_id)
        if row is None or row["status"] != "pending":
            return
        if not row["enabled"]:  # interface: Events 3, disabled endpoints receive nothing
            with self.db.transaction() as conn:
                record_endpoint_disabled(conn, delivery_id)
            return
        outcome = self._send(row)
        if self._stopping.is_set():
            return  # the lease brings the delivery back after a restart
        with self.db.transaction() as conn:
            record_attempt(conn, delivery_id, outcome, self.retry_delays)

    def _delivery_with_endpoint(self, delivery_id: str) -> sqlite3.Row | None:
        return (
            self.db.reader()
            .execute(
                "SELECT d.id, d.event_id, d.body, d.status, e.url, e.secret, e.enabled "
                "FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id "
                "WHERE d.id = ?",
                (delivery_id,),
            )
            .fetchone()
        )

    def _send(self, row: sqlite3.Row) -> AttemptOutcome:
        # The host is checked again at send time: its DNS answer may have changed.
        violations = check_webhook_url(row["url"], allow_private=self.allow_private)
        if violations:
            return AttemptOutcome(error=violations[0].code)
        body = str(row["body"]).encode()
        headers = {
            "content-type": "application/json",
            "user-agent": "emissions-sandbox-webhooks",
            **signature_headers(row["secret"], row["event_id"], int(time.time()), body),
        }
        try:
            with httpx.Client(timeout=SEND_TIMEOUT_SECONDS, follow_redirects=False) as client:
                response = client.post(row["url"], content=body, headers=headers)
        except httpx.TimeoutException:
            return AttemptOutcome(error="TIMEOUT")
        except httpx.HTTPError as exc:
            return AttemptOutcome(error=f"CONNECTION_ERROR: {type(exc).__name__}")
        error = None if response.is_success else f"HTTP_{response.status_code}"
        retry_after = _retry_after_seconds(response) if response.status_code == 429 else None
        return AttemptOutcome(response.status_code, error, retry_after)


def _retry_after_seconds(response: httpx.Response) -> float | None:
    """`Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        return max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError):
        return None
