"""Error formats: v1 `{detail, code}` and validation lists; v2 RFC 9457 problem details."""

from __future__ import annotations

import pytest

from tests.sandbox_fixture import SandboxServer

pytestmark = pytest.mark.timeout(60)
PROBLEM_MEMBERS = {"type", "title", "status", "detail", "instance", "code", "errors"}


def test_v1_errors_are_detail_and_code(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.get("/v1/facilities/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert set(response.json()) == {"detail", "code"}
    assert response.json()["code"] == "NOT_FOUND"


def test_v1_validation_errors_are_a_detail_list(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post("/v1/facilities", json={"name": "x"})
    assert response.status_code == 422
    entries = response.json()["detail"]
    assert {tuple(e["loc"]) for e in entries} >= {("body", "type"), ("body", "country")}
    assert all({"loc", "msg", "type"} <= set(e) for e in entries)


def test_v2_errors_are_problem_details(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.get("/v2/ingest-jobs/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert set(body) == PROBLEM_MEMBERS
    assert body["status"] == 404
    assert body["code"] == "NOT_FOUND"
    assert body["type"] == "https://emissions.example/problems/not-found"
    assert body["instance"] == "/v2/ingest-jobs/00000000-0000-4000-8000-000000000000"


def test_v2_auth_errors_are_problem_details(sandbox: SandboxServer) -> None:
    with sandbox.client(**{"x-api-key": "sk_live_nope"}) as client:
        response = client.get("/v2/ingest-jobs")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "INVALID_API_KEY"


def test_v2_query_validation_errors_list_field_and_code(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.get("/v2/ingest-jobs", params={"size": 101})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert body["errors"][0]["index"] is None
    assert body["errors"][0]["field"] == "size"
    assert set(body["errors"][0]) == {"index", "field", "code", "message"}


@pytest.mark.parametrize(
    "path",
    ["/v2/webhook-endpoints", "/v2/ingest-jobs", "/v1/facilities", "/v1/logistics/requests"],
)
def test_a_page_beyond_the_bound_is_a_422_not_a_server_error(
    sandbox: SandboxServer, path: str
) -> None:
    """Found by schemathesis: page 2**80 overflowed SQLite's OFFSET on the webhook list (500)."""
    with sandbox.client() as client:
        response = client.get(path, params={"page": 2**80})
    assert response.status_code == 422
