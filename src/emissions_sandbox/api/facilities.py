"""Facilities (interface: Facility; facts §9.2): create, list, read, partial PUT, soft delete."""

from __future__ import annotations

import json
import uuid
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import PageParams, in_clause, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["facilities"], responses=V1_RESPONSES)
Category = Literal["heat", "electricity", "water", "recharge"]
_COLUMNS = """f.*, (SELECT SUM(w.co2e) FROM wastes w WHERE w.facility_id = f.id) AS co2e,
    (SELECT SUM(w.co2e_biomass) FROM wastes w WHERE w.facility_id = f.id) AS co2e_biomass"""


class FacilityCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=255)
    type: str = Field(min_length=1)
    country: str = Field(min_length=2, max_length=3)
    address: str | None = None
    logistic_factor: float = Field(0.8, ge=0, le=1)
    categories: list[Category] | None = None
    cups_list: list[str] | None = None
    facility_purpose_type: str | None = None


class FacilityUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=255)
    type: str | None = Field(None, min_length=1)
    country: str | None = Field(None, min_length=2, max_length=3)
    address: str | None = None
    status: Literal["active", "archived"] | None = None
    logistic_factor: float | None = Field(None, ge=0, le=1)
    categories: list[Category] | None = None
    cups_list: list[str] | None = None
    facility_purpose_type: str | None = None


def facility_to_wire(row: Any) -> dict[str, Any]:
    keys = ("id", "name", "type", "country", "address", "status", "co2e", "co2e_biomass")
    return {
        **{k: row[k] for k in keys},
        "logistic_factor": row["logistic_factor"],
        "categories": json.loads(row["categories"]) if row["categories"] else None,
        "cups_list": json.loads(row["cups_list"]) if row["cups_list"] else None,
        "facility_purpose_type": row["facility_purpose_type"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def _owned_facility(conn: Any, facility_id: str, principal: Principal) -> Any:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM facilities f WHERE f.id = ? AND f.deleted_at IS NULL",
        (facility_id,),
    ).fetchone()
    if row is None:
        raise ServiceError(404, "NOT_FOUND", f"Facility with id={facility_id} not found")
    if row["organization_id"] != principal.organization_id:
        # facts §5: this 403 carries a detail and no code
        raise ServiceError(403, None, "Facility doesn't belong to organization")
    return row


def insert_facility(
    conn: Any, organization_id: str, user_id: str | None, body: FacilityCreate
) -> dict[str, Any]:
    """Insert a facility and return its wire form (the CLI uses it too)."""
    facility_id = str(uuid.uuid4())
    now = utc_now()
    conn.execute(
        """INSERT INTO facilities (id, organization_id, name, type, country, address,
        logistic_factor, categories, cups_list, facility_purpose_type, created_by,
        created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            facility_id,
            organization_id,
            body.name,
            body.type,
            body.country.upper(),
            body.address,
            body.logistic_factor,
            json.dumps(body.categories) if body.categories is not None else None,
            json.dumps(body.cups_list) if body.cups_list is not None else None,
            body.facility_purpose_type,
            user_id,
            now,
            now,
        ),
    )
    row = conn.execute(f"SELECT {_COLUMNS} FROM facilities f WHERE f.id = ?", (facility_id,))
    return facility_to_wire(row.fetchone())


@router.post("/v1/facilities", status_code=201, operation_id="create_facility")
def create_facility(
    body: FacilityCreate, request: Request, principal: Principal = Depends(require_api_key_or_jwt)
) -> dict[str, Any]:
    with request.app.state.db.transaction() as conn:
        return insert_facility(conn, principal.organization_id, principal.user_id, body)


@router.get("/v1/facilities", operation_id="list_facilities")
def list_facilities(
    request: Request,
    name: str | None = Query(None, description="partial, case-insensitive"),
    country: str | None = Query(None),
    type: str | None = Query(None),
    status: list[Literal["active", "archived"]] | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    where = ["f.organization_id = ?", "f.deleted_at IS NULL"]
    params: list[Any] = [principal.organization_id]
    if name:
        where.append("f.name LIKE ? ESCAPE '\\'")
        escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        params.append(f"%{escaped}%")
    if country:
        where.append("f.country = ?")
        params.append(country.upper())
    if type:
        where.append("f.type = ?")
        params.append(type)
    if status:
        where.append(in_clause("f.status", status))
        params.extend(status)
    return select_page(
        request.app.state.db.reader(),
        table="facilities f",
        where=where,
        params=params,
        order_by="f.created_at, f.id",
        paging=paging,
        to_wire=facility_to_wire,
        columns=_COLUMNS,
    )


@router.get("/v1/facilities/{facility_id}", operation_id="get_facility")
def get_facility(
    facility_id: uuid.UUID, request: Request, principal: Principal = Depends(require_api_key_or_jwt)
) -> dict[str, Any]:
    conn = request.app.state.db.reader()
    return facility_to_wire(_owned_facility(conn, str(facility_id), principal))


@router.put("/v1/facilities/{facility_id}", operation_id="update_facility")
def update_facility(
    facility_id: uuid.UUID,
    body: FacilityUpdate,
    request: Request,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    """PUT as a partial update (facts §9.2): only the fields sent change."""
    changes = body.model_dump(exclude_unset=True)
    for key in ("categories", "cups_list"):
        if key in changes and changes[key] is not None:
            changes[key] = json.dumps(changes[key])
    if changes.get("country"):
        changes["country"] = changes["country"].upper()
    with request.app.state.db.transaction() as conn:
        _owned_facility(conn, str(facility_id), principal)
        if changes:
            assignments = ", ".join(f"{column} = ?" for column in changes)
            conn.execute(
                f"UPDATE facilities SET {assignments}, updated_at = ? WHERE id = ?",
                [*changes.values(), utc_now(), str(facility_id)],
            )
        return facility_to_wire(_owned_facility(conn, str(facility_id), principal))


@router.delete("/v1/facilities/{facility_id}", status_code=204, operation_id="delete_facility")
def delete_facility(
    facility_id: uuid.UUID, request: Request, principal: Principal = Depends(require_api_key_or_jwt)
) -> Response:
    with request.app.state.db.transaction() as conn:
        _owned_facility(conn, str(facility_id), principal)
        conn.execute(
            "UPDATE facilities SET deleted_at = ?, updated_at = ? WHERE id = ?",
            (utc_now(), utc_now(), str(facility_id)),
        )
    return Response(status_code=204)
