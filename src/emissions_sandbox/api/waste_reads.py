"""GET /v2/wastes: the organization's wastes with `status` and `co2e`, so clients read
calculated emissions back and recover ids by `client_row_id` after a crash."""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.clock import parse_timestamp
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.pagination import (
    PageParams,
    in_clause,
    page_params,
    page_response,
    select_page,
)
from emissions_sandbox.waste_store import WASTE_COLUMNS, WASTE_TABLE, waste_to_wire
from emissions_sandbox.wire_models import PROBLEM_RESPONSES, WastePage

router = APIRouter(tags=["wastes v2"], responses=PROBLEM_RESPONSES)


@router.get("/v2/wastes", response_model=WastePage, operation_id="list_wastes")
def list_wastes(
    request: Request,
    ids: list[UUID] | None = Query(None),
    facility_id: UUID | None = Query(None),
    client_row_id: list[str] | None = Query(None),
    ingest_job_id: UUID | None = Query(None, description="records written by this ingest job"),
    start_date: date | None = Query(None, description="start_date >= this date"),
    end_date: date | None = Query(None, description="end_date <= this date"),
    updated_since: str | None = Query(None, description="ISO timestamp; updated_at >= it"),
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_api_key),
) -> Response:
    # SQLite would walk the organization's wastes in creation order (the ORDER BY's index) and
    # test each against a list of ids or client_row_ids, a cost that grows with the wastes.
    # Looking the listed ones up and sorting those costs what the list holds.
    table = "wastes w INDEXED BY wastes_client_row" if client_row_id else WASTE_TABLE
    where = ["+w.organization_id = ?" if ids and not client_row_id else "w.organization_id = ?"]
    params: list[Any] = [principal.organization_id]
    if ids:
        where.append(in_clause("w.id", ids))
        params.extend(str(i) for i in ids)
    if facility_id:
        where.append("w.facility_id = ?")
        params.append(str(facility_id))
    if client_row_id:
        where.append(in_clause("w.client_row_id", client_row_id))
        params.extend(client_row_id)
    if ingest_job_id:
        where.append("w.ingest_job_id = ?")
        params.append(str(ingest_job_id))
    if start_date:
        where.append("w.start_date >= ?")
        params.append(start_date.isoformat())
    if end_date:
        where.append("w.end_date <= ?")
        params.append(end_date.isoformat())
    if updated_since:
        try:
            params.append(parse_timestamp(updated_since))
        except ValueError:
            raise ServiceError(
                422,
                "VALIDATION_ERROR",
                "updated_since is not an ISO timestamp",
                [
                    {
                        "index": None,
                        "field": "updated_since",
                        "code": "INVALID_FORMAT",
                        "message": "ISO 8601 timestamp expected",
                    }
                ],
            ) from None
        where.append("w.updated_at >= ?")
    page = select_page(
        request.app.state.db.reader(),
        table=table,
        where=where,
        params=params,
        order_by="w.created_at, w.rowid",
        paging=paging,
        to_wire=waste_to_wire,
        columns=WASTE_COLUMNS,
    )
    return page_response(page)
