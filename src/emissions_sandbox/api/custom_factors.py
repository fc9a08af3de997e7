"""A minimal custom emission factor store, enough for `custom_ef_record_id` on wastes."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["custom emission factors"], responses=V1_RESPONSES)


class CustomFactorBody(BaseModel):
    name: str = Field(min_length=1, max_length=255)
    factor_kg_co2e_per_t: float = Field(ge=0)


def _wire(row: Any) -> dict[str, Any]:
    return {k: row[k] for k in ("id", "name", "factor_kg_co2e_per_t", "created_at")}


@router.post("/v1/custom-emission-factors", status_code=201, operation_id="create_custom_ef")
def create_custom_factor(
    body: CustomFactorBody,
    request: Request,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    factor_id = str(uuid.uuid4())
    with request.app.state.db.transaction() as conn:
        conn.execute(
            """INSERT INTO custom_emission_factors (id, organization_id, name,
            factor_kg_co2e_per_t, created_at) VALUES (?, ?, ?, ?, ?)""",
            (factor_id, principal.organization_id, body.name, body.factor_kg_co2e_per_t, utc_now()),
        )
        row = conn.execute(
            "SELECT * FROM custom_emission_factors WHERE id = ?", (factor_id,)
        ).fetchone()
    return _wire(row)


@router.delete(
    "/v1/custom-emission-factors/{factor_id}", status_code=204, operation_id="delete_custom_ef"
)
def delete_custom_factor(
    factor_id: uuid.UUID,
    request: Request,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> Response:
    with request.app.state.db.transaction() as conn:
        cursor = conn.execute(
            """UPDATE custom_emission_factors SET deleted_at = ?
            WHERE id = ? AND organization_id = ? AND deleted_at IS NULL""",
            (utc_now(), str(factor_id), principal.organization_id),
        )
    if cursor.rowcount == 0:
        raise ServiceError(404, "NOT_FOUND", "Custom emission factor not found")
    return Response(status_code=204)
