from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from emissions_etl.client import ApiKeyAuth, EmissionsClient, iter_pages
from emissions_etl.errors import (
    AuthenticationError,
    ConfigurationError,
    IngestJobError,
    NotFoundError,
    TransportError,
    ValidationFailedError,
)

SECRET = "sk_test_do_not_leak"


def client_for(
    handler: Callable[[httpx.Request], httpx.Response], **options: Any
) -> EmissionsClient:
    return EmissionsClient(
        "https://service.test",
        ApiKeyAuth(SECRET, "org-1"),
        transport=httpx.MockTransport(handler),
        **options,
    )


@pytest.mark.parametrize(
    "url", ["http://service.example.com", "http://10.0.0.5:8000", "ftp://127.0.0.1"]
)
def test_plain_http_off_loopback_is_refused(url: str) -> None:
    with pytest.raises(ConfigurationError):
        EmissionsClient(url, ApiKeyAuth(SECRET, "org-1"))


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8000", "http://127.8.9.1", "http://[::1]:8000", "http://localhost:8000"],
)
def test_plain_http_on_loopback_is_allowed(url: str) -> None:
    EmissionsClient(url, ApiKeyAuth(SECRET, "org-1")).close()


def test_unusable_ca_file_is_a_configuration_error(tmp_path: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    with pytest.raises(ConfigurationError):
        EmissionsClient("https://service.test", ApiKeyAuth(SECRET, "org-1"), ca_file=bad)


def test_error_status_raises_the_typed_error() -> None:
    def missing(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"detail": "Facility not found", "code": "NOT_FOUND"})

    with client_for(missing) as client, pytest.raises(NotFoundError) as caught:
        client.get_facility("f-1")
    assert caught.value.code == "NOT_FOUND"


def test_unreachable_service_raises_transport_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    with client_for(refuse, max_attempts=1) as client, pytest.raises(TransportError) as caught:
        client.list_units()
    assert caught.value.transient


def paged(total: int, *, with_pages: bool) -> Callable[[httpx.Request], httpx.Response]:
    items = [{"id": n} for n in range(total)]

    def serve(request: httpx.Request) -> httpx.Response:
        page, size = int(request.url.params["page"]), int(request.url.params["size"])
        body: dict[str, Any] = {
            "items": items[(page - 1) * size : page * size],
            "total": total,
            "page": page,
            "size": size,
        }
        if with_pages:
            body["pages"] = -(-total // size)
        return httpx.Response(200, json=body)

    return serve


@pytest.mark.parametrize("with_pages", [True, False], ids=["page", "package-page"])
def test_pagination_yields_every_item_once(with_pages: bool) -> None:
    with client_for(paged(23, with_pages=with_pages)) as client:
        items = list(iter_pages(client, "/v1/facilities", {}, size=10))
    assert [item["id"] for item in items] == list(range(23))


def test_pagination_stops_after_an_exact_last_page() -> None:
    calls: list[int] = []
    serve = paged(20, with_pages=False)

    def count(request: httpx.Request) -> httpx.Response:
        calls.append(int(request.url.params["page"]))
        return serve(request)

    with client_for(count) as client:
        assert len(list(iter_pages(client, "/v1/logistics/packages", {}, size=10))) == 20
    assert calls == [1, 2]


def test_create_wastes_sends_idempotency_key_and_dry_run() -> None:
    seen: list[httpx.Request] = []

    def accept(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"dry_run": True, "valid": True, "records": 1})

    with client_for(accept) as client:
        result = client.create_wastes(
            [{"base_quantity": 1}], idempotency_key="batch-1", dry_run=True
        )
    assert result["valid"] is True
    assert seen[0].headers["idempotency-key"] == "batch-1"
    assert seen[0].url.params["dry_run"] == "true"
    assert json.loads(seen[0].content) == {"records": [{"base_quantity": 1}]}


def job_sequence(*statuses: str) -> Callable[[httpx.Request], httpx.Response]:
    remaining = list(statuses)

    def serve(request: httpx.Request) -> httpx.Response:
        status = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        return httpx.Response(200, json={"id": "job-1", "status": status})

    return serve


def test_wait_for_ingest_job_polls_with_growing_pauses() -> None:
    pauses: list[float] = []
    with client_for(job_sequence("processing", "processing", "processing", "completed")) as client:
        job = client.wait_for_ingest_job(
            "job-1", poll_initial=0.2, poll_max=0.5, sleep=pauses.append
        )
    assert job["status"] == "completed"
    assert pauses == [0.2, 0.4, 0.5]


def test_wait_for_ingest_job_raises_when_the_job_failed() -> None:
    with client_for(job_sequence("failed")) as client, pytest.raises(IngestJobError) as caught:
        client.wait_for_ingest_job("job-1", sleep=lambda s: None)
    assert caught.value.job["status"] == "failed"


def test_wait_for_ingest_job_raises_on_timeout() -> None:
    with (
        client_for(job_sequence("processing")) as client,
        pytest.raises(IngestJobError, match="still processing"),
    ):
        client.wait_for_ingest_job("job-1", timeout=3, sleep=lambda s: None)


def test_long_id_lists_are_split_so_urls_stay_short() -> None:
    lengths: list[int] = []
    ids = [f"{n:08d}-0000-4000-8000-000000000000" for n in range(500)]

    def serve(request: httpx.Request) -> httpx.Response:
        lengths.append(len(str(request.url)))
        chunk = request.url.params.get_list("ids")
        body = {
            "items": [{"id": i} for i in chunk],
            "total": len(chunk),
            "page": 1,
            "size": 100,
            "pages": 1,
        }
        return httpx.Response(200, json=body)

    with client_for(serve) as client:
        found = [item["id"] for item in client.iter_wastes(ids=ids, facility_id="f-1")]
    assert found == ids
    assert len(lengths) > 1
    assert max(lengths) < 8192


def test_validation_failure_carries_the_rejected_records() -> None:
    problem = {
        "title": "Validation failed",
        "status": 422,
        "code": "VALIDATION_FAILED",
        "errors": [
            {"index": 2, "field": "base_quantity", "code": "MUST_BE_POSITIVE", "message": "> 0"}
        ],
    }

    def reject(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            422, json=problem, headers={"content-type": "application/problem+json"}
        )

    with client_for(reject) as client, pytest.raises(ValidationFailedError) as caught:
        client.create_wastes([{}, {}, {}], idempotency_key="k")
    assert caught.value.errors[0]["code"] == "MUST_BE_POSITIVE"


def test_api_key_never_reaches_logs_or_errors(caplog: pytest.LogCaptureFixture) -> None:
    replies = iter(
        [
            httpx.Response(429, headers={"Retry-After": "0.01"}),
            httpx.Response(503, headers={"Retry-After": "0.01"}),
            httpx.Response(401, json={"detail": "Invalid API key", "code": "INVALID_API_KEY"}),
        ]
    )

    def serve(request: httpx.Request) -> httpx.Response:
        return next(replies)

    with (
        caplog.at_level(logging.DEBUG),
        client_for(serve) as client,
        pytest.raises(AuthenticationError) as caught,
    ):
        client.get_facility("f-1")
    text = "\n".join(f"{r.getMessage()} {r.args}" for r in caplog.records)
    assert "GET /v1/facilities/f-1 -> 401" in text
    assert SECRET not in text
    assert SECRET not in str(caught.value) + repr(caught.value)


def test_package_face_exports_a_sorted_all() -> None:
    import emissions_etl.client as package

    assert package.__all__ == sorted(package.__all__)
    assert all(hasattr(package, name) for name in package.__all__)
