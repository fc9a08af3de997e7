"""HTTP face of webhook management: /v2/webhook-endpoints (interface: v2 webhook endpoints).

Admin API keys only; an endpoint of another organization is answered 404 `NOT_FOUND`.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_org_admin
from emissions_sandbox.db import Database
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import PageParams, page_params, select_page
from emissions_sandbox.webhooks import store
from emissions_sandbox.webhooks.delivery import event_body, new_event_id
from emissions_sandbox.webhooks.models import (
    TEST_EVENT_TYPE,
    DeliveryStatus,
    WebhookDelivery,
    WebhookDeliveryPage,
    WebhookEndpoint,
    WebhookEndpointCreate,
    WebhookEndpointPage,
    WebhookEndpointUpdate,
    WebhookEndpointWithSecret,
)
from emissions_sandbox.webhooks.signing import new_signing_secret
from emissions_sandbox.webhooks.validation import check_endpoint_fields
from emissions_sandbox.wire_models import PROBLEM_RESPONSES, Problem

_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": Problem, "content": {"application/problem+json": {}}}
}
router = APIRouter(
    prefix="/v2/webhook-endpoints", tags=["webhook endpoints (beta)"], responses=PROBLEM_RESPONSES
)


def _db(request: Request) -> Database:
    database: Database = request.app.state.db
    return database


def _allow_private(request: Request) -> bool:
    return bool(request.app.state.settings.allow_private_webhooks)


def _endpoint_or_404(
    conn: sqlite3.Connection, principal: Principal, endpoint_id: str
) -> sqlite3.Row:
    row = store.get_endpoint(conn, principal.organization_id, endpoint_id)
    if row is None:
        raise ServiceError(404, "NOT_FOUND", "Webhook endpoint not found")
    return row


@router.post("", status_code=201, response_model=WebhookEndpointWithSecret)
def create_webhook_endpoint(
    body: WebhookEndpointCreate,
    request: Request,
    principal: Principal = Depends(require_org_admin),
) -> dict[str, Any]:
    fields = body.model_dump()
    check_endpoint_fields(fields, allow_private=_allow_private(request))
    secret = new_signing_secret()
    with _db(request).transaction() as conn:
        row = store.insert_endpoint(
            conn, principal.organization_id, body.url, body.description,
            body.event_types, body.enabled, secret,
        )  # fmt: skip
    return {**store.endpoint_json(row), "secret": secret}


@router.get("", response_model=WebhookEndpointPage)
def list_webhook_endpoints(
    request: Request,
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_org_admin),
) -> dict[str, Any]:
    return select_page(
        _db(request).reader(), table="webhook_endpoints", where=["organization_id = ?"],
        params=[principal.organization_id], paging=paging, to_wire=store.endpoint_json,
    )  # fmt: skip


@router.get("/{endpoint_id}", response_model=WebhookEndpoint)
def read_webhook_endpoint(
    endpoint_id: str, request: Request, principal: Principal = Depends(require_org_admin)
) -> dict[str, Any]:
    return store.endpoint_json(_endpoint_or_404(_db(request).reader(), principal, endpoint_id))


@router.patch("/{endpoint_id}", response_model=WebhookEndpoint)
def update_webhook_endpoint(
    endpoint_id: str,
    body: WebhookEndpointUpdate,
    request: Request,
    principal: Principal = Depends(require_org_admin),
) -> dict[str, Any]:
    changes = body.model_dump(include=body.model_fields_set)
    check_endpoint_fields(changes, allow_private=_allow_private(request))
    with _db(request).transaction() as conn:
        current = _endpoint_or_404(conn, principal, endpoint_id)
        if changes.get("enabled") is True and not current["enabled"]:
            # Re-enabling starts afresh: the service's reason and the failure count are cleared.
            changes.update(disabled_reason=None, consecutive_failures=0)
        elif changes.get("enabled") is False:
            changes.update(disabled_reason=None)  # disabled by the user, not by the service
        store.update_endpoint(conn, endpoint_id, changes)
        row = _endpoint_or_404(conn, principal, endpoint_id)
    return store.endpoint_json(row)


@router.delete("/{endpoint_id}", status_code=204, response_class=Response)
def delete_webhook_endpoint(
    endpoint_id: str, request: Request, principal: Principal = Depends(require_org_admin)
) -> Response:
    with _db(request).transaction() as conn:
        _endpoint_or_404(conn, principal, endpoint_id)
        store.delete_endpoint(conn, endpoint_id)  # its deliveries go with it
    return Response(status_code=204)


@router.post(
    "/{endpoint_id}/test", status_code=202, response_model=WebhookDelivery, responses=_CONFLICT
)
def send_test_event(
    endpoint_id: str, request: Request, principal: Principal = Depends(require_org_admin)
) -> dict[str, Any]:
    """Queue a `webhook.test` event to this endpoint, whatever its subscriptions."""
    with _db(request).transaction() as conn:
        endpoint = _endpoint_or_404(conn, principal, endpoint_id)
        _require_enabled(endpoint)
        data = {"endpoint_id": endpoint_id, "message": "Test event from the sandbox"}
        body = event_body(TEST_EVENT_TYPE, data)
        row = store.insert_delivery(conn, endpoint_id, new_event_id(), TEST_EVENT_TYPE, body)
    return store.delivery_json(row)


@router.get("/{endpoint_id}/deliveries", response_model=WebhookDeliveryPage)
def list_webhook_deliveries(
    endpoint_id: str,
    request: Request,
    status: DeliveryStatus | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_org_admin),
) -> dict[str, Any]:
    """Newest first."""
    conn = _db(request).reader()
    _endpoint_or_404(conn, principal, endpoint_id)
    where, params = ["endpoint_id = ?"], [endpoint_id]
    if status:
        where.append("status = ?")
        params.append(status)
    return select_page(
        conn, table="webhook_deliveries", where=where, params=params, paging=paging,
        to_wire=store.delivery_json, order_by="created_at DESC, id",
    )  # fmt: skip


@router.post(
    "/{endpoint_id}/deliveries/{delivery_id}/retry",
    status_code=202,
    response_model=WebhookDelivery,
    responses=_CONFLICT,
)
def retry_webhook_delivery(
    endpoint_id: str,
    delivery_id: str,
    request: Request,
    principal: Principal = Depends(require_org_admin),
) -> dict[str, Any]:
    """Queue a failed delivery again, with the same `webhook-id` and a fresh retry schedule."""
    with _db(request).transaction() as conn:
        endpoint = _endpoint_or_404(conn, principal, endpoint_id)
        delivery = store.get_delivery(conn, endpoint_id, delivery_id)
        if delivery is None:
            raise ServiceError(404, "NOT_FOUND", "Webhook delivery not found")
        if delivery["status"] != "failed":
            raise ServiceError(409, "DELIVERY_NOT_FAILED", "Only a failed delivery can be retried")
        _require_enabled(endpoint)
        store.requeue_delivery(conn, delivery_id)
        row = store.get_delivery(conn, endpoint_id, delivery_id)
    assert row is not None
    return store.delivery_json(row)


def _require_enabled(endpoint: sqlite3.Row) -> None:
    if not endpoint["enabled"]:  # interface: Events 3, disabled endpoints receive nothing
        raise ServiceError(
            409, "ENDPOINT_DISABLED", "The endpoint is disabled; re-enable it with PATCH first"
        )
