"""Fuel recharges of the logistics fleet (facts §4.4): co2e = quantity × the fuel's combustion
factor (measured scope 1, facts §4.6); upsert key (country, date, quantity, license plate)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.limits import concurrency_limited, rate_limited
from emissions_sandbox.logistics import reference, request_store
from emissions_sandbox.logistics.bulk import run_bulk
from emissions_sandbox.logistics.models import (
    BulkBody,
    BulkResult,
    Recharge,
    RechargeIds,
    RechargeIn,
    RechargePage,
)
from emissions_sandbox.pagination import PageParams, in_clause, select_page, small_page_params
from emissions_sandbox.wire_models import V1_RESPONSES, V1Error

router = APIRouter(tags=["logistics"])
Caller = Depends(require_api_key)
_V1: dict[int | str, dict[str, Any]] = {**V1_RESPONSES, 429: {"model": V1Error}}
_UPDATED: dict[int | str, dict[str, Any]] = {
    200: {"model": Recharge, "description": "an existing recharge (same upsert key)"}
}


def recharge_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    fuel = reference.fuels()[row["fuel_id"]]
    toc = reference.toc_by_id(row["toc_id"]) if row["toc_id"] else None
    wire = {key: row[key] for key in ("id", "fuel_id", "country", "date", "quantity",
            "vehicle_license_plate", "toc_id", "project_id", "status", "co2e", "created_at",
            "updated_at")}  # fmt: skip
    return {**wire, "fuel_name": fuel.name, "unit": fuel.unit,
            "vehicle_type": toc.vehicle if toc else None}  # fmt: skip


def save_recharge(
    conn: sqlite3.Connection, principal: Principal, body: RechargeIn
) -> tuple[sqlite3.Row, bool]:
    """(row, created); 404 NOT_FOUND for an unknown fuel or TOC (facts §4.4)."""
    fuel = reference.fuels().get(str(body.fuel_id))
    if fuel is None:
        raise ServiceError(404, "NOT_FOUND", f"Fuel {body.fuel_id} not found")
    if body.toc_id is not None and reference.toc_by_id(str(body.toc_id)) is None:
        raise ServiceError(404, "NOT_FOUND", f"TOC {body.toc_id} not found")
    org, now, country = principal.organization_id, utc_now(), body.country.upper()
    fields = {
        "fuel_id": fuel.id,
        "toc_id": str(body.toc_id) if body.toc_id else None,
        "project_id": str(body.project_id) if body.project_id else None,
        "co2e": body.quantity * reference.fuel_factor(fuel, country),
        "updated_at": now,
    }
    key = (org, country, body.date.isoformat(), body.quantity, body.vehicle_license_plate)
    existing = conn.execute(
        """SELECT id FROM logistics_recharges WHERE organization_id = ? AND country = ?
        AND date = ? AND quantity = ? AND vehicle_license_plate IS ?""",
        key,
    ).fetchone()
    if existing is not None:
        recharge_id = str(existing[0])
        assignments = ", ".join(f"{column} = ?" for column in fields)
        conn.execute(
            f"UPDATE logistics_recharges SET {assignments} WHERE id = ?",
            [*fields.values(), recharge_id],
        )
    else:
        recharge_id = str(uuid.uuid4())
        conn.execute(
            """INSERT INTO logistics_recharges (id, organization_id, country, date, quantity,
            vehicle_license_plate, created_by, created_at, fuel_id, toc_id, project_id, co2e,
            updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (recharge_id, *key, principal.user_id, now, *fields.values()),
        )
    row = conn.execute("SELECT * FROM logistics_recharges WHERE id = ?", (recharge_id,)).fetchone()
    return row, existing is None


@router.post("/v1/logistics/recharges", status_code=201, response_model=Recharge,
             responses={**_V1, **_UPDATED}, operation_id="create_logistics_recharge",
             dependencies=[Depends(rate_limited(per_second=30))])  # fmt: skip
def create_recharge(
    body: RechargeIn, request: Request, response: Response, principal: Principal = Caller
) -> dict[str, Any]:
    with request.app.state.db.transaction() as conn:
        row, created = save_recharge(conn, principal, body)
    response.status_code = 201 if created else 200
    return recharge_to_wire(row)


@router.post("/v1/logistics/recharges/bulk", response_model=BulkResult, responses=_V1,
             operation_id="create_logistics_recharges_bulk",
             dependencies=[concurrency_limited(max_in_flight=10)])  # fmt: skip
def create_recharges_bulk(
    body: BulkBody, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    def save(record: RechargeIn) -> dict[str, Any]:
        row, _ = save_recharge(conn, principal, record)
        return {key: row[key] for key in ("id", "fuel_id", "date", "quantity", "co2e")}

    with request.app.state.db.transaction() as conn:
        return run_bulk(conn, body, RechargeIn, save)


@router.get("/v1/logistics/recharges", response_model=RechargePage, responses=V1_RESPONSES,
            operation_id="list_logistics_recharges")  # fmt: skip
def list_recharges(
    request: Request,
    vehicle_license_plate: list[str] | None = Query(None),
    fuel_id: list[str] | None = Query(None),
    date_from: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    date_until: str | None = Query(None, pattern=r"^\d{4}-\d{2}-\d{2}$"),
    project_id: str | None = Query(None, max_length=64),
    paging: PageParams = Depends(small_page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    where, params = ["organization_id = ?"], [principal.organization_id]
    for column, values in (("vehicle_license_plate", vehicle_license_plate), ("fuel_id", fuel_id)):
        if values:
            where.append(in_clause(column, values[:500]))
            params.extend(values[:500])
    for clause, value in (("date >= ?", date_from), ("date <= ?", date_until),
                          ("project_id = ?", project_id)):  # fmt: skip
        if value is not None:
            where.append(clause)
            params.append(value)
    return select_page(
        request.app.state.db.reader(), table="logistics_recharges", where=where, params=params,
        paging=paging, to_wire=recharge_to_wire, with_pages=False,
    )  # fmt: skip


@router.post("/v1/logistics/recharges/batch-delete", status_code=204, response_class=Response,
             responses=V1_RESPONSES, operation_id="batch_delete_logistics_recharges")  # fmt: skip
def batch_delete_recharges(
    body: RechargeIds, request: Request, principal: Principal = Caller
) -> Response:
    with request.app.state.db.transaction() as conn:
        request_store.delete_rows(
            conn,
            "logistics_recharges",
            principal.organization_id,
            [str(i) for i in body.recharge_ids],
        )
    return Response(status_code=204)
