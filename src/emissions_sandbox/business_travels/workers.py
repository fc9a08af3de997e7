"""The business-travel calculator: a daemon thread that turns `pending` records into `active`
(co2e set) or `error` (no factor). State is the records' status, so a restart resumes."""

from __future__ import annotations

import logging
from typing import Any

from emissions_sandbox.background import BackgroundWorker
from emissions_sandbox.business_travels import store
from emissions_sandbox.business_travels.factors import co2e_of
from emissions_sandbox.db import Database

log = logging.getLogger(__name__)
BATCH_SIZE = 500


class BusinessTravelWorker(BackgroundWorker):
    thread_name = "business-travel-worker"

    def __init__(self, db: Database, poll_seconds: float, calc_delay: float) -> None:
        super().__init__()
        self._db = db
        self._poll_seconds = poll_seconds
        self._calc_delay = calc_delay

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._poll_seconds)
            self._wake.clear()
            if self._calc_delay:
                self._stop.wait(self._calc_delay)
            try:
                while not self._stop.is_set() and self.calculate_batch():
                    pass
            except Exception:
                log.exception("business travel calculation failed; retrying on the next poll")

    def calculate_batch(self) -> int:
        """Calculate up to BATCH_SIZE pending records in one transaction; how many there were."""
        if not store.pending_travels(self._db.reader(), 1):
            return 0  # nothing to do: do not take the write lock
        with self._db.transaction() as conn:
            rows = store.pending_travels(conn, BATCH_SIZE)
            for row in rows:
                try:
                    store.record_result(conn, row["id"], "active", co2e_of(dict(row)))
                except KeyError:
                    log.warning("no factor for business travel %s", row["id"])
                    store.record_result(conn, row["id"], "error", 0.0)
        return len(rows)


def start(app: Any) -> None:
    settings = app.state.settings
    worker = BusinessTravelWorker(
        app.state.db, settings.worker_poll_seconds * 20, settings.calc_delay
    )
    app.state.business_travel_worker = worker
    worker.start()


def stop(app: Any) -> None:
    worker: BusinessTravelWorker | None = getattr(app.state, "business_travel_worker", None)
    if worker is not None:
        worker.stop()
        app.state.business_travel_worker = None
