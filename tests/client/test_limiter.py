"""RateLimitTransport with an injected clock: fast and deterministic, no socket.

The service's side is a fake of the remote end (``FixedWindowServer``), written from the sandbox
README: fixed one-second windows per key and route on the server's own clock, the sandbox's
headers, 429 over the limit.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter

import httpx
import pytest

from emissions_etl.client.limiter import LimitPolicy, RateLimitTransport

RATE_LIMITED = "/v1/logistics/requests"
WALL_OFFSET = 1_800_000_000.0  # a whole number of seconds: windows start on whole seconds


class FakeClock:
    """Wall time that moves only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def wall(self) -> float:
        return WALL_OFFSET + self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class FixedWindowServer:
    """``limit`` requests per fixed window of the server's clock (ours + ``skew``)."""

    def __init__(
        self, clock: FakeClock, *, limit: int = 30, window: float = 1.0, skew: float = 0.0
    ) -> None:
        self.clock, self.limit, self.window, self.skew = clock, limit, window, skew
        self.counts: Counter[int] = Counter()  # requests allowed per window (its reset)
        self.statuses: list[int] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        server_now = self.clock.wall() + self.skew
        reset = int(math.floor(server_now / self.window) * self.window + self.window)
        allowed = self.counts[reset] < self.limit
        self.counts[reset] += allowed
        remaining = self.limit - self.counts[reset]
        reset_in = max(1, math.ceil(reset - server_now))
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": str(reset),
            "RateLimit-Policy": f"{self.limit};w={self.window:g}",
            "RateLimit": f"limit={self.limit}, remaining={remaining}, reset={reset_in}",
        }
        status = 200 if allowed else 429
        if not allowed:
            headers["Retry-After"] = str(reset_in)
        self.statuses.append(status)
        return httpx.Response(status, headers=headers)


def limited_client(
    clock: FakeClock,
    handler: httpx.MockTransport | None = None,
    policies: dict[tuple[str, str], LimitPolicy] | None = None,
    sent_at: list[float] | None = None,
) -> httpx.Client:
    def answer(request: httpx.Request) -> httpx.Response:
        if sent_at is not None:
            sent_at.append(clock.now)
        return httpx.Response(201)

    transport = RateLimitTransport(
        handler or httpx.MockTransport(answer),
        policies=policies,
        wall_clock=clock.wall,
        sleep=clock.sleep,
    )
    return httpx.Client(transport=transport, base_url="https://service.test")


def test_rate_limited_endpoint_never_exceeds_its_rate_in_any_second() -> None:
    clock, sent_at = FakeClock(), []
    with limited_client(clock, sent_at=sent_at) as client:
        for _ in range(120):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    busiest = max(sum(1 for t in sent_at if start <= t < start + 1.0) for start in sent_at)
    assert busiest <= 30


def test_without_headers_a_token_comes_back_one_window_after_its_answer() -> None:
    clock, sent_at = FakeClock(), []
    with limited_client(clock, sent_at=sent_at) as client:
        for _ in range(120):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert Counter(round(t, 6) for t in sent_at) == {0.0: 30, 1.0: 30, 2.0: 30, 3.0: 30}


@pytest.mark.parametrize("skew", [0.0, 0.4, -0.3, 0.999, 3600.25])
def test_a_fixed_window_server_gets_its_whole_allowance_and_no_429(skew: float) -> None:
    clock = FakeClock()
    server = FixedWindowServer(clock, skew=skew)
    with limited_client(clock, httpx.MockTransport(server)) as client:
        for _ in range(300):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert 429 not in server.statuses
    assert sorted(server.counts.values()) == [30] * 10  # ten windows, each spent whole


def test_with_a_round_trip_each_window_is_still_spent_whole() -> None:
    clock = FakeClock()
    server = FixedWindowServer(clock, skew=0.3)

    def answer_after_a_round_trip(request: httpx.Request) -> httpx.Response:
        clock.sleep(0.005)
        response = server(request)
        clock.sleep(0.005)
        return response

    with limited_client(clock, httpx.MockTransport(answer_after_a_round_trip)) as client:
        for _ in range(300):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert 429 not in server.statuses
    assert sorted(server.counts.values())[1:] == [30] * (len(server.counts) - 1)
    assert len(server.counts) <= 11


def test_tokens_come_back_as_the_servers_window_rolls_over_not_a_window_later() -> None:
    clock = FakeClock()
    server = FixedWindowServer(clock, skew=0.6)  # the server's windows roll over at our x.4
    with limited_client(clock, httpx.MockTransport(server)) as client:
        clock.sleep(0.39)
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})  # counted just before a rollover
        clock.sleep(0.02)
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})  # and just after: offset pinned
        clock.sleep(0.49)
        for _ in range(29):  # at 0.9: the rest of the window that rolls over at 1.4
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert 429 not in server.statuses
    assert clock.now == pytest.approx(1.41, abs=0.005)  # at the rollover, not at 0.9 + 1


def test_a_window_partly_spent_by_someone_else_is_respected() -> None:
    clock = FakeClock()
    server = FixedWindowServer(clock)
    server.counts[int(WALL_OFFSET) + 1] = 20  # another tool spent 20 of this window
    with limited_client(clock, httpx.MockTransport(server)) as client:
        for _ in range(40):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert 429 not in server.statuses
    assert server.counts[int(WALL_OFFSET) + 1] == 30


def test_remaining_zero_waits_for_the_servers_window_to_end() -> None:
    clock = FakeClock()
    server = FixedWindowServer(clock, limit=1, window=5.0)  # RateLimit-Policy: 1;w=5
    sent_at: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        return server(request)

    with limited_client(clock, httpx.MockTransport(answer)) as client:
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert sent_at[1] - sent_at[0] >= 5.0
    assert 429 not in server.statuses


def test_a_429_blocks_the_bucket_for_its_retry_after() -> None:
    clock = FakeClock()
    sent_at: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        return httpx.Response(429, headers={"Retry-After": "2"})

    with limited_client(clock, httpx.MockTransport(answer)) as client:
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert sent_at[1] - sent_at[0] >= 2.0


def test_a_request_that_failed_keeps_its_token_a_whole_window() -> None:
    clock = FakeClock()
    sent_at: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        raise httpx.ReadTimeout("no answer", request=request)  # it may have been counted

    policies = {("POST", RATE_LIMITED): LimitPolicy(rate_per_second=2)}
    with limited_client(clock, httpx.MockTransport(answer), policies=policies) as client:
        for _ in range(3):
            with pytest.raises(httpx.ReadTimeout):
                client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert sent_at == [0.0, 0.0, 1.0]


def test_each_api_key_has_its_own_bucket() -> None:
    clock, sent_at = FakeClock(), []
    with limited_client(clock, sent_at=sent_at) as client:
        for _ in range(30):
            client.post(RATE_LIMITED, headers={"x-api-key": "first"})
        for _ in range(3):
            client.post(RATE_LIMITED, headers={"x-api-key": "second"})
    assert sent_at[-3:] == [0.0, 0.0, 0.0]  # the first key's spent window does not hold it


def test_endpoint_without_policy_passes_straight_through() -> None:
    clock = FakeClock()
    with limited_client(clock) as client:
        for _ in range(200):
            client.post("/v2/wastes", headers={"x-api-key": "k"})
    assert clock.sleeps == []


def test_path_templates_match_ids_and_a_base_url_prefix() -> None:
    clock = FakeClock()
    policies = {("GET", "/v1/facilities/{facility_id}"): LimitPolicy(rate_per_second=1)}
    with limited_client(clock, policies=policies) as client:
        client.get("/api/v1/facilities/abc")
        client.get("/api/v1/facilities/def")
        client.get("/api/v1/facilities")
    assert len(clock.sleeps) >= 1


def test_concurrency_cap_holds_across_threads() -> None:
    in_flight = 0
    busiest = 0
    lock = threading.Lock()

    def answer(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, busiest
        with lock:
            in_flight += 1
            busiest = max(busiest, in_flight)
        time.sleep(0.01)
        with lock:
            in_flight -= 1
        return httpx.Response(202)

    policies = {("POST", "/v1/logistics/requests/bulk"): LimitPolicy(max_concurrency=3)}
    transport = RateLimitTransport(httpx.MockTransport(answer), policies=policies)
    with httpx.Client(transport=transport, base_url="https://service.test") as client:

        def post() -> None:
            for _ in range(3):
                client.post("/v1/logistics/requests/bulk", headers={"x-api-key": "k"})

        threads = [threading.Thread(target=post) for _ in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert busiest == 3


def test_a_concurrency_slot_is_held_until_the_body_is_read() -> None:
    policies = {("POST", "/v1/logistics/requests/bulk"): LimitPolicy(max_concurrency=1)}
    transport = RateLimitTransport(
        httpx.MockTransport(lambda request: httpx.Response(202, content=b"{}")),
        policies=policies,
    )
    with httpx.Client(transport=transport, base_url="https://service.test") as client:
        request = client.build_request("POST", "/v1/logistics/requests/bulk")
        unread = client.send(request, stream=True)
        second: list[int] = []
        waiter = threading.Thread(
            target=lambda: second.append(client.post(request.url.path).status_code)
        )
        waiter.start()
        waiter.join(timeout=0.2)
        assert second == []  # still waiting for the only slot
        unread.read()
        unread.close()
        waiter.join(timeout=5)
    assert second == [202]


def test_the_api_key_is_kept_only_as_a_hash() -> None:
    clock = FakeClock()
    transport = RateLimitTransport(
        httpx.MockTransport(lambda request: httpx.Response(201)),
        wall_clock=clock.wall,
        sleep=clock.sleep,
    )
    with httpx.Client(transport=transport, base_url="https://service.test") as client:
        client.post(RATE_LIMITED, headers={"x-api-key": "sk_live_secret"})
    assert "sk_live_secret" not in repr(vars(transport))
