"""The limiter against the sandbox's own limits (fixed one-second windows of 30 per key and
route, 10 in flight), over real HTTPS; two processes share one key through one limits file.

Each test uses a fresh organization, so no other test has spent its key's windows.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from queue import Empty
from typing import Any

import httpx

from emissions_etl.client import (
    ApiKeyAuth,
    EmissionsClient,
    LimitPolicy,
    LocalTokenSource,
    RateLimitTransport,
)
from emissions_etl.errors import RateLimitedError
from tests.sandbox_fixture import SandboxServer, create_org, tls_context

RATE_ROUTE = "/_test/rate-limited"
SLOT_ROUTE = "/_test/concurrency-limited"
POLICIES = {
    ("POST", RATE_ROUTE): LimitPolicy(rate_per_second=30),
    ("POST", SLOT_ROUTE): LimitPolicy(max_concurrency=10),
}


def post_many(
    server: Mapping[str, str],
    route: str,
    *,
    threads: int,
    each: int,
    limits_file: str | None = None,
    params: Mapping[str, Any] | None = None,
    start: Any = None,
) -> list[tuple[int, int | None]]:
    """``threads`` threads post ``each`` requests; (status, X-RateLimit-Reset) per request.

    ``start`` (a barrier shared with other processes) is passed once every thread has its
    connection, so the processes begin together.
    """
    transport = RateLimitTransport(
        httpx.HTTPTransport(verify=tls_context(Path(server["ca_file"]))),
        policies=POLICIES,
        shared_budget_path=Path(limits_file) if limits_file else None,
    )
    headers = {"x-api-key": server["api_key"], "x-organization-id": server["organization_id"]}
    results: list[tuple[int, int | None]] = []
    warm, go = threading.Barrier(threads + 1), threading.Barrier(threads + 1)
    with httpx.Client(
        base_url=server["base_url"], transport=transport, headers=headers, timeout=30
    ) as client:

        def work() -> None:
            client.get("/_test/org-admin").raise_for_status()  # its connection, unlimited
            warm.wait()
            go.wait()
            for _ in range(each):
                response = client.post(route, params=params)
                reset = response.headers.get("x-ratelimit-reset")
                results.append((response.status_code, int(reset) if reset else None))

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        warm.wait()
        if start is not None:
            start.wait(timeout=60)
        go.wait()
        for worker in workers:
            worker.join()
    return results


def _post_many_in_child(queue: Any, *args: Any, **kwargs: Any) -> None:
    queue.put(post_many(*args, **kwargs))


def in_two_processes(route: str, **kwargs: Any) -> list[tuple[int, int | None]]:
    """``post_many`` in two fresh processes (spawned) starting together; every result."""
    context = multiprocessing.get_context("spawn")
    queue, start = context.Queue(), context.Barrier(2)
    children = [
        context.Process(
            target=_post_many_in_child,
            args=(queue,),
            kwargs={**kwargs, "route": route, "start": start},
        )
        for _ in range(2)
    ]
    for child in children:
        child.start()
    results: list[tuple[int, int | None]] = []
    for _ in children:
        while True:
            try:
                results.extend(queue.get(timeout=1))
                break
            except Empty:
                assert not any(child.exitcode for child in children), "a child failed (above)"
    for child in children:
        child.join(timeout=30)
    return results


def fresh_key(sandbox: SandboxServer, name: str) -> dict[str, str]:
    org = create_org(sandbox.db_path, name)
    return {
        "base_url": sandbox.base_url,
        "ca_file": str(sandbox.ca_file),
        "api_key": org.api_key,
        "organization_id": org.organization_id,
    }


def test_sixty_requests_to_the_30_per_second_route_earn_no_429(sandbox: SandboxServer) -> None:
    results = post_many(fresh_key(sandbox, "Limits sixty"), RATE_ROUTE, threads=4, each=15)
    assert Counter(status for status, _ in results) == {200: 60}


def test_two_processes_sharing_the_limits_file_earn_no_429(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    server = fresh_key(sandbox, "Limits shared")
    results = in_two_processes(
        RATE_ROUTE, server=server, threads=3, each=12, limits_file=str(tmp_path / "limits")
    )
    assert Counter(status for status, _ in results) == {200: 72}


def test_two_processes_share_the_concurrency_cap(sandbox: SandboxServer, tmp_path: Path) -> None:
    server = fresh_key(sandbox, "Limits slots")
    results = in_two_processes(
        SLOT_ROUTE,
        server=server,
        threads=8,
        each=2,
        limits_file=str(tmp_path / "limits"),
        params={"hold": 0.2},
    )
    assert Counter(status for status, _ in results) == {200: 32}


def test_two_clients_given_one_token_source_share_the_concurrency_cap(
    sandbox: SandboxServer,
) -> None:
    server = fresh_key(sandbox, "Limits one source")
    source = LocalTokenSource()
    statuses: list[int] = []

    def client() -> EmissionsClient:
        return EmissionsClient(
            server["base_url"],
            ApiKeyAuth(server["api_key"], server["organization_id"]),
            ca_file=server["ca_file"],
            policies=POLICIES,
            token_source=source,
            max_attempts=1,  # a 429 would surface, not be retried
        )

    def work(each: EmissionsClient) -> None:
        for _ in range(2):
            try:
                statuses.append(each.request("POST", SLOT_ROUTE, params={"hold": 0.2}).status_code)
            except RateLimitedError as error:
                statuses.append(error.status)

    with client() as first, client() as second:
        threads = [threading.Thread(target=work, args=(c,)) for c in (first, second) * 8]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert Counter(statuses) == {200: 32}
