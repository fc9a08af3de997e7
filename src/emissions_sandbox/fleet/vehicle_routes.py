"""/v1/vehicles (interface: Vehicles): create, partial update, list, read, delete.

New API scheme (`x-api-key` + `x-organization-id`). Another organization's vehicle is 404
`VEHICLE_NOT_FOUND`; a referenced id that does not exist is 404 with its own code.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.fleet import store
from emissions_sandbox.fleet.calculation import recalculate_vehicle
from emissions_sandbox.fleet.models import (
    Ownership,
    Vehicle,
    VehicleCreate,
    VehiclePage,
    VehicleSort,
    VehicleStatus,
    VehicleUpdate,
)
from emissions_sandbox.fleet.reference import unknown_vehicles, vehicle_fuels
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(prefix="/v1/vehicles", tags=["vehicles"], responses=V1_RESPONSES)
Caller = Depends(require_api_key)
_ORG_TREE = """(WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL
    SELECT o.id FROM organizations o JOIN tree t ON o.parent_id = t.id) SELECT id FROM tree)"""


def _stored(fields: dict[str, Any]) -> dict[str, Any]:
    """Body values as stored: uuids as strings, country upper-case."""
    stored = {k: str(v) if isinstance(v, uuid.UUID) else v for k, v in fields.items()}
    if stored.get("country"):
        stored["country"] = stored["country"].upper()
    return stored


def _check_references(conn: sqlite3.Connection, fields: dict[str, Any], org_id: str) -> None:
    """interface: POST /v1/vehicles, 404 for an invalid referenced uuid."""
    if fields.get("unknown_vehicle_id") and fields["unknown_vehicle_id"] not in unknown_vehicles():
        raise ServiceError(404, "UNKNOWN_VEHICLE_NOT_FOUND", "Unknown vehicle not found")
    if fields.get("vehicle_fuel_id") and fields["vehicle_fuel_id"] not in vehicle_fuels():
        raise ServiceError(404, "VEHICLE_FUEL_NOT_FOUND", "Vehicle fuel not found")
    factor_id = fields.get("custom_emission_factor_id")
    if (
        factor_id
        and not conn.execute(
            """SELECT 1 FROM custom_emission_factors
        WHERE id = ? AND organization_id = ? AND deleted_at IS NULL""",
            (factor_id, org_id),
        ).fetchone()
    ):
        raise ServiceError(404, "CUSTOM_EF_NOT_FOUND", "Custom emission factor not found")


@router.post("", status_code=201, response_model=Vehicle, operation_id="create_vehicle")
def create_vehicle(body: VehicleCreate, request: Request, principal: Principal = Caller) -> Any:
    fields = _stored(body.model_dump())
    with request.app.state.db.transaction() as conn:
        _check_references(conn, fields, principal.organization_id)
        vehicle_id = store.insert_vehicle(
            conn, principal.organization_id, principal.user_id, fields
        )
        recalculate_vehicle(conn, vehicle_id)
        return store.vehicle_to_wire(
            store.owned_vehicle(conn, vehicle_id, principal.organization_id)
        )


@router.patch("/{vehicle_id}", response_model=Vehicle, operation_id="update_vehicle")
def update_vehicle(
    vehicle_id: uuid.UUID, body: VehicleUpdate, request: Request, principal: Principal = Caller
) -> Any:
    """Only the fields sent change; co2e is recalculated when a calculation input changes."""
    changes = _stored(body.model_dump(exclude_unset=True))
    with request.app.state.db.transaction() as conn:
        row = store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
        merged = {**dict(row), **changes}
        if not merged["vehicle_fuel_id"] and not merged["custom_emission_factor_id"]:
            raise RequestValidationError(
                [
                    {
                        "loc": ("body",),
                        "msg": "vehicle_fuel_id or custom_emission_factor_id is required",
                        "type": "value_error",
                    }
                ]
            )
        _check_references(conn, changes, principal.organization_id)
        changed = {k: v for k, v in changes.items() if row[k] != v}
        store.update_vehicle(conn, str(vehicle_id), changes)
        if changed.keys() & store.CALCULATION_FIELDS:
            recalculate_vehicle(conn, str(vehicle_id))
        return store.vehicle_to_wire(
            store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
        )


@router.get("", response_model=VehiclePage, operation_id="list_vehicles")
def list_vehicles(
    request: Request,
    include_children: bool = Query(False, description="include vehicles of child organizations"),
    search: str | None = Query(None, max_length=255, description="partial name or license plate"),
    status: list[VehicleStatus] | None = Query(None),
    ownership: list[Ownership] | None = Query(None),
    unknown_vehicle_id: list[uuid.UUID] | None = Query(None),
    vehicle_fuel_id: list[uuid.UUID] | None = Query(None),
    sort: list[VehicleSort] | None = Query(None, description="field, `-` for descending"),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> Any:
    org_clause = (
        f"v.organization_id IN {_ORG_TREE}" if include_children else "v.organization_id = ?"
    )
    where, params = [org_clause], [principal.organization_id]
    if search:
        escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append("(v.name LIKE ? ESCAPE '\\' OR v.license_plate LIKE ? ESCAPE '\\')")
        params.extend([f"%{escaped}%"] * 2)
    filters: list[tuple[str, list[Any] | None]] = [
        ("v.status", list(status) if status else None),
        ("v.ownership", list(ownership) if ownership else None),
        ("v.unknown_vehicle_id", [str(v) for v in unknown_vehicle_id or []]),
        ("v.vehicle_fuel_id", [str(v) for v in vehicle_fuel_id or []]),
    ]
    for column, values in filters:
        if values:
            where.append(in_clause(column, values))
            params.extend(values)
    order = [
        f"v.{key.lstrip('-')} {'DESC' if key.startswith('-') else 'ASC'}" for key in sort or []
    ]
    return select_page(
        request.app.state.db.reader(),
        table="vehicles v",
        where=where,
        params=params,
        order_by=", ".join([*order, "v.created_at", "v.id"]),
        paging=paging,
        to_wire=store.vehicle_to_wire,
    )


@router.get("/{vehicle_id}", response_model=Vehicle, operation_id="get_vehicle")
def get_vehicle(vehicle_id: uuid.UUID, request: Request, principal: Principal = Caller) -> Any:
    conn = request.app.state.db.reader()
    return store.vehicle_to_wire(
        store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
    )


@router.delete("/{vehicle_id}", status_code=204, operation_id="delete_vehicle")
def delete_vehicle(
    vehicle_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> Response:
    """Permanent; the vehicle's consumptions go with it."""
    with request.app.state.db.transaction() as conn:
        store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
        conn.execute("DELETE FROM vehicles WHERE id = ?", (str(vehicle_id),))
    return Response(status_code=204)
