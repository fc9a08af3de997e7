"""The receiver's HTTP edge: what it refuses before verifying, and its life cycle."""

from __future__ import annotations

import socket

import httpx
import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.webhooks import EventVerifier, VerifiedEvent, WebhookReceiver
from emissions_etl.webhooks.receiver import parse_listen
from tests.webhooks.support import deliver, event_body, new_secret, signed_headers

pytestmark = pytest.mark.timeout(60)

SECRET = new_secret()


@pytest.fixture
def taken(receiver: WebhookReceiver) -> list[VerifiedEvent]:
    events: list[VerifiedEvent] = []
    receiver.arm(EventVerifier(SECRET), events.append)
    return events


def _raw(receiver: WebhookReceiver, request: bytes) -> bytes:
    """Send raw bytes, return what the receiver answers before it closes the connection."""
    with socket.create_connection(("127.0.0.1", receiver.port), timeout=5) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    return answer


def test_an_oversized_body_is_refused_413_before_it_is_read(
    receiver: WebhookReceiver, taken: list[VerifiedEvent]
) -> None:
    declared = receiver.max_body_bytes + 1
    # Only the headers and a few bytes are sent: an answer proves the rest was never awaited
    # (reading it would block until the 5 s socket time-out).
    answer = _raw(
        receiver,
        b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {declared}\r\n\r\n".encode()
        + b"{" * 100,
    )

    assert answer.startswith(b"HTTP/1.0 413 ")
    assert taken == []


def test_a_body_at_the_limit_is_read_and_verified(
    receiver: WebhookReceiver, taken: list[VerifiedEvent]
) -> None:
    body = event_body({"id": "x", "padding": ""})
    body = event_body({"id": "x", "padding": "p" * (receiver.max_body_bytes - len(body))})
    assert len(body) == receiver.max_body_bytes

    assert deliver(receiver.local_url, body, signed_headers(SECRET, body)) == 204
    assert [event.data["id"] for event in taken] == ["x"]


def test_a_body_without_content_length_is_refused_411(
    receiver: WebhookReceiver, taken: list[VerifiedEvent]
) -> None:
    answer = _raw(
        receiver,
        b"POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    )

    assert answer.startswith(b"HTTP/1.0 411 ")
    assert taken == []


def test_a_signed_body_that_is_not_an_event_is_refused_400(
    receiver: WebhookReceiver, taken: list[VerifiedEvent]
) -> None:
    not_json = b"\x7b not json"
    not_event = b'["a", "list"]'

    assert deliver(receiver.local_url, not_json, signed_headers(SECRET, not_json)) == 400
    assert deliver(receiver.local_url, not_event, signed_headers(SECRET, not_event)) == 400
    assert taken == []
    assert len(receiver.seen) == 0


def test_a_body_that_is_not_utf8_is_refused_401(
    receiver: WebhookReceiver, taken: list[VerifiedEvent]
) -> None:
    headers = signed_headers(SECRET, b"{}")

    assert deliver(receiver.local_url, b"\xff\xfe{}", headers) == 401
    assert taken == []


def test_an_unarmed_receiver_answers_503_so_the_service_retries() -> None:
    with WebhookReceiver("127.0.0.1:0") as receiver:
        body = event_body({"id": "x"})
        assert deliver(receiver.local_url, body, signed_headers(SECRET, body)) == 503
        assert len(receiver.seen) == 0


def test_a_sink_failure_answers_500_and_lets_the_retry_through(receiver: WebhookReceiver) -> None:
    calls: list[str] = []

    def flaky(event: VerifiedEvent) -> None:
        calls.append(event.webhook_id)
        if len(calls) == 1:
            raise RuntimeError("boom")

    receiver.arm(EventVerifier(SECRET), flaky)
    body = event_body({"id": "x"})
    headers = signed_headers(SECRET, body, webhook_id="evt_retry")

    assert deliver(receiver.local_url, body, headers) == 500
    assert deliver(receiver.local_url, body, headers) == 204
    assert calls == ["evt_retry", "evt_retry"]


def test_other_methods_are_not_served(receiver: WebhookReceiver) -> None:
    assert httpx.get(receiver.local_url + "/hook").status_code == 501


def test_stop_closes_the_port() -> None:
    receiver = WebhookReceiver("127.0.0.1:0")
    receiver.start()
    receiver.stop()

    with pytest.raises(httpx.ConnectError):
        httpx.post(receiver.local_url, content=b"{}")


def test_a_taken_port_is_a_configuration_error(receiver: WebhookReceiver) -> None:
    with pytest.raises(ConfigurationError, match="cannot listen on"):
        WebhookReceiver(f"127.0.0.1:{receiver.port}")


@pytest.mark.parametrize(
    ("listen", "expected"),
    [
        ("127.0.0.1:8787", ("127.0.0.1", 8787)),
        ("[::1]:0", ("::1", 0)),
        ("0.0.0.0:1", ("0.0.0.0", 1)),
    ],
)
def test_listen_is_host_and_port(listen: str, expected: tuple[str, int]) -> None:
    assert parse_listen(listen) == expected


@pytest.mark.parametrize("listen", ["8787", ":8787", "host:", "host:port", "host:70000"])
def test_a_malformed_listen_is_a_configuration_error(listen: str) -> None:
    with pytest.raises(ConfigurationError, match="EMISSIONS_WEBHOOK_LISTEN"):
        parse_listen(listen)
