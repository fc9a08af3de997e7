"""What the limiter learns from rate-limit headers: the readings and the server's window."""

from __future__ import annotations

import math

import httpx
import pytest

from emissions_etl.client._rate_headers import RateReading, read_rate_headers
from emissions_etl.client._server_window import MARGIN, ServerWindow

SANDBOX_HEADERS = {
    "X-RateLimit-Limit": "30",
    "X-RateLimit-Remaining": "12",
    "X-RateLimit-Reset": "1800000001",
    "RateLimit-Policy": "30;w=1",
    "RateLimit": "limit=30, remaining=12, reset=1",
}


def test_the_sandbox_headers_are_read() -> None:
    reading = read_rate_headers(httpx.Headers(SANDBOX_HEADERS))
    assert reading == RateReading(
        limit=30, window_seconds=1.0, remaining=12, reset_at=1_800_000_001.0, reset_in=1.0
    )


def test_the_ietf_structured_form_is_read() -> None:
    headers = httpx.Headers(
        {"RateLimit-Policy": '"default";q=100;w=60', "RateLimit": '"default";r=7;t=42'}
    )
    assert read_rate_headers(headers) == RateReading(
        limit=100, window_seconds=60.0, remaining=7, reset_in=42.0
    )


def test_a_small_x_ratelimit_reset_is_read_as_seconds_to_wait() -> None:
    reading = read_rate_headers(httpx.Headers({"X-RateLimit-Reset": "3"}))
    assert (reading.reset_at, reading.reset_in) == (None, 3.0)


def test_garbage_headers_say_nothing() -> None:
    headers = httpx.Headers(
        {"X-RateLimit-Limit": "many", "X-RateLimit-Reset": "nan", "RateLimit": "x=y"}
    )
    assert read_rate_headers(headers) == RateReading()


def answer(server_time: float, limit: int = 30, remaining: int = 10) -> RateReading:
    """The reading of an answer counted at ``server_time`` by a fixed one-second window."""
    reset = math.floor(server_time) + 1
    return RateReading(
        limit=limit,
        window_seconds=1.0,
        remaining=remaining,
        reset_at=float(reset),
        reset_in=float(max(1, math.ceil(reset - server_time))),
    )


def test_answers_on_each_side_of_a_rollover_pin_the_clock_offset_down() -> None:
    window, offset = ServerWindow(30, 1.0), 1234.3  # the server is 1234.3 s ahead
    for local in (100.05, 100.5, 100.65, 100.75, 101.2):
        window.settle(answer(local + offset), local, local + 0.01, 200)
    low, high = window.offset_bounds
    assert low <= offset <= high
    assert high - low <= 0.12


def test_a_token_comes_back_when_the_servers_window_surely_ended() -> None:
    window, offset = ServerWindow(30, 1.0), -0.25  # the server's windows roll over at our x.25
    window.settle(answer(100.2 + offset), 100.2, 100.2, 200)  # counted just before one
    window.settle(answer(100.3 + offset), 100.3, 100.3, 200)  # and just after
    settled = window.settle(answer(100.8 + offset), 100.8, 100.8, 200)
    assert settled.returns_at == pytest.approx(101.25 + MARGIN, abs=0.06)  # the next rollover
    assert settled.returns_at < 100.8 + 1.0  # not one window after the answer


def test_before_any_reset_a_token_comes_back_one_window_after_its_answer() -> None:
    settled = ServerWindow(30, 1.0).settle(RateReading(), 5.0, 5.2, 200)
    assert settled.returns_at == 6.2
    assert settled.server_used is None


def test_the_server_says_how_many_it_counted() -> None:
    settled = ServerWindow(30, 1.0).settle(answer(10.5, remaining=4), 10.5, 10.5, 200)
    assert settled.server_used == 26
    assert settled.used_until == settled.returns_at


def test_the_servers_limit_and_window_replace_the_policys_guess() -> None:
    window = ServerWindow.for_rate(30)
    window.settle(RateReading(limit=20, window_seconds=2.0), 1.0, 1.0, 200)
    assert (window.limit, window.window_seconds) == (20, 2.0)


def test_a_rate_below_one_per_second_is_one_request_per_longer_window() -> None:
    window = ServerWindow.for_rate(0.25)
    assert (window.limit, window.window_seconds) == (1, 4.0)


def test_a_clock_step_makes_it_forget_what_it_knew() -> None:
    window = ServerWindow(30, 1.0)
    for local in (100.4, 100.6):
        window.settle(answer(local), local, local, 200)
    window.settle(answer(200.6 + 5.0), 200.6, 200.6, 200)  # the server's clock jumped 5 s
    low, high = window.offset_bounds
    assert low <= 5.0 <= high


def test_a_429_blocks_until_retry_after_and_forgets_the_offset() -> None:
    window = ServerWindow(30, 1.0)
    for local in (100.4, 100.6):
        window.settle(answer(local), local, local, 200)
    settled = window.settle(answer(100.7, remaining=0), 100.7, 100.7, 429, retry_after=3.0)
    assert settled.blocked_until == pytest.approx(103.7)
    assert window.offset_bounds[1] - window.offset_bounds[0] == pytest.approx(1.0)
