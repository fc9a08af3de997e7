"""/v1/purchases (interface: Purchases; facts §8): create, list, read, partial update, delete.

New API scheme (`x-api-key` + `x-organization-id`). Another organization's purchase is 404
`PURCHASE_NOT_FOUND`; a purchase `in_progress` refuses PATCH and DELETE with 409
`PURCHASE_IN_PROGRESS` (interface: "should not be modified by clients").
"""

from __future__ import annotations

import sqlite3
import uuid
from datetime import date
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.purchases import store
from emissions_sandbox.purchases.models import (
    CUSTOM_FACTOR_RULE,
    ExpenseType,
    Purchase,
    PurchaseCreate,
    PurchasePage,
    PurchaseStatus,
    PurchaseType,
    PurchaseUpdate,
)
from emissions_sandbox.wire_models import V1_RESPONSES, V1Error

router = APIRouter(
    prefix="/v1/purchases",
    tags=["purchases"],
    responses={**V1_RESPONSES, 409: {"model": V1Error}},
)
Caller = Depends(require_api_key)


def _stored(fields: dict[str, Any]) -> dict[str, Any]:
    """Body values as stored: uuids and dates as strings, country upper-case."""
    stored = {k: str(v) if isinstance(v, (uuid.UUID, date)) else v for k, v in fields.items()}
    if stored.get("country"):
        stored["country"] = stored["country"].upper()
    return stored


def _modifiable(conn: sqlite3.Connection, purchase_id: str, principal: Principal) -> Any:
    row = store.owned_purchase(conn, purchase_id, principal.organization_id)
    if row["status"] == "in_progress":
        raise ServiceError(409, "PURCHASE_IN_PROGRESS", "A purchase in progress cannot be modified")
    return row


def _read(conn: sqlite3.Connection, purchase_id: str, principal: Principal) -> dict[str, Any]:
    return store.purchase_to_wire(
        store.owned_purchase(conn, purchase_id, principal.organization_id)
    )


@router.post("", status_code=201, response_model=Purchase, operation_id="create_purchase")
def create_purchase(body: PurchaseCreate, request: Request, principal: Principal = Caller) -> Any:
    """201 with the whole purchase, co2e calculated (null and status `error` when it cannot be)."""
    with request.app.state.db.transaction() as conn:
        fields = _stored(body.model_dump())
        purchase_id = store.insert_purchase(
            conn, principal.organization_id, principal.user_id, fields
        )
        store.recalculate_purchase(conn, purchase_id)
        return _read(conn, purchase_id, principal)


@router.get("", response_model=PurchasePage, operation_id="list_purchases")
def list_purchases(
    request: Request,
    status: list[PurchaseStatus] | None = Query(None),
    purchase_type: list[PurchaseType] | None = Query(None),
    expense_type: list[ExpenseType] | None = Query(None),
    file_id: list[uuid.UUID] | None = Query(None),
    file_name: list[str] | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> Any:
    where, params = ["organization_id = ?"], [principal.organization_id]
    filters: list[tuple[str, list[Any]]] = [
        ("status", list(status or [])),
        ("purchase_type", list(purchase_type or [])),
        ("expense_type", list(expense_type or [])),
        ("file_id", [str(v) for v in file_id or []]),
        ("file_name", list(file_name or [])),
    ]
    for column, values in filters:
        if values:
            where.append(in_clause(column, values))
            params.extend(values)
    return select_page(
        request.app.state.db.reader(),
        table="purchases",
        where=where,
        params=params,
        order_by="created_at, id",
        paging=paging,
        to_wire=store.purchase_to_wire,
    )


@router.get("/{purchase_id}", response_model=Purchase, operation_id="get_purchase")
def get_purchase(purchase_id: uuid.UUID, request: Request, principal: Principal = Caller) -> Any:
    return _read(request.app.state.db.reader(), str(purchase_id), principal)


@router.patch("/{purchase_id}", response_model=Purchase, operation_id="update_purchase")
def update_purchase(
    purchase_id: uuid.UUID, body: PurchaseUpdate, request: Request, principal: Principal = Caller
) -> Any:
    """Only the fields sent change; co2e is recalculated (facts §8)."""
    changes = _stored(body.model_dump(exclude_unset=True))
    with request.app.state.db.transaction() as conn:
        row = _modifiable(conn, str(purchase_id), principal)
        merged = {**dict(row), **changes}
        if (
            merged["purchase_type"] == "supplier_specific"
            and not merged["custom_emission_factor_id"]
        ):
            raise RequestValidationError(
                [{"loc": ("body",), "msg": CUSTOM_FACTOR_RULE, "type": "value_error"}]
            )
        if changes:
            store.update_purchase(conn, str(purchase_id), changes)
        store.recalculate_purchase(conn, str(purchase_id))
        return _read(conn, str(purchase_id), principal)


@router.delete("/{purchase_id}", status_code=204, operation_id="delete_purchase")
def delete_purchase(
    purchase_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> Response:
    """204, permanent (facts §8); `status: inactive` keeps the history instead."""
    with request.app.state.db.transaction() as conn:
        _modifiable(conn, str(purchase_id), principal)
        conn.execute("DELETE FROM purchases WHERE id = ?", (str(purchase_id),))
    return Response(status_code=204)
