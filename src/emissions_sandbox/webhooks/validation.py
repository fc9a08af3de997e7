"""Checks of webhook endpoint fields, answered as one 422 listing every broken rule.

Codes (README: Webhook endpoints): URL_* from `url_policy`, DESCRIPTION_TOO_LONG,
EVENT_TYPES_EMPTY, EVENT_TYPE_UNKNOWN; `null` where a value is required is REQUIRED.
"""

from __future__ import annotations

from typing import Any

from emissions_sandbox.errors import ServiceError
from emissions_sandbox.webhooks.models import EVENT_TYPES
from emissions_sandbox.webhooks.url_policy import check_webhook_url

MAX_DESCRIPTION_LENGTH = 255


def check_endpoint_fields(fields: dict[str, Any], *, allow_private: bool) -> None:
    """Raise a 422 `VALIDATION_ERROR` naming every rule the given fields break."""
    errors: list[dict[str, Any]] = []

    def add(field: str, code: str, message: str) -> None:
        errors.append({"index": None, "field": field, "code": code, "message": message})

    for field in ("url", "event_types", "enabled"):
        if field in fields and fields[field] is None:
            add(field, "REQUIRED", f"{field} may not be null")
    if fields.get("url") is not None:
        for violation in check_webhook_url(fields["url"], allow_private=allow_private):
            add("url", violation.code, violation.message)
    description = fields.get("description")
    if description is not None and len(description) > MAX_DESCRIPTION_LENGTH:
        add("description", "DESCRIPTION_TOO_LONG",
            f"description must be at most {MAX_DESCRIPTION_LENGTH} characters")  # fmt: skip
    event_types = fields.get("event_types")
    if event_types is not None and not event_types:
        add("event_types", "EVENT_TYPES_EMPTY", "event_types needs at least one event type")
    for position, event_type in enumerate(event_types or []):
        if event_type not in EVENT_TYPES:
            message = f"unknown event type {event_type!r}; allowed: {', '.join(EVENT_TYPES)}"
            add(f"event_types.{position}", "EVENT_TYPE_UNKNOWN", message)
    if errors:
        raise ServiceError(422, "VALIDATION_ERROR", "The webhook endpoint is invalid.", errors)
