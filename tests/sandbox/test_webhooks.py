"""Webhook endpoints and signed event delivery, against a served sandbox and real receivers.

Signatures are checked with the `standardwebhooks` reference library, not with our code.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from standardwebhooks.webhooks import Webhook

from emissions_sandbox.accounts import create_organization, create_user
from emissions_sandbox.app import create_app
from emissions_sandbox.db import Database
from emissions_sandbox.settings import SandboxSettings
from emissions_sandbox.webhooks import store
from emissions_sandbox.webhooks.delivery import DeliveryWorker, enqueue_event

pytestmark = pytest.mark.timeout(60)

FAST_RETRIES = (0.2, 0.2, 0.2, 0.2)
JOB = {"id": "5d0c3a53-2f4e-4a52-9d39-2f1f1b7c8e11", "status": "completed", "operation": "create"}


# --- a receiver: a real HTTP server on loopback that records requests -------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    base_url: str
    requests: list[Received] = field(default_factory=list)
    scripts: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, path: str, *responses: int | tuple[int, dict[str, str]]) -> str:
        """Answer `path` with these statuses in turn, repeating the last; returns the URL."""
        with self.lock:
            self.scripts[path] = [
                r if isinstance(r, tuple) else (r, {}) for r in responses or (200,)
            ]
        return self.base_url + path

    def next_response(self, path: str) -> tuple[int, dict[str, str]]:
        with self.lock:
            script = self.scripts.get(path, [(200, {})])
            return script.pop(0) if len(script) > 1 else script[0]

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.requests if r.path == path]


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    state = Receiver(f"http://127.0.0.1:{server.server_address[1]}")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            with state.lock:
                headers = {k.lower(): v for k, v in self.headers.items()}
                state.requests.append(Received(self.path, headers, body, time.monotonic()))
            status, extra = state.next_response(self.path)
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server.RequestHandlerClass = Handler
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


# --- served sandboxes --------------------------------------------------------------------------


@dataclass
class Sandbox:
    base_url: str
    db: Database
    org_id: str
    admin_key: str
    member_key: str
    other_org_id: str
    other_admin_key: str

    def headers(self, key: str | None = None, org: str | None = None) -> dict[str, str]:
        return {"x-api-key": key or self.admin_key, "x-organization-id": org or self.org_id}

    def client(self, key: str | None = None, org: str | None = None) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, headers=self.headers(key, org), timeout=10)


def _serve(tmp_path: Path, *, allow_private: bool) -> Iterator[Sandbox]:
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.db", allow_private_webhooks=allow_private
    )
    settings.webhook_retry_delays = FAST_RETRIES  # type: ignore[attr-defined]
    app = create_app(settings)
    db: Database = app.state.db
    with db.transaction() as conn:
        org_id = create_organization(conn, "Org A")
        other_org_id = create_organization(conn, "Org B")
        admin = create_user(conn, org_id, is_admin=True)
        member = create_user(conn, org_id, is_admin=False)
        other_admin = create_user(conn, other_org_id, is_admin=True)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    _wait_until(lambda: server.started, timeout=10)
    yield Sandbox(
        f"http://127.0.0.1:{sock.getsockname()[1]}", db, org_id, admin.api_key,
        member.api_key, other_org_id, other_admin.api_key,
    )  # fmt: skip
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def webhook_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    """Served with `allow_private_webhooks`, so loopback receivers are admitted."""
    yield from _serve(tmp_path_factory.mktemp("private"), allow_private=True)


@pytest.fixture(scope="module")
def strict_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    """Served without the flag, as in production."""
    yield from _serve(tmp_path_factory.mktemp("strict"), allow_private=False)


@pytest.fixture
def api(webhook_sandbox: Sandbox) -> Iterator[httpx.Client]:
    with webhook_sandbox.client() as client:
        yield client


def _wait_until(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def _create(api: httpx.Client, url: str, **extra: Any) -> dict[str, Any]:
    response = api.post("/v2/webhook-endpoints", json={"url": url, **EVENTS, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


EVENTS = {"event_types": ["ingest_job.finished"]}


def _deliveries(api: httpx.Client, endpoint_id: str) -> list[dict[str, Any]]:
    response = api.get(f"/v2/webhook-endpoints/{endpoint_id}/deliveries")
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _ended_deliveries(api: httpx.Client, endpoint_id: str, count: int) -> list[dict[str, Any]]:
    def ended() -> list[dict[str, Any]] | None:
        items = [d for d in _deliveries(api, endpoint_id) if d["status"] != "pending"]
        return items if len(items) >= count else None

    return list(_wait_until(ended))


def _requests(receiver: Receiver, path: str, count: int) -> list[Received]:
    return list(_wait_until(lambda: receiver.at(path) if len(receiver.at(path)) >= count else None))


def _delivery(api: httpx.Client, endpoint_id: str, delivery_id: str) -> dict[str, Any]:
    [delivery] = [d for d in _deliveries(api, endpoint_id) if d["id"] == delivery_id]
    return delivery


def _endpoint(api: httpx.Client, endpoint_id: str) -> dict[str, Any]:
    return dict(api.get(f"/v2/webhook-endpoints/{endpoint_id}").json())


def _error_codes(response: httpx.Response) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return [entry["code"] for entry in response.json()["errors"]]


# --- endpoint management -----------------------------------------------------------------------


def test_create_answers_201_with_a_whsec_secret(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/create"), description="ERP sync")

    assert created["secret"].startswith("whsec_")
    assert Webhook(created["secret"])  # the reference library accepts it as a secret
    assert created["enabled"] is True
    assert created["consecutive_failures"] == 0
    assert created["disabled_reason"] is None
    assert created["description"] == "ERP sync"
    assert created["created_at"].endswith("Z")


def test_secret_is_returned_only_by_create(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/once"))

    read = api.get(f"/v2/webhook-endpoints/{created['id']}").json()
    listed = api.get("/v2/webhook-endpoints", params={"size": 100}).json()["items"]
    patched = api.patch(f"/v2/webhook-endpoints/{created['id']}", json={"description": "x"}).json()

    assert "secret" not in read
    assert "secret" not in patched
    assert all("secret" not in item for item in listed)


def test_list_is_a_page_of_the_organizations_endpoints(
    api: httpx.Client, receiver: Receiver
) -> None:
    created = _create(api, receiver.answer("/listed"))

    page = api.get("/v2/webhook-endpoints", params={"size": 100}).json()

    assert set(page) == {"items", "total", "page", "size", "pages"}
    assert created["id"] in [item["id"] for item in page["items"]]
    assert page["total"] == len(page["items"])
    assert page["page"] == 1


def test_patch_changes_only_the_given_fields(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/patch"), description="before")
    new_url = receiver.answer("/patched")

    response = api.patch(f"/v2/webhook-endpoints/{created['id']}", json={"url": new_url})

    assert response.status_code == 200
    assert response.json()["url"] == new_url
    assert response.json()["description"] == "before"
    assert response.json()["event_types"] == ["ingest_job.finished"]


def test_patch_rejects_an_invalid_url(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/patch-bad"))

    response = api.patch(
        f"/v2/webhook-endpoints/{created['id']}", json={"url": "https://169.254.169.254/x"}
    )

    assert _error_codes(response) == ["URL_NOT_PUBLIC"]
    assert _endpoint(api, created["id"])["url"] == created["url"]


def test_patch_refuses_null_for_a_required_field(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/patch-null"))

    response = api.patch(f"/v2/webhook-endpoints/{created['id']}", json={"event_types": None})

    assert _error_codes(response) == ["REQUIRED"]


def test_delete_removes_the_endpoint(api: httpx.Client, receiver: Receiver) -> None:
    created = _create(api, receiver.answer("/delete"))

    deleted = api.delete(f"/v2/webhook-endpoints/{created['id']}")
    read = api.get(f"/v2/webhook-endpoints/{created['id']}")

    assert deleted.status_code == 204
    assert read.status_code == 404
    assert read.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize(
    ("url", "codes"),
    [
        ("http://8.8.8.8/hook", ["URL_NOT_HTTPS"]),
        ("ftp://8.8.8.8/hook", ["URL_NOT_HTTPS"]),
        ("https://" + "a" * 2040 + ".example/hook", ["URL_TOO_LONG"]),
        ("https://user:pass@8.8.8.8/hook", ["URL_HAS_CREDENTIALS"]),
        ("https://127.0.0.1/hook", ["URL_NOT_PUBLIC"]),
        ("https://localhost/hook", ["URL_NOT_PUBLIC"]),
        ("https://[::1]/hook", ["URL_NOT_PUBLIC"]),
        ("https://10.1.2.3/hook", ["URL_NOT_PUBLIC"]),
        ("https://192.168.0.10/hook", ["URL_NOT_PUBLIC"]),
        ("https://169.254.169.254/latest/meta-data", ["URL_NOT_PUBLIC"]),
        ("https://[::ffff:127.0.0.1]/hook", ["URL_NOT_PUBLIC"]),
        ("http://127.0.0.1:8080/hook", ["URL_NOT_HTTPS", "URL_NOT_PUBLIC"]),
        ("https://no-such-host.invalid/hook", ["URL_UNRESOLVABLE"]),
    ],
)
def test_url_rules_without_the_private_flag(
    strict_sandbox: Sandbox, url: str, codes: list[str]
) -> None:
    with strict_sandbox.client() as api:
        response = api.post("/v2/webhook-endpoints", json={"url": url, **EVENTS})

    assert _error_codes(response) == codes
    assert all(entry["field"] == "url" for entry in response.json()["errors"])


def test_url_at_the_length_limit_is_accepted(strict_sandbox: Sandbox) -> None:
    url = "https://8.8.8.8/" + "a" * (2048 - len("https://8.8.8.8/"))

    with strict_sandbox.client() as api:
        response = api.post("/v2/webhook-endpoints", json={"url": url, **EVENTS, "enabled": False})

    assert response.status_code == 201, response.text


def test_public_https_url_is_accepted_without_the_flag(strict_sandbox: Sandbox) -> None:
    with strict_sandbox.client() as api:
        response = api.post(
            "/v2/webhook-endpoints",
            json={"url": "https://8.8.8.8/hooks", **EVENTS, "enabled": False},
        )

    assert response.status_code == 201, response.text


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook", "https://localhost/hook"])
def test_private_flag_admits_loopback_receivers(api: httpx.Client, url: str) -> None:
    response = api.post("/v2/webhook-endpoints", json={"url": url, **EVENTS, "enabled": False})

    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    ("url", "codes"),
    [
        ("https://169.254.169.254/latest/meta-data", ["URL_NOT_PUBLIC"]),
        ("http://10.1.2.3/hook", ["URL_NOT_HTTPS"]),
        ("http://8.8.8.8/hook", ["URL_NOT_HTTPS"]),
    ],
)
def test_private_flag_still_refuses_metadata_and_plain_http_off_loopback(
    api: httpx.Client, url: str, codes: list[str]
) -> None:
    response = api.post("/v2/webhook-endpoints", json={"url": url, **EVENTS})

    assert _error_codes(response) == codes


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ({"description": "d" * 256}, ["DESCRIPTION_TOO_LONG"]),
        ({"event_types": []}, ["EVENT_TYPES_EMPTY"]),
        ({"event_types": ["ingest_job.started"]}, ["EVENT_TYPE_UNKNOWN"]),
        ({"event_types": ["webhook.test"]}, ["EVENT_TYPE_UNKNOWN"]),
    ],
)
def test_field_rules(
    api: httpx.Client, receiver: Receiver, body: dict[str, Any], codes: list[str]
) -> None:
    response = api.post(
        "/v2/webhook-endpoints", json={"url": receiver.answer("/r"), **EVENTS, **body}
    )

    assert _error_codes(response) == codes


def test_every_broken_rule_is_listed(api: httpx.Client) -> None:
    body = {"url": "https://u:p@8.8.8.8/", "event_types": [], "description": "d" * 300}

    response = api.post("/v2/webhook-endpoints", json=body)

    assert sorted(_error_codes(response)) == [
        "DESCRIPTION_TOO_LONG",
        "EVENT_TYPES_EMPTY",
        "URL_HAS_CREDENTIALS",
    ]
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert all(entry["index"] is None for entry in response.json()["errors"])


def test_member_key_is_refused_with_org_admin_required(webhook_sandbox: Sandbox) -> None:
    with webhook_sandbox.client(key=webhook_sandbox.member_key) as api:
        response = api.get("/v2/webhook-endpoints")

    assert response.status_code == 403
    assert response.json()["code"] == "ORG_ADMIN_REQUIRED"
    assert response.headers["content-type"].startswith("application/problem+json")


def test_admin_of_another_organization_is_refused_as_not_member(webhook_sandbox: Sandbox) -> None:
    with webhook_sandbox.client(
        key=webhook_sandbox.other_admin_key, org=webhook_sandbox.org_id
    ) as api:
        response = api.post("/v2/webhook-endpoints", json={"url": "https://8.8.8.8/", **EVENTS})

    assert response.status_code == 403
    assert response.json()["code"] == "LOGGED_USER_NOT_MEMBER"


def test_missing_key_is_401(webhook_sandbox: Sandbox) -> None:
    response = httpx.get(
        webhook_sandbox.base_url + "/v2/webhook-endpoints",
        headers={"x-organization-id": webhook_sandbox.org_id},
    )

    assert response.status_code == 401


def test_another_organizations_endpoint_is_not_found(
    webhook_sandbox: Sandbox, api: httpx.Client, receiver: Receiver
) -> None:
    created = _create(api, receiver.answer("/scoped"))
    path = f"/v2/webhook-endpoints/{created['id']}"

    with webhook_sandbox.client(
        key=webhook_sandbox.other_admin_key, org=webhook_sandbox.other_org_id
    ) as other:
        answers = [
            other.get(path),
            other.patch(path, json={"description": "mine"}),
            other.delete(path),
            other.post(path + "/test"),
            other.get(path + "/deliveries"),
        ]
        listed = other.get("/v2/webhook-endpoints").json()["items"]

    assert [(r.status_code, r.json()["code"]) for r in answers] == [(404, "NOT_FOUND")] * 5
    assert created["id"] not in [item["id"] for item in listed]
    assert _endpoint(api, created["id"])["description"] is None


# --- delivery ----------------------------------------------------------------------------------


@dataclass
class Org:
    id: str
    api: httpx.Client


@pytest.fixture
def org(webhook_sandbox: Sandbox) -> Iterator[Org]:
    """A fresh organization, so other tests' endpoints receive none of its events."""
    with webhook_sandbox.db.transaction() as conn:
        org_id = create_organization(conn, "Delivery test org")
        admin = create_user(conn, org_id, is_admin=True)
    with webhook_sandbox.client(key=admin.api_key, org=org_id) as client:
        yield Org(org_id, client)


def _finish_job(webhook_sandbox: Sandbox, org: Org, job: dict[str, Any] = JOB) -> None:
    enqueue_event(webhook_sandbox.db, org.id, "ingest_job.finished", job)


def test_finished_job_is_delivered_signed_with_api_version(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/signed"))

    _finish_job(webhook_sandbox, org)
    [request] = _requests(receiver, "/signed", 1)
    payload = Webhook(endpoint["secret"]).verify(request.body, request.headers)

    assert payload["type"] == "ingest_job.finished"
    assert payload["api_version"] == "2026-10-05"
    assert payload["data"] == JOB
    assert payload["timestamp"].endswith("Z")
    assert request.headers["webhook-signature"].startswith("v1,")


def test_submitted_wastes_trigger_ingest_job_finished(org: Org, receiver: Receiver) -> None:
    endpoint = _create(org.api, receiver.answer("/from-wastes"))
    facility = org.api.post(
        "/v1/facilities", json={"name": "Plant", "type": "plant", "country": "ES"}
    ).json()
    record = {
        "facility_id": facility["id"],
        "identification_name": "Paper",
        "start_date": "2026-01-01",
        "end_date": "2026-01-31",
        "base_quantity": 12.5,
    }

    submitted = org.api.post(
        "/v2/wastes", json={"records": [record]}, headers={"Idempotency-Key": "webhook-e2e"}
    )
    [request] = _requests(receiver, "/from-wastes", 1)
    payload = Webhook(endpoint["secret"]).verify(request.body, request.headers)

    assert submitted.status_code == 202, submitted.text
    assert payload["type"] == "ingest_job.finished"
    assert payload["data"]["id"] == submitted.json()["id"]
    assert payload["data"]["finished_at"] is not None


def test_delivery_records_success_with_the_webhook_id(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/recorded"))

    _finish_job(webhook_sandbox, org)
    [delivery] = _ended_deliveries(org.api, endpoint["id"], 1)
    [request] = receiver.at("/recorded")

    assert delivery["status"] == "succeeded"
    assert delivery["event_type"] == "ingest_job.finished"
    assert delivery["attempt_count"] == 1
    assert delivery["last_status_code"] == 200
    assert delivery["next_attempt_at"] is None
    assert delivery["event_id"] == request.headers["webhook-id"]


def test_signature_does_not_verify_with_another_secret(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    _create(org.api, receiver.answer("/forged"))
    other_secret = _create(org.api, receiver.answer("/forged-other"))["secret"]

    _finish_job(webhook_sandbox, org)
    [request] = _requests(receiver, "/forged", 1)

    with pytest.raises(Exception, match="No matching signature"):
        Webhook(other_secret).verify(request.body, request.headers)


def test_only_enabled_subscribed_endpoints_of_the_organization_receive(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    _create(org.api, receiver.answer("/enabled"))
    _create(org.api, receiver.answer("/disabled"), enabled=False)
    with webhook_sandbox.client() as other_org:  # Org A's admin
        _create(other_org, receiver.answer("/other-org"))

    _finish_job(webhook_sandbox, org)
    _requests(receiver, "/enabled", 1)
    time.sleep(0.5)

    assert receiver.at("/disabled") == []
    assert receiver.at("/other-org") == []


def test_test_event_is_sent_as_webhook_test(org: Org, receiver: Receiver) -> None:
    endpoint = _create(org.api, receiver.answer("/test-event"))

    response = org.api.post(f"/v2/webhook-endpoints/{endpoint['id']}/test")
    [request] = _requests(receiver, "/test-event", 1)
    payload = Webhook(endpoint["secret"]).verify(request.body, request.headers)

    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    assert payload["type"] == "webhook.test"
    assert payload["api_version"] == "2026-10-05"
    assert payload["data"]["endpoint_id"] == endpoint["id"]


def test_failed_attempts_are_retried_with_the_same_webhook_id_then_failed(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/always-500", 500))

    _finish_job(webhook_sandbox, org)
    [delivery] = _ended_deliveries(org.api, endpoint["id"], 1)
    attempts = receiver.at("/always-500")

    assert delivery["status"] == "failed"
    assert delivery["attempt_count"] == 5
    assert delivery["last_status_code"] == 500
    assert len(attempts) == 5
    assert {a.headers["webhook-id"] for a in attempts} == {delivery["event_id"]}
    assert _endpoint(org.api, endpoint["id"])["consecutive_failures"] == 1


def test_deliveries_can_be_filtered_by_status(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/filtered", 500, 500, 500, 500, 500, 200))
    _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 1)
    _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 2)

    path = f"/v2/webhook-endpoints/{endpoint['id']}/deliveries"
    failed = org.api.get(path, params={"status": "failed"}).json()
    succeeded = org.api.get(path, params={"status": "succeeded"}).json()

    assert [d["status"] for d in failed["items"]] == ["failed"]
    assert [d["status"] for d in succeeded["items"]] == ["succeeded"]
    assert failed["total"] == succeeded["total"] == 1


def test_redirect_counts_as_a_failed_attempt(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/moved", (302, {"location": "/elsewhere"}), 200))

    _finish_job(webhook_sandbox, org)
    [delivery] = _ended_deliveries(org.api, endpoint["id"], 1)

    assert delivery["status"] == "succeeded"
    assert delivery["attempt_count"] == 2
    assert receiver.at("/elsewhere") == []


def test_unreachable_receiver_is_retried_then_failed(webhook_sandbox: Sandbox, org: Org) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there any more
    endpoint = _create(org.api, f"http://127.0.0.1:{port}/gone")

    _finish_job(webhook_sandbox, org)
    [delivery] = _ended_deliveries(org.api, endpoint["id"], 1)

    assert delivery["status"] == "failed"
    assert delivery["last_status_code"] is None
    assert delivery["last_error"].startswith("CONNECTION_ERROR")


def test_retry_after_on_429_is_honoured(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    _create(org.api, receiver.answer("/throttled", (429, {"retry-after": "1"}), 200))

    _finish_job(webhook_sandbox, org)
    first, second = _requests(receiver, "/throttled", 2)

    assert second.at - first.at >= 0.95  # the sandbox's own schedule would wait 0.2 s


def test_five_failed_deliveries_in_a_row_disable_the_endpoint(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/down", 503))

    for _ in range(5):
        _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 5)
    state = _endpoint(org.api, endpoint["id"])

    assert state["enabled"] is False
    assert state["disabled_reason"] == "TOO_MANY_FAILURES"
    assert state["consecutive_failures"] == 5


def test_success_resets_consecutive_failures(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/flaky", 500, 500, 500, 500, 500, 200))
    _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 1)
    assert _endpoint(org.api, endpoint["id"])["consecutive_failures"] == 1

    _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 2)

    assert _endpoint(org.api, endpoint["id"])["consecutive_failures"] == 0


def _disabled_endpoint(webhook_sandbox: Sandbox, org: Org, receiver: Receiver, path: str) -> dict:
    endpoint = _create(org.api, receiver.answer(path, 500))
    for _ in range(5):
        _finish_job(webhook_sandbox, org)
    _ended_deliveries(org.api, endpoint["id"], 5)
    return endpoint


def test_reenabling_clears_the_reason_and_the_counter(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _disabled_endpoint(webhook_sandbox, org, receiver, "/reenable")

    response = org.api.patch(f"/v2/webhook-endpoints/{endpoint['id']}", json={"enabled": True})

    assert response.status_code == 200
    assert response.json()["enabled"] is True
    assert response.json()["disabled_reason"] is None
    assert response.json()["consecutive_failures"] == 0


def test_retry_resends_a_failed_delivery_with_the_same_webhook_id(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _disabled_endpoint(webhook_sandbox, org, receiver, "/retried")
    org.api.patch(f"/v2/webhook-endpoints/{endpoint['id']}", json={"enabled": True})
    receiver.answer("/retried", 200)
    failed = _deliveries(org.api, endpoint["id"])[0]

    response = org.api.post(
        f"/v2/webhook-endpoints/{endpoint['id']}/deliveries/{failed['id']}/retry"
    )
    resent = _requests(receiver, "/retried", 5 * 5 + 1)[-1]
    _wait_until(lambda: _delivery(org.api, endpoint["id"], failed["id"])["status"] == "succeeded")

    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    assert resent.headers["webhook-id"] == failed["event_id"]
    assert Webhook(endpoint["secret"]).verify(resent.body, resent.headers)["type"] == (
        "ingest_job.finished"
    )


def test_retry_of_a_delivery_to_a_disabled_endpoint_is_refused(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _disabled_endpoint(webhook_sandbox, org, receiver, "/still-disabled")
    failed = _deliveries(org.api, endpoint["id"])[0]

    response = org.api.post(
        f"/v2/webhook-endpoints/{endpoint['id']}/deliveries/{failed['id']}/retry"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "ENDPOINT_DISABLED"


def test_retry_of_a_succeeded_delivery_is_refused(
    webhook_sandbox: Sandbox, org: Org, receiver: Receiver
) -> None:
    endpoint = _create(org.api, receiver.answer("/done"))
    _finish_job(webhook_sandbox, org)
    [delivered] = _ended_deliveries(org.api, endpoint["id"], 1)

    response = org.api.post(
        f"/v2/webhook-endpoints/{endpoint['id']}/deliveries/{delivered['id']}/retry"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "DELIVERY_NOT_FAILED"


def test_test_event_to_a_disabled_endpoint_is_refused(org: Org, receiver: Receiver) -> None:
    endpoint = _create(org.api, receiver.answer("/off"), enabled=False)

    response = org.api.post(f"/v2/webhook-endpoints/{endpoint['id']}/test")

    assert response.status_code == 409
    assert response.json()["code"] == "ENDPOINT_DISABLED"


def test_pending_deliveries_are_resumed_by_a_new_worker(tmp_path: Path, receiver: Receiver) -> None:
    db = Database(tmp_path / "restart.db")
    db.migrate()
    with db.transaction() as conn:
        org_id = create_organization(conn, "Restarted org")
        url = receiver.answer("/resumed")
        store.insert_endpoint(
            conn, org_id, url, None, ["ingest_job.finished"], True, "whsec_" + "A" * 44
        )
    enqueue_event(db, org_id, "ingest_job.finished", JOB)  # queued while no worker runs

    worker = DeliveryWorker(db, allow_private=True, retry_delays=FAST_RETRIES)
    worker.start()
    try:
        [request] = _requests(receiver, "/resumed", 1)
    finally:
        worker.stop()

    assert json.loads(request.body)["data"] == JOB
