"""v2 ingest jobs: the caller's jobs, one job (`links.self`) and its items (`links.items`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.clock import parse_timestamp
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.ingest_jobs import item_to_wire, job_to_wire, read_job
from emissions_sandbox.pagination import (
    PageParams,
    in_clause,
    page_params,
    page_response,
    select_page,
)
from emissions_sandbox.wire_models import (
    PROBLEM_RESPONSES,
    IngestJob,
    IngestJobItemPage,
    IngestJobPage,
)

router = APIRouter(tags=["ingest jobs"], responses=PROBLEM_RESPONSES)
JobStatus = Literal["processing", "completed", "completed_with_errors", "failed"]
ItemStatus = Literal["pending", "succeeded", "failed", "skipped"]


@router.get("/v2/ingest-jobs", response_model=IngestJobPage, operation_id="list_ingest_jobs")
def list_ingest_jobs(
    request: Request,
    status: list[JobStatus] | None = Query(None),
    operation: list[Literal["create", "delete"]] | None = Query(None),
    created_after: datetime | None = Query(None),
    created_before: datetime | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_api_key),
) -> Response:
    """Newest first."""
    where = ["organization_id = ?"]
    params: list[Any] = [principal.organization_id]
    for column, values in (("status", status), ("operation", operation)):
        if values:
            where.append(in_clause(column, values))
            params.extend(values)
    if created_after:
        where.append("created_at >= ?")
        params.append(parse_timestamp(created_after.isoformat()))
    if created_before:
        where.append("created_at < ?")
        params.append(parse_timestamp(created_before.isoformat()))
    page = select_page(
        request.app.state.db.reader(),
        table="ingest_jobs",
        where=where,
        params=params,
        order_by="created_at DESC, id",
        paging=paging,
        to_wire=job_to_wire,
    )
    return page_response(page)


def _job_or_404(request: Request, principal: Principal, job_id: UUID) -> dict[str, Any]:
    job = read_job(request.app.state.db.reader(), principal.organization_id, str(job_id))
    if job is None:  # interface: Rules 1, another organization's job is not served
        raise ServiceError(404, "NOT_FOUND", "Ingest job not found")
    return job


@router.get("/v2/ingest-jobs/{job_id}", response_model=IngestJob, operation_id="get_ingest_job")
def get_ingest_job(
    job_id: UUID, request: Request, principal: Principal = Depends(require_api_key)
) -> dict[str, Any]:
    return _job_or_404(request, principal, job_id)


@router.get(
    "/v2/ingest-jobs/{job_id}/items",
    response_model=IngestJobItemPage,
    operation_id="list_ingest_job_items",
)
def list_ingest_job_items(
    job_id: UUID,
    request: Request,
    status: list[ItemStatus] | None = Query(None),
    paging: PageParams = Depends(page_params),
    principal: Principal = Depends(require_api_key),
) -> Response:
    _job_or_404(request, principal, job_id)
    where = ["job_id = ?"]
    params: list[Any] = [str(job_id)]
    if status:
        where.append(in_clause("status", status))
        params.extend(status)
    page = select_page(
        request.app.state.db.reader(),
        table="ingest_job_items",
        where=where,
        params=params,
        order_by="source_row_index",
        paging=paging,
        to_wire=item_to_wire,
    )
    return page_response(page)
