"""Request and response bodies of the webhook endpoints, so the OpenAPI document is accurate.

Lengths and allowed values are documented here but checked in `routes`, which answers them
with the webhook validation codes (README: Webhook endpoints).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

EVENT_TYPES = ("ingest_job.finished",)  # interface: Events, the subscribable event types
TEST_EVENT_TYPE = "webhook.test"
DeliveryStatus = Literal["pending", "succeeded", "failed"]


class WebhookEndpointCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(json_schema_extra={"maxLength": 2048, "format": "uri"})
    event_types: list[str] = Field(
        json_schema_extra={"minItems": 1, "items": {"type": "string", "enum": list(EVENT_TYPES)}}
    )
    description: str | None = Field(None, json_schema_extra={"maxLength": 255})
    enabled: bool = True


class WebhookEndpointUpdate(BaseModel):
    """Partial update: only the members present change."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(None, json_schema_extra={"maxLength": 2048, "format": "uri"})
    event_types: list[str] | None = Field(
        None,
        json_schema_extra={"minItems": 1, "items": {"type": "string", "enum": list(EVENT_TYPES)}},
    )
    description: str | None = Field(None, json_schema_extra={"maxLength": 255})
    enabled: bool | None = None


class WebhookEndpoint(BaseModel):
    id: str
    url: str
    description: str | None
    event_types: list[str]
    enabled: bool
    consecutive_failures: int
    disabled_reason: Literal["TOO_MANY_FAILURES"] | None
    created_at: str
    updated_at: str


class WebhookEndpointWithSecret(WebhookEndpoint):
    secret: str = Field(description="Signing secret (`whsec_...`); returned only on create.")


class WebhookDelivery(BaseModel):
    id: str
    endpoint_id: str
    event_id: str = Field(description="The `webhook-id` header; the same on every attempt.")
    event_type: str
    status: DeliveryStatus
    attempt_count: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: str | None
    created_at: str
    updated_at: str


class WebhookEndpointPage(BaseModel):
    items: list[WebhookEndpoint]
    total: int
    page: int
    size: int
    pages: int


class WebhookDeliveryPage(BaseModel):
    items: list[WebhookDelivery]
    total: int
    page: int
    size: int
    pages: int
