"""HTTP face of employees (/v1/employees) and commuting periods (/v1/employee-historic),
facts §9.1. New API (`x-api-key` + `x-organization-id`); another organization's employee is
404 `EMPLOYEE_NOT_FOUND`, another organization's commuting period 404 `NOT_FOUND`."""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.employees import store
from emissions_sandbox.employees.commuting import period_co2e
from emissions_sandbox.employees.models import (
    CommutingPeriod,
    CommutingPeriodCreate,
    CommutingPeriodPage,
    CommutingTransport,
    Employee,
    EmployeeCreate,
    EmployeePage,
    EmployeeStatus,
    EmployeeUpdate,
    Situation,
)
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["employees"], responses=V1_RESPONSES)
Caller = Depends(require_api_key)


def _owned(conn: sqlite3.Connection, principal: Principal, employee_id: str) -> sqlite3.Row:
    row = store.get_employee(conn, principal.organization_id, employee_id)
    if row is None:
        raise ServiceError(404, "EMPLOYEE_NOT_FOUND", f"Employee {employee_id} not found")
    return row


@router.post("/v1/employees", status_code=201, response_model=Employee)
def create_employee(
    body: EmployeeCreate, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    with request.app.state.db.transaction() as conn:
        row = store.insert_employee(
            conn, principal.organization_id, principal.user_id, body.model_dump()
        )
        return store.employee_json(conn, row)


@router.get("/v1/employees", response_model=EmployeePage)
def list_employees(
    request: Request,
    search: str | None = Query(None, description="partial, case-insensitive, on name or email"),
    situation: list[Situation] | None = Query(None),
    status: list[EmployeeStatus] | None = Query(None),
    transport_type: list[CommutingTransport] | None = Query(
        None, description="employees with a commuting period of these types"
    ),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    where, params = ["organization_id = ?"], [principal.organization_id]
    if search:
        escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append("(name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')")
        params.extend([f"%{escaped}%"] * 2)
    for column, values in (("situation", situation), ("status", status)):
        if values:
            where.append(in_clause(column, values))
            params.extend(values)
    if transport_type:
        periods = in_clause("p.transport_type", transport_type)
        where.append(
            f"EXISTS (SELECT 1 FROM employee_periods p WHERE p.employee_id = employees.id "
            f"AND {periods})"
        )
        params.extend(transport_type)
    conn = request.app.state.db.reader()
    return select_page(
        conn,
        table="employees",
        where=where,
        params=params,
        order_by="created_at, id",
        paging=paging,
        to_wire=lambda row: store.employee_json(conn, row),
    )


@router.get("/v1/employees/{employee_id}", response_model=Employee)
def get_employee(
    employee_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    conn = request.app.state.db.reader()
    return store.employee_json(conn, _owned(conn, principal, str(employee_id)))


@router.patch("/v1/employees/{employee_id}", response_model=Employee)
def update_employee(
    employee_id: uuid.UUID, body: EmployeeUpdate, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    """Partial update: only sent fields change (facts §9.1)."""
    changes = body.model_dump(exclude_unset=True)
    for required in ("situation", "status"):
        if required in changes and changes[required] is None:
            raise ServiceError(422, "VALIDATION_ERROR", f"{required} cannot be null")
    with request.app.state.db.transaction() as conn:
        row = _owned(conn, principal, str(employee_id))
        merged = {**{k: row[k] for k in store.EMPLOYEE_FIELDS}, **changes}
        if merged["name"] is None and merged["email"] is None:
            raise ServiceError(422, "VALIDATION_ERROR", "An employee needs a name or an email")
        if changes:
            store.update_employee(conn, str(employee_id), changes)
        return store.employee_json(conn, _owned(conn, principal, str(employee_id)))


@router.delete("/v1/employees/{employee_id}", status_code=204, response_class=Response)
def delete_employee(
    employee_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> Response:
    """Permanent: removes the employee, its commuting periods and their co2e (interface)."""
    with request.app.state.db.transaction() as conn:
        _owned(conn, principal, str(employee_id))
        store.delete_employee(conn, str(employee_id))
    return Response(status_code=204)


@router.post("/v1/employee-historic", status_code=201, response_model=CommutingPeriod)
def create_commuting_period(
    body: CommutingPeriodCreate, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    """co2e is calculated in the request (facts §9.1: the response carries `co2e`)."""
    fields = body.model_dump()
    fields["co2e"] = period_co2e(
        start=body.start_date,
        end=body.end_date,
        weekly_travels=body.weekly_travels,
        daily_trips=body.daily_trips,
        total_km=body.total_km,
        transport_type=body.transport_type,
        vehicle_size=body.vehicle_size,
        fuel_type=body.fuel_type,
    )
    fields.update(
        employee_id=str(body.employee_id),
        start_date=body.start_date.isoformat(),
        end_date=body.end_date.isoformat(),
        weekly_travels=None if body.weekly_travels is None else json.dumps(body.weekly_travels),
        carpool=int(body.carpool),
    )
    with request.app.state.db.transaction() as conn:
        _owned(conn, principal, fields["employee_id"])
        return store.period_json(store.insert_period(conn, fields))


@router.get("/v1/employee-historic", response_model=CommutingPeriodPage)
def list_commuting_periods(
    request: Request,
    employee_id: uuid.UUID = Query(...),
    paging: PageParams = Depends(page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    conn = request.app.state.db.reader()
    _owned(conn, principal, str(employee_id))
    return select_page(
        conn,
        table="employee_periods",
        where=["employee_id = ?"],
        params=[str(employee_id)],
        order_by="start_date, created_at, id",
        paging=paging,
        to_wire=store.period_json,
    )


@router.delete("/v1/employee-historic/{period_id}", status_code=204, response_class=Response)
def delete_commuting_period(
    period_id: uuid.UUID, request: Request, principal: Principal = Caller
) -> Response:
    """Permanent: removes one commuting period and its co2e (a sandbox addition the pipeline
    needs, README: Employees). Unknown or another organization's: 404 `NOT_FOUND`."""
    with request.app.state.db.transaction() as conn:
        if not store.delete_period(conn, principal.organization_id, str(period_id)):
            raise ServiceError(404, "NOT_FOUND", f"Commuting period {period_id} not found")
    return Response(status_code=204)
