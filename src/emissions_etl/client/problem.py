"""Turn an error response into the right ``ApiStatusError``, whatever body shape the service sent.

Interface: Errors. v1 ``{detail, code}``, v1 validation ``{detail: [{loc, msg, type}]}``, v2
``application/problem+json`` ``{type, title, status, detail, code, errors}``, or no JSON at all.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from emissions_etl.client.retry import parse_retry_after
from emissions_etl.errors import ApiStatusError, status_error_class
from emissions_etl.json_values import JsonObject, JsonValue

#: Characters of a non-JSON body kept in the error message.
TEXT_EXCERPT = 200


def error_from_response(response: httpx.Response) -> ApiStatusError:
    """The ``ApiStatusError`` subclass for ``response.status_code``, carrying the parsed body."""
    response.read()
    body = _json_body(response)
    detail, code, errors, problem = _parse(body, response)
    request = response.request
    return status_error_class(response.status_code)(
        response.status_code,
        detail,
        code=code,
        errors=errors,
        problem=problem,
        retry_after=parse_retry_after(response.headers.get("retry-after")),
        request_id=response.headers.get("x-request-id"),
        method=request.method,
        # method + path only: the query string is not part of an error's identity.
        url=request.url.path,
    )


def _parse(
    body: JsonValue, response: httpx.Response
) -> tuple[str, str | None, list[JsonObject], JsonObject]:
    """(detail, code, errors, problem) from a decoded body."""
    if not isinstance(body, dict):
        return _text_detail(response), None, [], {}
    problem = dict(body)
    code = _string(body.get("code"))
    raw_detail = body.get("detail")
    errors = _records(body.get("errors"))
    if isinstance(raw_detail, list):  # v1 validation: the list is the errors
        errors = errors or _records(raw_detail)
        return _summarise(errors), code, errors, problem
    detail = _string(raw_detail) or _string(body.get("title")) or _text_detail(response)
    return detail, code, errors, problem


def _summarise(errors: Sequence[JsonObject]) -> str:
    """One line for a validation list: the count and the first entry."""
    if not errors:
        return "validation failed"
    first = errors[0]
    loc = first.get("loc")
    where = ".".join(str(part) for part in loc) if isinstance(loc, list) else ""
    message = first.get("msg") or first.get("message") or first.get("type") or ""
    head = f"{where}: {message}" if where else str(message)
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"validation failed: {head}{more}"


def _json_body(response: httpx.Response) -> JsonValue:
    content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if not (content_type == "application/json" or content_type.endswith("+json")):
        return None
    try:
        body: JsonValue = response.json()
    except ValueError:
        return None
    return body


def _text_detail(response: httpx.Response) -> str:
    text = " ".join(response.text.split())[:TEXT_EXCERPT]
    return text or response.reason_phrase or f"HTTP {response.status_code}"


def _records(value: JsonValue) -> list[JsonObject]:
    if not isinstance(value, list):
        return []
    return [entry for entry in value if isinstance(entry, dict)]


def _string(value: JsonValue) -> str | None:
    return value if isinstance(value, str) and value else None
