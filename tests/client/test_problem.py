from __future__ import annotations

from typing import Any

import httpx
import pytest

from emissions_etl.client.problem import error_from_response
from emissions_etl.errors import (
    ApiStatusError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    ValidationFailedError,
)


def response(
    status: int,
    *,
    json: Any = None,
    text: str | None = None,
    headers: dict[str, str] | None = None,
    media_type: str = "application/json",
) -> httpx.Response:
    request = httpx.Request("POST", "https://service.test/v2/wastes?dry_run=true")
    if json is not None:
        headers = {"content-type": media_type, **(headers or {})}
        return httpx.Response(status, json=json, headers=headers, request=request)
    return httpx.Response(status, text=text or "", headers=headers, request=request)


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, ApiStatusError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (422, ValidationFailedError),
        (429, RateLimitedError),
        (500, ServerError),
        (503, ServerError),
    ],
)
def test_each_status_maps_to_its_class(status: int, kind: type[ApiStatusError]) -> None:
    error = error_from_response(response(status, json={"detail": "x"}))
    assert type(error) is kind
    assert error.status == status


def test_v1_detail_and_code_are_kept() -> None:
    error = error_from_response(
        response(401, json={"detail": "Invalid key", "code": "INVALID_API_KEY"})
    )
    assert (error.detail, error.code) == ("Invalid key", "INVALID_API_KEY")
    assert str(error) == "401 INVALID_API_KEY: Invalid key (POST /v2/wastes)"


def test_v1_validation_list_becomes_errors() -> None:
    entries = [
        {"loc": ["body", "distance_km"], "msg": "must be positive", "type": "value_error"},
        {"loc": ["body"], "msg": "origin or distance", "type": "value_error"},
    ]
    error = error_from_response(response(422, json={"detail": entries}))
    assert error.errors == entries
    assert error.detail == "validation failed: body.distance_km: must be positive (and 1 more)"


def test_v2_problem_details_are_parsed() -> None:
    problem = {
        "type": "https://emissions.example/problems/validation-failed",
        "title": "Validation failed",
        "status": 422,
        "detail": "2 records are invalid",
        "instance": "/v2/wastes",
        "code": "VALIDATION_FAILED",
        "errors": [
            {"index": 0, "field": "base_quantity", "code": "MUST_BE_POSITIVE", "message": "> 0"},
            {"index": 3, "field": "end_date", "code": "DATE_ORDER", "message": "before start"},
        ],
    }
    error = error_from_response(response(422, json=problem, media_type="application/problem+json"))
    assert isinstance(error, ValidationFailedError)
    assert error.code == "VALIDATION_FAILED"
    assert error.detail == "2 records are invalid"
    assert [entry["index"] for entry in error.errors] == [0, 3]
    assert error.problem["type"].endswith("/validation-failed")


def test_problem_without_detail_uses_its_title() -> None:
    problem = {"title": "Idempotency key reused", "status": 422, "code": "IDEMPOTENCY_KEY_REUSED"}
    error = error_from_response(response(422, json=problem, media_type="application/problem+json"))
    assert (error.detail, error.code) == ("Idempotency key reused", "IDEMPOTENCY_KEY_REUSED")


def test_non_json_body_gives_its_text() -> None:
    error = error_from_response(response(502, text="<html>Bad   gateway</html>"))
    assert isinstance(error, ServerError)
    assert error.detail == "<html>Bad gateway</html>"
    assert error.code is None


def test_empty_body_gives_the_reason_phrase() -> None:
    error = error_from_response(response(503))
    assert error.detail == "Service Unavailable"


def test_retry_after_and_request_id_are_carried() -> None:
    headers = {"Retry-After": "4", "x-request-id": "req-123"}
    error = error_from_response(
        response(429, json={"detail": "Rate limit exceeded"}, headers=headers)
    )
    assert error.retry_after == 4.0
    assert error.request_id == "req-123"
    assert error.transient


def test_error_names_method_and_path_without_query() -> None:
    error = error_from_response(response(404, json={"detail": "gone", "code": "NOT_FOUND"}))
    assert (error.method, error.url) == ("POST", "/v2/wastes")
