"""v2 wastes (beta): bulk create and bulk delete as ingest jobs, and the list to read co2e back.

Status codes and body shapes where the interface is silent: README "Wire contract".
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from fastapi import APIRouter, Body, Depends, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from emissions_sandbox import idempotency
from emissions_sandbox.auth import Principal, require_api_key
from emissions_sandbox.db import Database
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.ingest_jobs import NewItem, create_job, job_path, read_job
from emissions_sandbox.waste_records import MAX_RECORDS, WasteRecord, business_errors, parse_records
from emissions_sandbox.waste_store import insert_wastes
from emissions_sandbox.wire_models import (
    PROBLEM_RESPONSES,
    DryRunResult,
    IngestJob,
)

router = APIRouter(tags=["wastes v2"], responses=PROBLEM_RESPONSES)
CREATE_ENDPOINT = "POST /v2/wastes"
DELETE_ENDPOINT = "POST /v2/wastes/delete"


class WasteBulkCreate(BaseModel):
    records: list[WasteRecord] = Field(min_length=1, max_length=MAX_RECORDS)


class WasteBulkDelete(BaseModel):
    waste_ids: list[UUID] = Field(min_length=1, max_length=MAX_RECORDS)


BODY_MODELS = (WasteBulkCreate, WasteBulkDelete)


def _body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The body is read raw (to list every invalid record), so its schema is declared here."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def _invalid(
    detail: str, errors: list[dict[str, Any]], code: str = "VALIDATION_ERROR"
) -> ServiceError:
    return ServiceError(422, code, detail, errors=errors)


def _list_member(payload: Any, member: str) -> list[Any]:
    """The array member of the body, with the count limit (TOO_MANY_RECORDS) checked first."""
    if not isinstance(payload, dict) or not isinstance(payload.get(member), list):
        raise _invalid(
            f"The body must be an object with an array `{member}`",
            [{"index": None, "field": member, "code": "REQUIRED", "message": "array required"}],
        )
    extra = sorted(set(payload) - {member})
    if extra:
        raise _invalid(
            "Unknown members in the body",
            [
                {"index": None, "field": k, "code": "UNKNOWN_FIELD", "message": "not allowed"}
                for k in extra
            ],
        )
    items: list[Any] = payload[member]
    if len(items) > MAX_RECORDS:
        raise _invalid(
            f"At most {MAX_RECORDS} records per request",
            [
                {
                    "index": None,
                    "field": member,
                    "code": "TOO_MANY_RECORDS",
                    "message": f"{len(items)} given, at most {MAX_RECORDS}",
                }
            ],
            code="TOO_MANY_RECORDS",
        )
    if not items:
        raise _invalid(
            "At least one record is required",
            [{"index": None, "field": member, "code": "REQUIRED", "message": "empty array"}],
        )
    return items


def _job_response(job: dict[str, Any], status: int) -> JSONResponse:
    return JSONResponse(job, status_code=status, headers={"Location": job_path(job["id"])})


def _replay(
    db: Database, principal: Principal, endpoint: str, key: str, digest: str
) -> JSONResponse | None:
    job_id = idempotency.replayed_job(db.reader(), principal.organization_id, endpoint, key, digest)
    if job_id is None:
        return None
    job = read_job(db.reader(), principal.organization_id, job_id)
    assert job is not None
    return _job_response(job, 200)


@router.post(
    "/v2/wastes",
    status_code=202,
    operation_id="create_wastes",
    summary="Create wastes in bulk as an ingest job",
    response_model=IngestJob,
    responses={200: {"model": IngestJob | DryRunResult, "description": "replay, or dry run"}},
    openapi_extra=_body_schema(WasteBulkCreate),
)
def create_wastes(
    request: Request,
    payload: Any = Body(None, include_in_schema=False),
    dry_run: bool = Query(False),
    idempotency_key: str | None = Header(None, alias="Idempotency-Key"),
    principal: Principal = Depends(require_api_key),
) -> JSONResponse:
    db: Database = request.app.state.db
    key = idempotency.require_key(idempotency_key)
    raw = _list_member(payload, "records")
    digest = idempotency.body_hash(payload)
    if not dry_run and (replay := _replay(db, principal, CREATE_ENDPOINT, key, digest)):
        return replay
    parsed, errors = parse_records(raw)
    errors += business_errors(db.reader(), principal.organization_id, parsed)
    if errors:
        errors.sort(key=lambda e: (e["index"], e["field"] or ""))
        raise _invalid(
            f"{len({e['index'] for e in errors})} of {len(raw)} records are invalid", errors
        )
    if dry_run:
        return JSONResponse({"dry_run": True, "valid": True, "records": len(parsed)})
    records = [record for _, record in parsed]
    settings = request.app.state.settings
    job_id = str(uuid4())
    with db.transaction() as conn:
        # a concurrent request with the same key may have won the race since the first check
        replay_job = idempotency.replayed_job(
            conn, principal.organization_id, CREATE_ENDPOINT, key, digest
        )
        if replay_job is None:
            waste_ids = insert_wastes(
                conn,
                records,
                organization_id=principal.organization_id,
                user_id=principal.user_id,
                ingest_job_id=job_id,
            )
            items = [
                NewItem(i, r.client_row_id, waste_id)
                for i, (r, waste_id) in enumerate(zip(records, waste_ids, strict=True))
            ]
            create_job(
                conn,
                organization_id=principal.organization_id,
                user_id=principal.user_id,
                operation="create",
                stage="calculate",
                items=items,
                chunk_size=settings.chunk_size,
                job_id=job_id,
            )
            idempotency.remember(
                conn, principal.organization_id, CREATE_ENDPOINT, key, digest, job_id
            )
    return _accepted_or_replayed(request, principal, replay_job or job_id, replay_job is not None)


def _accepted_or_replayed(
    request: Request, principal: Principal, job_id: str, replayed: bool
) -> JSONResponse:
    if not replayed:
        request.app.state.calculation_worker.wake()
    job = read_job(request.app.state.db.reader(), principal.organization_id, job_id)
    assert job is not None
    return _job_response(job, 200 if replayed else 202)


@router.post(
    "/v2/wastes/delete",
    status_code=202,
    operation_id="delete_wastes",
    summary="Delete wastes in bulk as an ingest job (idempotent)",
    response_model=IngestJob,
    responses={200: {"model": IngestJob, "description": "replay of the same request"}},
    openapi_extra=_body_schema(WasteBulkDelete),
)
def delete_wastes(
    request: Request,
    payload: Any = Body(None, include_in_schema=False),
    idempotency_key: str | None = Header(None, alias="Idempotency-Key"),
    principal: Principal = Depends(require_api_key),
) -> JSONResponse:
    db: Database = request.app.state.db
    key = idempotency.require_key(idempotency_key)
    raw = _list_member(payload, "waste_ids")
    digest = idempotency.body_hash(payload)
    if replay := _replay(db, principal, DELETE_ENDPOINT, key, digest):
        return replay
    ids, errors = [], []
    for index, value in enumerate(raw):
        try:
            ids.append(str(UUID(str(value))) if isinstance(value, str) else None)
        except ValueError:
            ids.append(None)
        if ids[-1] is None:
            errors.append(
                {
                    "index": index,
                    "field": "waste_ids",
                    "code": "INVALID_FORMAT",
                    "message": "not a uuid",
                }
            )
    if errors:
        raise _invalid(f"{len(errors)} of {len(raw)} ids are invalid", errors)
    job_id = str(uuid4())
    with db.transaction() as conn:
        replay_job = idempotency.replayed_job(
            conn, principal.organization_id, DELETE_ENDPOINT, key, digest
        )
        if replay_job is None:
            create_job(
                conn,
                organization_id=principal.organization_id,
                user_id=principal.user_id,
                operation="delete",
                stage="delete",
                items=[NewItem(i, None, waste_id) for i, waste_id in enumerate(ids)],
                chunk_size=request.app.state.settings.chunk_size,
                job_id=job_id,
            )
            idempotency.remember(
                conn, principal.organization_id, DELETE_ENDPOINT, key, digest, job_id
            )
    return _accepted_or_replayed(request, principal, replay_job or job_id, replay_job is not None)
