"""How the loader learns that an ingest job finished: by webhook event, or by polling.

Both implement ``JobCompletion.wait(job_id) -> job`` (the finished ingest job as
``EmissionsClient.get_ingest_job`` returns it; IngestJobError when it ``failed``), so the loader
does not know which one it has.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from emissions_etl.errors import IngestJobError
from emissions_etl.json_values import JsonObject
from emissions_etl.webhooks.notices import Notify, job_outcome
from emissions_etl.webhooks.verification import INGEST_JOB_FINISHED, VerifiedEvent

logger = logging.getLogger("emissions_etl.webhooks")

DEFAULT_FALLBACK_AFTER = 30.0
DEFAULT_CAPACITY = 1_000


class JobCompletion(Protocol):
    """Waits for one ingest job to finish and returns it."""

    def wait(self, job_id: str) -> JsonObject: ...


class IngestJobPoller(Protocol):
    """``EmissionsClient.wait_for_ingest_job``: GET the job until it leaves ``processing``."""

    def wait_for_ingest_job(
        self, job_id: str, *, sleep: Callable[[float], None] = ...
    ) -> JsonObject: ...


class PollingCompletion:
    """Today's behaviour: poll the job with growing pauses."""

    def __init__(self, client: IngestJobPoller) -> None:
        self._client = client

    def wait(self, job_id: str) -> JsonObject:
        return self._client.wait_for_ingest_job(job_id)


class WebhookCompletion:
    """Finishes jobs from verified ``ingest_job.finished`` events, polling only as a fallback.

    ``job_finished`` is the receiver's sink. Events may come before ``wait`` is called (a small
    job finishes while the loader is still busy), so finished jobs are kept, the newest
    ``capacity`` of them. When no event has come after ``fallback_after`` seconds, the job is
    polled; an event arriving during the polling ends it at once, with no further GET. Each
    job's end is told through ``notify``: by its event, or polled after the wait.
    """

    def __init__(
        self,
        client: IngestJobPoller,
        *,
        fallback_after: float = DEFAULT_FALLBACK_AFTER,
        capacity: int = DEFAULT_CAPACITY,
        notify: Notify | None = None,
    ) -> None:
        self._client = client
        self._notify = notify or (lambda message: logger.info("%s", message))
        self._fallback_after = fallback_after
        self._capacity = capacity
        self._finished: OrderedDict[str, JsonObject] = OrderedDict()
        self._changed = threading.Condition()

    def job_finished(self, event: VerifiedEvent) -> None:
        """Take one verified event; only ``ingest_job.finished`` finishes a job."""
        if event.type != INGEST_JOB_FINISHED:
            logger.info("webhook event %s of type %r acknowledged", event.webhook_id, event.type)
            return
        job = event.data
        job_id = job.get("id") if isinstance(job, dict) else None
        if not isinstance(job, dict) or not isinstance(job_id, str):
            logger.warning("webhook event %s carries no ingest job: ignored", event.webhook_id)
            return
        if job.get("status") == "processing":
            logger.warning("webhook event %s: job still processing: ignored", event.webhook_id)
            return
        with self._changed:
            self._finished[job_id] = job
            self._finished.move_to_end(job_id)
            while len(self._finished) > self._capacity:
                self._finished.popitem(last=False)
            self._changed.notify_all()

    def finished(self, job_id: str) -> JsonObject | None:
        """The job if its event has come, without waiting."""
        with self._changed:
            return self._finished.get(job_id)

    def wait(self, job_id: str) -> JsonObject:
        job = self._wait_for_event(job_id, self._fallback_after)
        if job is not None:
            self._notify(f"webhook: ingest job {job_id} finished by its event: {job_outcome(job)}")
            return _finished(job_id, job)
        logger.debug("no webhook event for ingest job %s yet: polling it", job_id)
        waited = f"{self._fallback_after:g} s"
        try:
            polled = self._client.wait_for_ingest_job(job_id, sleep=self._sleep_until_event(job_id))
        except _EventArrived as arrived:
            self._notify(
                f"webhook: ingest job {job_id} finished by its event (after {waited}, while "
                f"polled): {job_outcome(arrived.job)}"
            )
            return _finished(job_id, arrived.job)
        except IngestJobError as error:  # failed, or not finished in time
            outcome = job_outcome(error.job) if error.job else error.reason
            self._notify(f"webhook: no event for ingest job {job_id} within {waited}: {outcome}")
            raise
        outcome = f"polled it: {job_outcome(polled)}"
        self._notify(f"webhook: no event for ingest job {job_id} within {waited}: {outcome}")
        return polled

    def _wait_for_event(self, job_id: str, timeout: float) -> JsonObject | None:
        with self._changed:
            self._changed.wait_for(lambda: job_id in self._finished, timeout=timeout)
            return self._finished.get(job_id)

    def _sleep_until_event(self, job_id: str) -> Callable[[float], None]:
        """A ``sleep`` for the poller that the job's event cuts short."""

        def sleep(seconds: float) -> None:
            job = self._wait_for_event(job_id, seconds)
            if job is not None:
                raise _EventArrived(job)

        return sleep


class _EventArrived(Exception):
    """Raised through the poller's loop to end it with the event's job."""

    def __init__(self, job: JsonObject) -> None:
        super().__init__("event arrived")
        self.job = job


def _finished(job_id: str, job: JsonObject) -> JsonObject:
    # The same contract as EmissionsClient.wait_for_ingest_job.
    if job.get("status") == "failed":
        raise IngestJobError(job_id, "the job failed", job=job)
    return job
