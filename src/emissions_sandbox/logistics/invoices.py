"""A minimal invoice store on facilities (sandbox aid, not in the interface): enough to exercise
the rule "a hub whose facility has invoices cannot be deleted" (interface: DELETE hub, 409)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from fastapi import APIRouter, Depends, Request

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.logistics.hub_models import Invoice, InvoiceIn
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["facilities"], responses=V1_RESPONSES)


def _invoice_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    keys = ("id", "facility_id", "type", "invoice_number", "quantity", "start_date", "end_date",
            "created_at")  # fmt: skip
    return {key: row[key] for key in keys}


@router.post("/v1/facilities/{facility_id}/invoices", status_code=201, response_model=Invoice,
             operation_id="create_facility_invoice")  # fmt: skip
def create_invoice(
    facility_id: uuid.UUID,
    body: InvoiceIn,
    request: Request,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    """403 / 404 as on the facility read (interface: GET /v1/facilities/{id})."""
    with request.app.state.db.transaction() as conn:
        facility = conn.execute(
            "SELECT organization_id FROM facilities WHERE id = ? AND deleted_at IS NULL",
            (str(facility_id),),
        ).fetchone()
        if facility is None:
            raise ServiceError(404, "NOT_FOUND", f"Facility with id={facility_id} not found")
        if facility["organization_id"] != principal.organization_id:
            raise ServiceError(403, None, "Facility doesn't belong to organization")
        invoice_id = str(uuid.uuid4())
        conn.execute(
            """INSERT INTO facility_invoices (id, organization_id, facility_id, type,
            invoice_number, quantity, start_date, end_date, created_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (invoice_id, principal.organization_id, str(facility_id), body.type,
             body.invoice_number, body.quantity,
             body.start_date.isoformat() if body.start_date else None,
             body.end_date.isoformat() if body.end_date else None, principal.user_id, utc_now()),
        )  # fmt: skip
        row = conn.execute("SELECT * FROM facility_invoices WHERE id = ?", (invoice_id,))
        return _invoice_to_wire(row.fetchone())
