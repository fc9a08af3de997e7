from __future__ import annotations

import threading
import time

import httpx

from emissions_etl.client.limiter import LimitPolicy, RateLimitTransport

RATE_LIMITED = "/v1/logistics/requests"
WALL_OFFSET = 1_800_000_000.0


class FakeClock:
    """Monotonic and wall time that move only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return WALL_OFFSET + self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


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
        clock=clock.monotonic,
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


def test_rate_limited_endpoint_still_gets_most_of_its_allowance() -> None:
    clock, sent_at = FakeClock(), []
    with limited_client(clock, sent_at=sent_at) as client:
        for _ in range(120):
            client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert 120 / sent_at[-1] >= 25


def test_remaining_zero_waits_until_reset() -> None:
    clock = FakeClock()
    sent_at: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        reset = str(int(clock.wall()) + 5)
        headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}
        return httpx.Response(201, headers=headers)

    with limited_client(clock, httpx.MockTransport(answer)) as client:
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
        client.post(RATE_LIMITED, headers={"x-api-key": "k"})
    assert sent_at[1] - sent_at[0] >= 5.0


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


def test_each_api_key_has_its_own_bucket() -> None:
    clock, sent_at = FakeClock(), []
    with limited_client(clock, sent_at=sent_at) as client:
        for _ in range(3):
            client.post(RATE_LIMITED, headers={"x-api-key": "first"})
        for _ in range(3):
            client.post(RATE_LIMITED, headers={"x-api-key": "second"})
    assert sent_at[3] == sent_at[4] == sent_at[5]  # second key's burst is untouched


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


def test_the_api_key_is_kept_only_as_a_hash() -> None:
    clock = FakeClock()
    transport = RateLimitTransport(
        httpx.MockTransport(lambda request: httpx.Response(201)),
        clock=clock.monotonic,
        wall_clock=clock.wall,
        sleep=clock.sleep,
    )
    with httpx.Client(transport=transport, base_url="https://service.test") as client:
        client.post(RATE_LIMITED, headers={"x-api-key": "sk_live_secret"})
    assert "sk_live_secret" not in repr(vars(transport))
