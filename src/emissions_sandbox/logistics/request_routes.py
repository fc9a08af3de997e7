"""HTTP face of shipment legs: v1 (calculated at once) and v2 (calculated by the worker) creates,
their bulk variants, the list and the batch delete (interface: Logistics; facts §4.1-4.5)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.limits import concurrency_limited, rate_limited
from emissions_sandbox.logistics import request_store
from emissions_sandbox.logistics.bulk import run_bulk
from emissions_sandbox.logistics.leg_calculation import LegError
from emissions_sandbox.logistics.models import (
    BulkBody,
    BulkResult,
    LogisticsRequest,
    RequestIds,
    RequestIn,
    RequestPage,
    ValidationProblem,
)
from emissions_sandbox.pagination import PageParams, select_page, small_page_params
from emissions_sandbox.wire_models import PROBLEM_RESPONSES, V1_RESPONSES, V1Error

router = APIRouter(tags=["logistics"])
Caller = Depends(require_api_key)
RATE = Depends(rate_limited(per_second=30))  # interface: Limits, request rate
CONCURRENCY = concurrency_limited(max_in_flight=10)  # interface: Limits, concurrent
_V1: dict[int | str, dict[str, Any]] = {
    **V1_RESPONSES,
    422: {"model": V1Error | ValidationProblem},
    429: {"model": V1Error},
}
_V2: dict[int | str, dict[str, Any]] = {**PROBLEM_RESPONSES, 429: {"model": V1Error}}
_UPDATED: dict[int | str, dict[str, Any]] = {
    200: {"model": LogisticsRequest, "description": "an existing leg (same dedup key)"}
}


def _essentials(row: Any) -> dict[str, Any]:
    return {key: row[key] for key in ("id", "movement_id", "status", "co2e", "distance_km", "tkm")}


def wake_worker(request: Request) -> None:
    worker = getattr(request.app.state, "logistics_worker", None)
    if worker is not None:
        worker.wake()


def _create(
    request: Request, response: Response, principal: Principal, body: RequestIn, deferred: bool
) -> dict[str, Any]:
    try:
        with request.app.state.db.transaction() as conn:
            row, created = request_store.save_request(conn, principal, body, deferred=deferred)
    except LegError as exc:
        raise ServiceError(422, exc.code, exc.detail) from None
    if deferred:
        wake_worker(request)
    response.status_code = 201 if created else 200
    return request_store.request_to_wire(row)


@router.post("/v1/logistics/requests", status_code=201, response_model=LogisticsRequest,
             responses={**_V1, **_UPDATED}, operation_id="create_logistics_request",
             dependencies=[RATE])  # fmt: skip
def create_request(
    body: RequestIn, request: Request, response: Response, principal: Principal = Caller
) -> dict[str, Any]:
    return _create(request, response, principal, body, deferred=False)


@router.post("/v2/logistics/requests", status_code=201, response_model=LogisticsRequest,
             responses={**_V2, **_UPDATED}, operation_id="create_logistics_request_v2",
             dependencies=[RATE])  # fmt: skip
def create_request_v2(
    body: RequestIn, request: Request, response: Response, principal: Principal = Caller
) -> dict[str, Any]:
    """facts §4.2: the same body; `co2e` is null until the worker has calculated the leg."""
    return _create(request, response, principal, body, deferred=True)


def _bulk(request: Request, principal: Principal, body: BulkBody, deferred: bool) -> dict[str, Any]:
    def save(record: RequestIn) -> dict[str, Any]:
        row, _ = request_store.save_request(conn, principal, record, deferred=deferred)
        return _essentials(row)

    with request.app.state.db.transaction() as conn:
        result = run_bulk(conn, body, RequestIn, save, request_store.dedup_key)
    if deferred:
        wake_worker(request)
    return result


@router.post("/v1/logistics/requests/bulk", response_model=BulkResult, responses=_V1,
             operation_id="create_logistics_requests_bulk", dependencies=[CONCURRENCY])  # fmt: skip
def create_requests_bulk(
    body: BulkBody, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    return _bulk(request, principal, body, deferred=False)


@router.post("/v2/logistics/requests/bulk", response_model=BulkResult, responses=_V2,
             operation_id="create_logistics_requests_bulk_v2",
             dependencies=[CONCURRENCY])  # fmt: skip
def create_requests_bulk_v2(
    body: BulkBody, request: Request, principal: Principal = Caller
) -> dict[str, Any]:
    """facts §4.3: every `results[].co2e` is null; the worker calculates the legs later."""
    return _bulk(request, principal, body, deferred=True)


@router.get("/v1/logistics/requests", response_model=RequestPage, responses=_V1,
            operation_id="list_logistics_requests")  # fmt: skip
def list_requests(
    request: Request,
    movement_id: str | None = Query(None, max_length=255),
    client: str | None = Query(None, max_length=255),
    package_key: str | None = Query(None, max_length=255),
    hub_id: str | None = Query(None, max_length=64),
    status: Literal["pending", "active", "error"] | None = Query(None),
    paging: PageParams = Depends(small_page_params),
    principal: Principal = Caller,
) -> dict[str, Any]:
    filters = {"movement_id": movement_id, "client": client, "package_key": package_key,
               "hub_id": hub_id, "status": status}  # fmt: skip
    where = ["organization_id = ?"]
    params: list[Any] = [principal.organization_id]
    for column, value in filters.items():
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    page = select_page(
        request.app.state.db.reader(), table="logistics_requests", where=where, params=params,
        paging=paging, to_wire=request_store.request_to_wire, with_pages=False,
    )  # fmt: skip
    canonical = json.dumps({k: v for k, v in filters.items() if v is not None}, sort_keys=True)
    return {**page, "filter_hash": hashlib.sha256(canonical.encode()).hexdigest()}


@router.post("/v1/logistics/requests/batch-delete", status_code=204, response_class=Response,
             responses={**V1_RESPONSES, 422: {"model": ValidationProblem}},
             operation_id="batch_delete_logistics_requests")  # fmt: skip
def batch_delete_requests(
    body: RequestIds, request: Request, principal: Principal = Caller
) -> Response:
    """Permanent; 404 NOT_FOUND (and nothing deleted) when any id is unknown or not ours."""
    with request.app.state.db.transaction() as conn:
        request_store.delete_rows(
            conn,
            "logistics_requests",
            principal.organization_id,
            [str(i) for i in body.request_ids],
        )
    return Response(status_code=204)
