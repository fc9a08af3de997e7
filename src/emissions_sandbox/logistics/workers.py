"""The v2 calculator: a daemon thread that calculates `pending` legs (POST /v2/logistics/...).
The legs' state is in the database, so a restarted sandbox picks up what was left pending."""

from __future__ import annotations

import logging
from typing import Any

from emissions_sandbox.background import BackgroundWorker
from emissions_sandbox.db import Database
from emissions_sandbox.logistics.models import RequestIn
from emissions_sandbox.logistics.request_store import record_calculation

log = logging.getLogger(__name__)
BATCH_SIZE = 500
IDLE_WAIT_SECONDS = 1.0


class LegCalculator(BackgroundWorker):
    thread_name = "logistics-worker"

    def __init__(self, db: Database, delay_seconds: float) -> None:
        super().__init__()
        self._db = db
        self._delay = delay_seconds

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                done = self._calculate_batch()
            except Exception:
                log.exception("logistics calculation batch failed")
                done = 0
            if done == 0:
                self._wake.wait(IDLE_WAIT_SECONDS)
                self._wake.clear()

    def _calculate_batch(self) -> int:
        rows = (
            self._db.reader()
            .execute(
                "SELECT id, input FROM logistics_requests WHERE status = 'pending' "
                "ORDER BY created_at, id LIMIT ?",
                (BATCH_SIZE,),
            )
            .fetchall()
        )
        if rows and self._delay:
            self._stop.wait(self._delay)  # --calc-delay, so tests can see `pending`
        with self._db.transaction() as conn:
            for row in rows:
                record_calculation(conn, row["id"], RequestIn.model_validate_json(row["input"]))
        return len(rows)


def start(app: Any) -> None:
    worker = LegCalculator(app.state.db, app.state.settings.calc_delay)
    app.state.logistics_worker = worker
    worker.start()


def stop(app: Any) -> None:
    worker: LegCalculator | None = getattr(app.state, "logistics_worker", None)
    if worker is not None:
        worker.stop()
