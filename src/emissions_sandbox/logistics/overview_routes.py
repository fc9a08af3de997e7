"""Read-only logistics views: packages with their legs, the summary, and the TOC and fuel
catalogues (interface: Logistics package, Logistics summary; facts §4.4, §4.5)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.logistics import reference
from emissions_sandbox.logistics.models import (
    FuelCatalogue,
    PackagePage,
    Summary,
    TocOut,
)
from emissions_sandbox.pagination import PageParams, select_page, small_page_params
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["logistics"], responses=V1_RESPONSES)
Caller = Depends(require_api_key)
# a package aggregates its legs (facts §4.6: the shipment total is the sum of its legs)
_PACKAGE_COLUMNS = """p.*,
    (SELECT MAX(r.load_tonnes) * 1000 FROM logistics_requests r WHERE r.package_id = p.id)
        AS weight_kg,
    (SELECT SUM(r.distance_km) FROM logistics_requests r WHERE r.package_id = p.id)
        AS total_distance_km,
    (SELECT SUM(r.co2e) FROM logistics_requests r WHERE r.package_id = p.id) AS total_co2e"""


def _package_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    keys = ("id", "shipment_id", "package_key", "client_billing_id", "weight_kg",
            "total_distance_km", "total_co2e", "status", "created_at", "updated_at")  # fmt: skip
    return {key: row[key] for key in keys}


def _legs(conn: sqlite3.Connection, package_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        """SELECT id, origin, destination, distance_km, co2e FROM logistics_requests
        WHERE package_id = ? ORDER BY created_at, id""",
        (package_id,),
    ).fetchall()
    return [dict(row) for row in rows]


@router.get("/v1/logistics/packages", response_model=PackagePage,
            response_model_exclude_unset=True, operation_id="list_logistics_packages")  # fmt: skip
def list_packages(
    request: Request,
    movement_id: str | None = Query(None, max_length=255),
    client: str | None = Query(None, max_length=255),
    package_key: str | None = Query(None, max_length=255),
    paging: PageParams = Depends(small_page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    """A Package page (no `pages`); items carry `legs` only when filtered by `package_key`."""
    conn = request.app.state.db.reader()
    where, params = ["p.organization_id = ?"], [principal.organization_id]
    for column, value in (("p.shipment_id", movement_id), ("p.client_billing_id", client),
                          ("p.package_key", package_key)):  # fmt: skip
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    page = select_page(
        conn, table="logistics_packages p", where=where, params=params, paging=paging,
        to_wire=_package_to_wire, columns=_PACKAGE_COLUMNS, order_by="p.created_at, p.id",
        with_pages=False,
    )  # fmt: skip
    for item in page["items"]:
        if package_key is not None:
            item["legs"] = _legs(conn, item["id"])
    return page


def _entry(conn: sqlite3.Connection, table: str, where: str, params: list[Any]) -> dict[str, Any]:
    count, last = conn.execute(
        f"SELECT COUNT(*), MAX(COALESCE(updated_at, created_at)) FROM {table} WHERE {where}",
        params,
    ).fetchone()
    return {"count": count, "last_updated": last}


@router.get("/v1/logistics/summary", response_model=Summary, operation_id="logistics_summary")
def summary(
    request: Request, project_id: uuid.UUID | None = Query(None), principal: Principal = Caller
) -> dict[str, Any]:
    """Counts and last update; `project_id` scopes requests and recharges (hubs have no project)."""
    conn = request.app.state.db.reader()
    where, params = "organization_id = ?", [principal.organization_id]
    if project_id is not None:
        where, params = where + " AND project_id = ?", [*params, str(project_id)]
    hubs = _entry(conn, "logistic_hubs", "organization_id = ?", [principal.organization_id])
    return {
        "requests": _entry(conn, "logistics_requests", where, params),
        "recharges": _entry(conn, "logistics_recharges", where, params),
        "hubs": hubs,
    }


@router.get("/v1/logistics/tocs", response_model=list[TocOut], operation_id="list_logistics_tocs")
def list_tocs(principal: Principal = Caller) -> list[dict[str, Any]]:
    """facts §4.5: `wtw` in kg CO2e per t·km, `default_load` in kg; with each factor's source."""
    return [
        {
            "id": t.id,
            "toc": t.toc,
            "category": t.category,
            "vehicle": t.vehicle,
            "type": t.type,
            "wtw": t.wtw,
            "default_load": t.default_load_kg,
            "location": t.location,
            "source": t.source,
        }  # fmt: skip
        for t in reference.tocs().values()
    ]


@router.get("/v1/logistics/fuels", response_model=FuelCatalogue,
            operation_id="list_logistics_fuels")  # fmt: skip
def list_fuels(principal: Principal = Caller) -> dict[str, Any]:
    fuels = [
        {"id": f.id, "name": f.name, "unit": f.unit, "region": "GLO"}
        for f in reference.fuels().values()
    ]
    return {"total_count": len(fuels), "fuels": fuels}
