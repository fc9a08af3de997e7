"""Logistic hubs (interface: Logistic hub, Logistic hubs; facts §9.3): create, list, read, partial
PUT, hard delete. `co2e` is the linked facility's (the sum of its wastes, as on the facility)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox import gazetteer
from emissions_sandbox.api.facilities import FacilityCreate, insert_facility
from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.logistics.hub_models import Hub, HubCreate, HubPage, HubType, HubUpdate
from emissions_sandbox.logistics.models import ValidationProblem
from emissions_sandbox.pagination import PageParams, in_clause, select_page, small_page_params
from emissions_sandbox.wire_models import V1_RESPONSES, V1Error

router = APIRouter(prefix="/v1/logistic-hubs", tags=["logistic hubs"], responses=V1_RESPONSES)
Caller = Depends(require_api_key)
_CONFLICT: dict[int | str, dict[str, Any]] = {409: {"model": V1Error}}
_COLUMNS = """h.*, (SELECT SUM(w.co2e) FROM wastes w WHERE w.facility_id = h.facility_id)
    AS co2e"""
HUB_FACILITY_TYPE = "logistics_hub"  # type of the facility created for an owned hub (decision)


def hub_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    keys = ("id", "name", "address", "country", "type", "category", "status", "facility_id",
            "co2e", "created_at", "updated_at")  # fmt: skip
    return {**{key: row[key] for key in keys}, "supercharger": bool(row["supercharger"])}


def _hub(conn: sqlite3.Connection, hub_id: str, principal: Principal) -> sqlite3.Row:
    row = conn.execute(f"SELECT {_COLUMNS} FROM logistic_hubs h WHERE h.id = ?", (hub_id,))
    found: sqlite3.Row | None = row.fetchone()
    if found is None:
        raise ServiceError(404, "NOT_FOUND", f"Logistic hub with id={hub_id} not found")
    if found["organization_id"] != principal.organization_id:
        raise ServiceError(403, None, "Logistic hub doesn't belong to organization")
    return found


def _facility(
    conn: sqlite3.Connection, facility_id: uuid.UUID, principal: Principal
) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        """SELECT * FROM facilities WHERE id = ? AND organization_id = ?
        AND deleted_at IS NULL""",
        (str(facility_id), principal.organization_id),
    ).fetchone()
    if row is None:
        raise ServiceError(404, "NOT_FOUND", f"Facility with id={facility_id} not found")
    return row


def _name_taken(conn: sqlite3.Connection, org: str, name: str, hub_id: str | None) -> None:
    row = conn.execute(
        "SELECT id FROM logistic_hubs WHERE organization_id = ? AND name = ? AND id IS NOT ?",
        (org, name, hub_id),
    ).fetchone()
    if row is not None:
        raise ServiceError(409, "HUB_NAME_TAKEN", f"A logistic hub named {name!r} exists")


@router.post("", status_code=201, response_model=Hub, responses=_CONFLICT,
             operation_id="create_logistic_hub")  # fmt: skip
def create_hub(body: HubCreate, request: Request, principal: Principal = Caller) -> dict[str, Any]:
    """Name unique per organization (409); `facility_id` required when owned, null when
    subcontracted (facts §9.3); `country` from the body, else geocoded from the address."""
    with request.app.state.db.transaction() as conn:
        _name_taken(conn, principal.organization_id, body.name, None)
        facility_id = None
        if body.type == "owned" and body.facility_id is not None:
            facility_id = str(_facility(conn, body.facility_id, principal)["id"])
        country = body.country or (
            gazetteer.country_of_address(body.address) if body.address else None
        )
        hub_id, now = str(uuid.uuid4()), utc_now()
        conn.execute(
            """INSERT INTO logistic_hubs (id, organization_id, name, address, country, type,
            category, supercharger, facility_id, created_by, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (hub_id, principal.organization_id, body.name, body.address,
             country.upper() if country else None, body.type, body.category,
             int(body.supercharger), facility_id, principal.user_id, now, None),
        )  # fmt: skip
        return hub_to_wire(_hub(conn, hub_id, principal))


@router.get("", response_model=HubPage, operation_id="list_logistic_hubs")
def list_hubs(
    request: Request,
    name: str | None = Query(None, max_length=255, description="partial, case-insensitive"),
    category: str | None = Query(None, max_length=100),
    type: HubType | None = Query(None),
    status: list[Literal["active", "archived"]] | None = Query(None),
    paging: PageParams = Depends(small_page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    where, params = ["h.organization_id = ?"], [principal.organization_id]
    if name:
        escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append("h.name LIKE ? ESCAPE '\\'")
        params.append(f"%{escaped}%")
    for column, value in (("h.category", category), ("h.type", type)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if status:
        where.append(in_clause("h.status", status))
        params.extend(status)
    return select_page(
        request.app.state.db.reader(), table="logistic_hubs h", where=where, params=params,
        paging=paging, to_wire=hub_to_wire, columns=_COLUMNS, order_by="h.created_at, h.id",
    )  # fmt: skip


@router.get("/{hub_id}", response_model=Hub, operation_id="get_logistic_hub")
def get_hub(hub_id: uuid.UUID, request: Request, principal: Principal = Caller) -> dict[str, Any]:
    return hub_to_wire(_hub(request.app.state.db.reader(), str(hub_id), principal))


_UNPROCESSABLE: dict[int | str, dict[str, Any]] = {422: {"model": V1Error | ValidationProblem}}


@router.put("/{hub_id}", response_model=Hub, responses={**_CONFLICT, **_UNPROCESSABLE},
            operation_id="update_logistic_hub")  # fmt: skip
def update_hub(
    hub_id: uuid.UUID, body: HubUpdate, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    """Only sent fields change. Turning `owned` without a facility, with an address, creates and
    links a facility (interface: PUT rule)."""
    changes = body.model_dump(exclude_unset=True)
    with request.app.state.db.transaction() as conn:
        hub = _hub(conn, str(hub_id), principal)
        if changes.get("name") is not None:
            _name_taken(conn, principal.organization_id, changes["name"], str(hub_id))
        new_type = changes.get("type") or hub["type"]
        if changes.get("facility_id") is not None:
            changes["facility_id"] = str(_facility(conn, changes["facility_id"], principal)["id"])
        if new_type == "subcontracted":
            changes["facility_id"] = None  # facts §9.3: forced to null when subcontracted
        elif changes.get("facility_id") is None:
            changes.pop("facility_id", None)  # an owned hub keeps its facility
            if hub["facility_id"] is None:
                changes["facility_id"] = _facility_for_owned_hub(conn, principal, hub, changes)
        if changes.get("country"):
            changes["country"] = changes["country"].upper()
        if changes.get("supercharger") is not None:
            changes["supercharger"] = int(changes["supercharger"])
        nullable = {"address", "country", "category", "facility_id"}
        changes = {k: v for k, v in changes.items() if v is not None or k in nullable}
        if changes:
            assignments = ", ".join(f"{column} = ?" for column in changes)
            conn.execute(
                f"UPDATE logistic_hubs SET {assignments}, updated_at = ? WHERE id = ?",
                [*changes.values(), utc_now(), str(hub_id)],
            )
        return hub_to_wire(_hub(conn, str(hub_id), principal))


def _facility_for_owned_hub(
    conn: sqlite3.Connection, principal: Principal, hub: sqlite3.Row, changes: dict[str, Any]
) -> str:
    """An owned hub needs a facility: made from the hub's address and country, else 422."""
    address = changes.get("address") or hub["address"]
    country = changes.get("country") or hub["country"]
    if address and not country:
        country = gazetteer.country_of_address(address)
    if not address or not country:
        raise ServiceError(
            422, "FACILITY_REQUIRED",
            "An owned hub needs facility_id, or an address (with a known country) to create one",
        )  # fmt: skip
    facility = FacilityCreate(
        name=changes.get("name") or hub["name"], type=HUB_FACILITY_TYPE, country=country,
        address=address,
        logistic_factor=FacilityCreate.model_fields["logistic_factor"].default,
    )  # fmt: skip
    return str(insert_facility(conn, principal.organization_id, principal.user_id, facility)["id"])


@router.delete("/{hub_id}", status_code=204, response_class=Response, responses=_CONFLICT,
               operation_id="delete_logistic_hub")  # fmt: skip
def delete_hub(hub_id: uuid.UUID, request: Request, principal: Principal = Caller) -> Response:
    """Hard delete; 409 while a logistics request references the hub or its facility has
    invoices (interface: States and transitions)."""
    with request.app.state.db.transaction() as conn:
        hub = _hub(conn, str(hub_id), principal)
        if conn.execute("SELECT 1 FROM logistics_requests WHERE hub_id = ? LIMIT 1",
                        (str(hub_id),)).fetchone():  # fmt: skip
            raise ServiceError(409, "HUB_IN_USE", "A logistics request references the hub")
        if (
            hub["facility_id"]
            and conn.execute(
                "SELECT 1 FROM facility_invoices WHERE facility_id = ? LIMIT 1",
                (hub["facility_id"],),
            ).fetchone()
        ):
            raise ServiceError(409, "FACILITY_HAS_INVOICES", "The hub's facility has invoices")
        conn.execute("DELETE FROM logistic_hubs WHERE id = ?", (str(hub_id),))
    return Response(status_code=204)
