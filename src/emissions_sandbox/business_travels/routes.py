"""HTTP face of business travels: /v1/business-travels (interface: Business travels; facts §7).

`Authorization: Bearer <API key or JWT>` + `x-organization-id` (x-user-id optional; `x-api-key`
is accepted too). Another organization's record is 404 `BUSINESS_TRAVEL_NOT_FOUND`.
"""

from __future__ import annotations

import sqlite3
import uuid
from datetime import date
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.business_travels import store
from emissions_sandbox.business_travels.journeys import journey_distance_km
from emissions_sandbox.business_travels.models import (
    FLIGHT_FIELDS,
    ROAD_VEHICLE_FIELDS,
    BusinessTravel,
    BusinessTravelCreate,
    BusinessTravelPage,
    BusinessTravelUpdate,
    TransportType,
    TravelStatus,
)
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(prefix="/v1/business-travels", tags=["business travels"], responses=V1_RESPONSES)
Caller = Depends(require_api_key_or_jwt)


def _not_found(travel_id: str) -> ServiceError:
    return ServiceError(404, "BUSINESS_TRAVEL_NOT_FOUND", f"Business travel {travel_id} not found")


def _stored_fields(travel: BusinessTravelCreate) -> dict[str, Any]:
    """The validated body as stored: distance from the places when they are given (rule 4)."""
    fields = travel.model_dump()
    fields["travel_date"] = travel.travel_date.isoformat()
    fields["round_trip"] = int(travel.round_trip)
    if travel.origin is not None and travel.destination is not None:
        fields["distance_km"] = journey_distance_km(
            travel.transport_type, travel.origin, travel.destination
        )
    return fields


def _wake_worker(request: Request) -> None:
    worker = getattr(request.app.state, "business_travel_worker", None)
    if worker is not None:
        worker.wake()


def _owned(conn: sqlite3.Connection, principal: Principal, travel_id: str) -> sqlite3.Row:
    row = store.get_travel(conn, principal.organization_id, travel_id)
    if row is None:
        raise _not_found(travel_id)
    return row


@router.post("", status_code=201, response_model=BusinessTravel)
def create_business_travel(
    body: BusinessTravelCreate, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    """Created `pending` with co2e 0; the worker calculates it (interface: States)."""
    fields = _stored_fields(body)
    with request.app.state.db.transaction() as conn:
        organization_id = principal.organization_id
        if store.count_travels(conn, organization_id) >= store.max_records(conn, organization_id):
            raise ServiceError(
                403, "LIMIT_REACHED", "Maximum number of business travel records reached"
            )
        row = store.insert_travel(conn, organization_id, principal.user_id, fields)
    _wake_worker(request)
    return store.travel_json(row)


@router.get("", response_model=BusinessTravelPage)
def list_business_travels(
    request: Request,
    start_date: date | None = Query(None, description="travel_date on or after (inclusive)"),
    end_date: date | None = Query(None, description="travel_date on or before (inclusive)"),
    transport_type: list[TransportType] | None = Query(None),
    status: list[TravelStatus] | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    where, params = ["organization_id = ?"], [principal.organization_id]
    if start_date is not None:
        where.append("travel_date >= ?")
        params.append(start_date.isoformat())
    if end_date is not None:
        where.append("travel_date <= ?")
        params.append(end_date.isoformat())
    for column, values in (("transport_type", transport_type), ("status", status)):
        if values:
            where.append(in_clause(column, values))
            params.extend(values)
    return select_page(
        request.app.state.db.reader(),
        table="business_travels",
        where=where,
        params=params,
        order_by="travel_date, created_at, id",
        paging=paging,
        to_wire=store.travel_json,
    )


@router.get("/{business_travel_id}", response_model=BusinessTravel)
def get_business_travel(
    business_travel_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    conn = request.app.state.db.reader()
    return store.travel_json(_owned(conn, principal, str(business_travel_id)))


def _merged(row: sqlite3.Row, changes: dict[str, Any]) -> BusinessTravelCreate:
    """The record with the PATCH applied, re-checked against every create rule."""
    state = {name: row[name] for name in store.FIELDS}
    state["round_trip"] = bool(state["round_trip"])
    if state["origin"] is not None:
        state["distance_km"] = None  # computed, not given: the places stay the input
    if changes.get("distance_km") is not None and not {"origin", "destination"} & changes.keys():
        state["origin"] = state["destination"] = None
    if {"origin", "destination"} & changes.keys() and "distance_km" not in changes:
        state["distance_km"] = None
    if changes.get("transport_type", state["transport_type"]) != state["transport_type"]:
        for name in (*ROAD_VEHICLE_FIELDS, *FLIGHT_FIELDS):
            state[name] = None  # fields of the old mode go, unless the PATCH sends them
    state.update(changes)
    try:
        return BusinessTravelCreate.model_validate(state)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False)
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in errors]) from None


@router.patch("/{business_travel_id}", response_model=BusinessTravel)
def update_business_travel(
    business_travel_id: uuid.UUID,
    body: BusinessTravelUpdate,
    request: Request,
    principal: Principal = Caller,
) -> dict[str, Any]:
    """Partial update (facts §7): only sent fields change; co2e is recalculated."""
    travel_id = str(business_travel_id)
    changes = body.model_dump(exclude_unset=True)
    with request.app.state.db.transaction() as conn:
        row = _owned(conn, principal, travel_id)
        fields = _stored_fields(_merged(row, changes))
        store.replace_fields(conn, travel_id, fields)
        row = _owned(conn, principal, travel_id)
    _wake_worker(request)
    return store.travel_json(row)


@router.delete("/{business_travel_id}", status_code=204, response_class=Response)
def delete_business_travel(
    business_travel_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> Response:
    """Permanent; its co2e leaves the organization's totals."""
    with request.app.state.db.transaction() as conn:
        _owned(conn, principal, str(business_travel_id))
        store.delete_travel(conn, str(business_travel_id))
    return Response(status_code=204)
