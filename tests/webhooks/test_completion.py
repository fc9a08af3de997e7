"""Ingest jobs finished by the service's signed webhook, over the served sandbox."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from emissions_etl.webhooks import (
    EventVerifier,
    SecretStore,
    WebhookCompletion,
    WebhookReceiver,
    WebhookSettings,
    ensure_endpoint,
    open_job_completion,
)
from emissions_etl.webhooks.registration import RegisteredEndpoint
from tests.webhooks.support import (
    RECORDS_PER_JOB,
    Tenant,
    deliver,
    event_body,
    free_port,
    new_secret,
    signed_headers,
    wait_until,
)

pytestmark = pytest.mark.timeout(120)


@dataclass
class Wired:
    """A receiver, a registered endpoint and a completion, wired as ``open_job_completion``
    does, but with the receiver's real port known before registering."""

    receiver: WebhookReceiver
    endpoint: RegisteredEndpoint
    completion: WebhookCompletion
    url: str


def _wire(
    tenant: Tenant, receiver: WebhookReceiver, tmp_path: Path, *, fallback_after: float = 20.0
) -> Wired:
    url = f"{receiver.local_url}/hooks/emissions"
    endpoint = ensure_endpoint(tenant.client, url, SecretStore(tmp_path / "secrets.json"))
    completion = WebhookCompletion(tenant.client, fallback_after=fallback_after)
    receiver.arm(EventVerifier(endpoint.secret), completion.job_finished)
    return Wired(receiver, endpoint, completion, url)


@pytest.fixture
def wired(tenant: Tenant, receiver: WebhookReceiver, tmp_path: Path) -> Wired:
    return _wire(tenant, receiver, tmp_path)


def test_a_load_finishes_its_job_by_the_webhook_without_reading_the_job(
    tenant: Tenant, tmp_path: Path
) -> None:
    port = free_port()
    settings = WebhookSettings(
        url=f"http://127.0.0.1:{port}/hooks/emissions",
        listen=f"127.0.0.1:{port}",
        warehouse=tmp_path / "warehouse.duckdb",
        fallback_after=20,
    )
    with open_job_completion(tenant.client, settings) as completion:
        assert isinstance(completion, WebhookCompletion)
        job = tenant.post_job()
        started = time.monotonic()
        finished = completion.wait(job["id"])
        waited = time.monotonic() - started

    assert finished["id"] == job["id"]
    assert finished["status"] == "completed"
    assert finished["counts"] == {
        "submitted": RECORDS_PER_JOB,
        "succeeded": RECORDS_PER_JOB,
        "failed": 0,
    }
    assert tenant.job_reads(job["id"]) == []  # the event's data was the job: no GET at all
    assert waited < settings.fallback_after
    assert finished == tenant.client.get_ingest_job(job["id"])  # the same shape as a GET


def test_an_event_that_comes_before_wait_is_kept(tenant: Tenant, wired: Wired) -> None:
    job = tenant.post_job()
    wait_until(lambda: wired.completion.finished(job["id"]))  # in memory, no request

    started = time.monotonic()
    finished = wired.completion.wait(job["id"])

    assert time.monotonic() - started < 1
    assert finished["status"] == "completed"
    assert tenant.job_reads(job["id"]) == []


def test_without_an_event_the_job_is_polled_after_the_bounded_wait(
    tenant: Tenant, receiver: WebhookReceiver, tmp_path: Path
) -> None:
    wired = _wire(tenant, receiver, tmp_path, fallback_after=1.0)
    tenant.client.update_webhook_endpoint(wired.endpoint.id, enabled=False)
    job = tenant.post_job()

    started = time.monotonic()
    finished = wired.completion.wait(job["id"])

    assert time.monotonic() - started >= 1.0
    assert finished["status"] == "completed"
    assert finished["counts"]["succeeded"] == RECORDS_PER_JOB
    assert tenant.job_reads(job["id"])  # it came from polling
    assert len(receiver.seen) == 0  # a disabled endpoint receives nothing
    assert tenant.deliveries(wired.endpoint.id) == []


def _finished_elsewhere(tenant: Tenant, job_id: str) -> dict[str, object]:
    """The finished job, read by a GET that is then dropped from the record."""
    job = wait_until(
        lambda: (j := tenant.client.get_ingest_job(job_id))["status"] != "processing" and j
    )
    tenant.transport.requests.clear()
    return dict(job)


def _forged_variants(job: dict[str, object]) -> list[tuple[str, bytes, dict[str, str]]]:
    body = event_body({**job, "counts": {"submitted": 3, "succeeded": 999, "failed": 0}})
    right = signed_headers(SECRET, body)
    ed25519 = "v1a," + right["webhook-signature"].removeprefix("v1,")
    return [
        ("another secret", body, signed_headers(new_secret(), body)),
        ("another body", body, signed_headers(SECRET, event_body(job))),
        ("no signature", body, {k: v for k, v in right.items() if k != "webhook-signature"}),
        ("garbage signature", body, {**right, "webhook-signature": "v1,not base64!"}),
        ("no comma", body, {**right, "webhook-signature": "v1"}),
        ("other scheme", body, {**right, "webhook-signature": ed25519}),
    ]  # fmt: skip


SECRET = new_secret()


@pytest.fixture
def unregistered(tenant: Tenant, receiver: WebhookReceiver) -> WebhookCompletion:
    """A completion whose receiver trusts SECRET; no endpoint is registered, so the service
    sends nothing and every delivery the receiver sees is the test's."""
    completion = WebhookCompletion(tenant.client, fallback_after=0.5)
    receiver.arm(EventVerifier(SECRET), completion.job_finished)
    return completion


def test_a_forged_signature_is_refused_and_finishes_nothing(
    tenant: Tenant, receiver: WebhookReceiver, unregistered: WebhookCompletion
) -> None:
    job = _finished_elsewhere(tenant, tenant.post_job()["id"])

    answers = {
        name: deliver(receiver.local_url, body, headers)
        for name, body, headers in _forged_variants(job)
    }

    assert answers == dict.fromkeys(answers, 401)
    assert unregistered.finished(str(job["id"])) is None
    assert len(receiver.seen) == 0
    finished = unregistered.wait(str(job["id"]))
    assert finished["counts"]["succeeded"] == RECORDS_PER_JOB  # the real job, not the forgery
    assert tenant.job_reads(str(job["id"]))  # found by polling


@pytest.mark.parametrize("shift", [timedelta(minutes=-6), timedelta(minutes=6)])
def test_a_stale_or_future_timestamp_is_refused(
    tenant: Tenant,
    receiver: WebhookReceiver,
    unregistered: WebhookCompletion,
    shift: timedelta,
) -> None:
    job = _finished_elsewhere(tenant, tenant.post_job()["id"])
    body = event_body(job)
    headers = signed_headers(SECRET, body, at=datetime.now(UTC) + shift)  # the right secret

    assert deliver(receiver.local_url, body, headers) == 401
    assert unregistered.finished(str(job["id"])) is None
    assert len(receiver.seen) == 0
    # The same bytes signed now are taken: only the timestamp made the difference.
    assert deliver(receiver.local_url, body, signed_headers(SECRET, body)) == 204
    assert unregistered.finished(str(job["id"])) == job


def test_a_duplicated_delivery_is_acknowledged_and_ignored(tenant: Tenant, wired: Wired) -> None:
    job = tenant.post_job()
    finished = wired.completion.wait(job["id"])
    [delivery] = wait_until(
        lambda: [d for d in tenant.deliveries(wired.endpoint.id) if d["status"] == "succeeded"]
    )
    # A re-delivery of the same event (same webhook-id, fresh timestamp and signature), as the
    # service sends when our 2xx is lost, here carrying a different job state.
    altered = event_body({**finished, "status": "failed"})
    replay = signed_headers(wired.endpoint.secret, altered, webhook_id=delivery["event_id"])

    assert deliver(wired.url, altered, replay) == 204
    assert deliver(wired.url, altered, replay) == 204
    assert wired.completion.wait(job["id"]) == finished  # still the first event's job
    assert len(wired.receiver.seen) == 1
    # Control: under a new webhook-id the same bytes are taken.
    assert deliver(wired.url, altered, signed_headers(wired.endpoint.secret, altered)) == 204
    assert wired.completion.finished(job["id"]) == {**finished, "status": "failed"}


def test_a_test_event_is_acknowledged_and_finishes_nothing(tenant: Tenant, wired: Wired) -> None:
    path = f"/v2/webhook-endpoints/{wired.endpoint.id}/test"
    delivery = tenant.client.request("POST", path).json()

    [ended] = wait_until(
        lambda: [
            d
            for d in tenant.deliveries(wired.endpoint.id)
            if d["id"] == delivery["id"] and d["status"] != "pending"
        ]
    )

    assert ended["event_type"] == "webhook.test"
    assert ended["status"] == "succeeded"
    assert ended["last_status_code"] == 204
    assert len(wired.receiver.seen) == 1
    assert wired.completion.finished(str(delivery["event_id"])) is None
