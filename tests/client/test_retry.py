from __future__ import annotations

import email.utils
import logging
import ssl

import httpx
import pytest

from emissions_etl.client.retry import RetryTransport, backoff_delay, parse_retry_after

NOW = 1_800_000_000.0


def test_retry_after_in_seconds_is_parsed() -> None:
    assert parse_retry_after("7") == 7.0


def test_retry_after_zero_means_no_hint() -> None:
    assert parse_retry_after("0") is None


def test_retry_after_missing_or_garbage_means_no_hint() -> None:
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None


def test_retry_after_http_date_is_seconds_from_now() -> None:
    value = email.utils.formatdate(NOW + 30, usegmt=True)
    assert parse_retry_after(value, now=NOW) == pytest.approx(30.0)


def test_retry_after_http_date_in_the_past_means_no_hint() -> None:
    value = email.utils.formatdate(NOW - 30, usegmt=True)
    assert parse_retry_after(value, now=NOW) is None


def test_backoff_doubles_per_attempt_and_is_capped() -> None:
    full = [backoff_delay(n, base=0.5, maximum=30.0, rng=lambda: 1.0) for n in range(1, 9)]
    assert full == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


def test_backoff_is_full_jitter() -> None:
    assert backoff_delay(3, base=0.5, maximum=30.0, rng=lambda: 0.25) == 0.5


class Script:
    """A server that answers each call with the next scripted reply (a Response or an exception)."""

    def __init__(self, *replies: httpx.Response | Exception) -> None:
        self.replies = list(replies)
        self.calls: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def send(
    script: Script, method: str = "GET", headers: dict[str, str] | None = None, **options: object
) -> tuple[httpx.Response, list[float]]:
    sleeps: list[float] = []
    transport = RetryTransport(
        httpx.MockTransport(script), sleep=sleeps.append, rng=lambda: 1.0, **options
    )
    with httpx.Client(transport=transport, base_url="https://service.test") as client:
        response = client.request(method, "/v2/wastes", headers=headers, json={"records": []})
    return response, sleeps


def test_429_with_retry_after_waits_the_hinted_seconds() -> None:
    script = Script(httpx.Response(429, headers={"Retry-After": "3"}), httpx.Response(200))
    response, sleeps = send(script)
    assert response.status_code == 200
    assert sleeps == [3.0]


def test_429_with_retry_after_zero_falls_back_to_backoff() -> None:
    script = Script(httpx.Response(429, headers={"Retry-After": "0"}), httpx.Response(200))
    _, sleeps = send(script)
    assert sleeps == [0.5]


def test_retry_after_is_capped() -> None:
    script = Script(httpx.Response(429, headers={"Retry-After": "3600"}), httpx.Response(200))
    _, sleeps = send(script, retry_after_max=120.0)
    assert sleeps == [120.0]


def test_server_errors_on_get_are_retried_with_growing_backoff() -> None:
    script = Script(
        httpx.Response(500), httpx.Response(502), httpx.Response(503), httpx.Response(200)
    )
    response, sleeps = send(script)
    assert response.status_code == 200
    assert sleeps == [0.5, 1.0, 2.0]


def test_post_without_idempotency_key_is_not_retried_after_a_500() -> None:
    script = Script(httpx.Response(500), httpx.Response(200))
    response, _ = send(script, method="POST")
    assert response.status_code == 500
    assert len(script.calls) == 1


def test_post_with_idempotency_key_is_retried_after_a_500() -> None:
    script = Script(httpx.Response(500), httpx.Response(202))
    response, _ = send(script, method="POST", headers={"Idempotency-Key": "k1"})
    assert response.status_code == 202
    assert script.calls[1].content == script.calls[0].content == b'{"records":[]}'


def test_post_without_idempotency_key_is_retried_after_a_429() -> None:
    script = Script(httpx.Response(429), httpx.Response(201))
    response, _ = send(script, method="POST")
    assert response.status_code == 201


def test_connect_error_is_retried_even_for_a_bare_post() -> None:
    script = Script(httpx.ConnectError("refused"), httpx.Response(201))
    response, _ = send(script, method="POST")
    assert response.status_code == 201


def test_a_connection_cut_during_the_tls_handshake_is_retried() -> None:
    """A loaded server may close a connection mid-handshake; the next one goes through."""
    cut = httpx.ConnectError("[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred")
    cut.__cause__ = ssl.SSLEOFError(8, "EOF occurred in violation of protocol")
    script = Script(cut, httpx.Response(204))
    response, _ = send(script, method="DELETE")
    assert response.status_code == 204
    assert len(script.calls) == 2


def test_an_untrusted_certificate_is_not_retried() -> None:
    refused = httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed")
    refused.__cause__ = ssl.SSLCertVerificationError(1, "certificate verify failed")
    script = Script(refused, httpx.Response(204))
    with pytest.raises(httpx.ConnectError):
        send(script, method="DELETE")
    assert len(script.calls) == 1


def test_read_timeout_on_a_bare_post_is_not_retried() -> None:
    script = Script(httpx.ReadTimeout("slow"), httpx.Response(201))
    with pytest.raises(httpx.ReadTimeout):
        send(script, method="POST")
    assert len(script.calls) == 1


def test_connection_reset_on_an_idempotent_post_is_retried() -> None:
    script = Script(httpx.RemoteProtocolError("reset"), httpx.Response(202))
    response, _ = send(script, method="POST", headers={"Idempotency-Key": "k1"})
    assert response.status_code == 202


def test_the_last_response_is_returned_when_attempts_run_out() -> None:
    script = Script(*[httpx.Response(503) for _ in range(3)])
    response, sleeps = send(script, max_attempts=3)
    assert response.status_code == 503
    assert len(sleeps) == 2


def test_the_last_error_is_raised_when_attempts_run_out() -> None:
    script = Script(*[httpx.ConnectError("refused") for _ in range(3)])
    with pytest.raises(httpx.ConnectError):
        send(script, max_attempts=3)
    assert len(script.calls) == 3


def test_client_errors_are_not_retried() -> None:
    script = Script(httpx.Response(422), httpx.Response(200))
    response, sleeps = send(script)
    assert response.status_code == 422
    assert sleeps == []


def test_each_retry_logs_one_warning_with_cause_and_wait(caplog: pytest.LogCaptureFixture) -> None:
    script = Script(httpx.Response(429, headers={"Retry-After": "2"}), httpx.Response(200))
    with caplog.at_level(logging.WARNING, logger="emissions_etl.client"):
        send(script)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["GET /v2/wastes: 429 on attempt 1, retrying in 2.00s"]
