"""The sandbox's error type and the handlers that render it in each API generation's format.

v1 answers `{"detail": ..., "code": ...}`; v2 (`/v2/...`) answers RFC 9457 problem details with
the interface's `errors` member (interface: Errors). See README "Wire contract".
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://emissions.example/problems/"

# pydantic error types → the sandbox's stable record validation codes (README: validation codes)
_PYDANTIC_CODES = {
    "missing": "REQUIRED",
    "greater_than": "MUST_BE_POSITIVE",
    "string_too_long": "TOO_LONG",
    "too_long": "TOO_MANY_RECORDS",
    "extra_forbidden": "UNKNOWN_FIELD",
    "uuid_parsing": "INVALID_FORMAT",
    "uuid_type": "INVALID_FORMAT",
    "date_from_datetime_parsing": "INVALID_FORMAT",
    "date_parsing": "INVALID_FORMAT",
    "datetime_parsing": "INVALID_FORMAT",
    "datetime_from_date_parsing": "INVALID_FORMAT",
    "url_parsing": "INVALID_FORMAT",
    "url_scheme": "INVALID_FORMAT",
}


class ServiceError(Exception):
    """An error the service answers on purpose, with its status, stable code and detail."""

    def __init__(
        self,
        status: int,
        code: str | None,
        detail: str,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
        self.headers = headers


def is_v2(request: Request) -> bool:
    return request.url.path.startswith("/v2/") or request.url.path == "/v2"


def problem_type(code: str | None) -> str:
    """`type` of a problem: a URI per code, `about:blank` when the error has no code."""
    if not code:
        return "about:blank"
    return PROBLEM_TYPE_BASE + code.lower().replace("_", "-")


def problem_response(
    request: Request,
    status: int,
    code: str | None,
    detail: str,
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = {
        "type": problem_type(code),
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "instance": request.url.path,
        "code": code,
        "errors": errors or [],
    }
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_MEDIA_TYPE)


def error_response(request: Request, error: ServiceError) -> JSONResponse:
    if is_v2(request):
        return problem_response(
            request, error.status, error.code, error.detail, error.errors, error.headers
        )
    body: dict[str, Any] = {"detail": error.detail}
    if error.code is not None:
        body["code"] = error.code
    return JSONResponse(body, status_code=error.status, headers=error.headers)


def validation_entries(errors: list[Any], *, records_loc: tuple[str, ...] = ()) -> list[dict]:
    """pydantic errors → `{index, field, code, message}`; `index` is the record's position."""
    entries = []
    for err in errors:
        loc = [
            part
            for part in err.get("loc", ())
            if part not in ("body", "query", "header", "path", "cookie")
        ]
        if records_loc and tuple(loc[: len(records_loc)]) == records_loc:
            loc = loc[len(records_loc) :]
        index = loc[0] if loc and isinstance(loc[0], int) else None
        field_parts = [str(p) for p in (loc[1:] if index is not None else loc)]
        entries.append(
            {
                "index": index,
                "field": ".".join(field_parts) or None,
                "code": _PYDANTIC_CODES.get(err.get("type", ""), "INVALID_TYPE"),
                "message": err.get("msg", "invalid value"),
            }
        )
    return entries


async def _service_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return error_response(request, exc)


async def _validation_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    if not is_v2(request):
        return await request_validation_exception_handler(request, exc)
    records_loc = ("records",) if request.url.path.startswith("/v2/wastes") else ()
    entries = validation_entries(list(exc.errors()), records_loc=records_loc)
    return problem_response(request, 422, "VALIDATION_ERROR", "The request is invalid.", entries)


async def _http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = "NOT_FOUND" if exc.status_code == 404 else None
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    headers = dict(exc.headers) if exc.headers else None
    return error_response(request, ServiceError(exc.status_code, code, detail, headers=headers))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error_handler)
    app.add_exception_handler(RequestValidationError, _validation_handler)
    app.add_exception_handler(StarletteHTTPException, _http_error_handler)
