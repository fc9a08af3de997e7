"""/v1/vehicles/{vehicle_id}/consumptions (interface: Vehicle consumption): create, list and
delete.

The interface shows only the list; the create payload follows the legacy CSV columns (facts
§9.4). A consumption is calculated in the request and rolls up into its vehicle's co2e; the
delete (a sandbox addition the pipeline needs, README: Fleet) takes it out of that sum again.
"""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.fleet import store
from emissions_sandbox.fleet.calculation import consumption_co2e, recalculate_vehicle
from emissions_sandbox.fleet.models import (
    ConsumptionCreate,
    ConsumptionStatus,
    VehicleConsumption,
    VehicleConsumptionPage,
)
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(prefix="/v1/vehicles", tags=["vehicles"], responses=V1_RESPONSES)
Caller = Depends(require_api_key)


@router.post(
    "/{vehicle_id}/consumptions",
    status_code=201,
    response_model=VehicleConsumption,
    operation_id="create_vehicle_consumption",
)
def create_consumption(
    vehicle_id: uuid.UUID, body: ConsumptionCreate, request: Request, principal: Principal = Caller
) -> Any:
    """201 with the calculated consumption; a unit the vehicle's factor cannot take is 422
    `UNIT_NOT_CONVERTIBLE` (and a deleted custom factor 422 `CUSTOM_EF_NOT_FOUND`)."""
    with request.app.state.db.transaction() as conn:
        vehicle = store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
        outcome = consumption_co2e(conn, vehicle, body.quantity, str(body.unit_id))
        if outcome.error_code:
            raise ServiceError(
                422,
                outcome.error_code,
                f"The consumption cannot be calculated: {outcome.error_code}",
            )
        consumption_id, now = str(uuid.uuid4()), utc_now()
        conn.execute(
            """INSERT INTO vehicle_consumptions (id, vehicle_id, created_by, quantity, unit_id,
            start_date, end_date, custom_id, status, co2e, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)""",
            (
                consumption_id,
                str(vehicle_id),
                principal.user_id,
                body.quantity,
                str(body.unit_id),
                body.start_date.isoformat(),
                body.end_date.isoformat(),
                body.custom_id,
                outcome.co2e,
                now,
                now,
            ),
        )
        recalculate_vehicle(conn, str(vehicle_id))
        row = conn.execute(
            "SELECT * FROM vehicle_consumptions WHERE id = ?", (consumption_id,)
        ).fetchone()
        return store.consumption_to_wire(row)


@router.get(
    "/{vehicle_id}/consumptions",
    response_model=VehicleConsumptionPage,
    operation_id="list_vehicle_consumptions",
)
def list_consumptions(
    vehicle_id: uuid.UUID,
    request: Request,
    status: list[ConsumptionStatus] | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> Any:
    conn = request.app.state.db.reader()
    store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
    where, params = ["vehicle_id = ?"], [str(vehicle_id)]
    if status:
        where.append(in_clause("status", status))
        params.extend(status)
    return select_page(
        conn,
        table="vehicle_consumptions",
        where=where,
        params=params,
        order_by="created_at, id",
        paging=paging,
        to_wire=store.consumption_to_wire,
    )


@router.delete(
    "/{vehicle_id}/consumptions/{consumption_id}",
    status_code=204,
    response_class=Response,
    operation_id="delete_vehicle_consumption",
)
def delete_consumption(
    vehicle_id: uuid.UUID,
    consumption_id: uuid.UUID,
    request: Request,
    principal: Principal = Caller,
) -> Response:
    """Permanent; the vehicle's co2e and status are recalculated without it. Another
    organization's vehicle is 404 `VEHICLE_NOT_FOUND`; a consumption that is not this vehicle's
    (unknown, or another vehicle's or organization's) is 404 `NOT_FOUND`."""
    with request.app.state.db.transaction() as conn:
        store.owned_vehicle(conn, str(vehicle_id), principal.organization_id)
        deleted = conn.execute(
            "DELETE FROM vehicle_consumptions WHERE id = ? AND vehicle_id = ?",
            (str(consumption_id), str(vehicle_id)),
        )
        if deleted.rowcount == 0:
            raise ServiceError(404, "NOT_FOUND", f"Consumption with id={consumption_id} not found")
        recalculate_vehicle(conn, str(vehicle_id))
    return Response(status_code=204)
