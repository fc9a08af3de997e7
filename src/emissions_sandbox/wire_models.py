"""Response models of the v2 API, declared so the OpenAPI document can generate a client
(changelog 2026-10-05: OpenAPI document of v2). Field names follow the interface tables."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel


class ProblemError(BaseModel):
    index: int | None
    field: str | None
    code: str
    message: str


class Problem(BaseModel):
    """RFC 9457 problem details, media type application/problem+json."""

    type: str
    title: str
    status: int
    detail: str
    instance: str
    code: str | None
    errors: list[ProblemError]


class IngestJobCounts(BaseModel):
    submitted: int
    succeeded: int
    failed: int


class IngestJobLinks(BaseModel):
    self: str
    items: str


class IngestJob(BaseModel):
    id: str
    status: Literal["processing", "completed", "completed_with_errors", "failed"]
    entity_type: str
    operation: Literal["create", "delete"]
    source: Literal["api_bulk", "file_upload", "import_wizard"]
    counts: IngestJobCounts
    chunks_total: int
    chunks_done: int
    created_at: str
    finished_at: str | None
    links: IngestJobLinks


class IngestJobItem(BaseModel):
    source_row_index: int
    client_row_id: str | None
    chunk_index: int | None
    stage: Literal["persist", "calculate", "delete"]
    status: Literal["pending", "succeeded", "failed", "skipped"]
    entity_id: str | None
    error_code: str | None
    error_params: dict[str, Any] | None
    attempt_count: int


class Waste(BaseModel):
    id: str
    facility_id: str
    identification_name: str
    description: str
    destination: str
    start_date: str
    end_date: str
    base_quantity: float
    unit_id: str
    quantity: float | None
    waste_efs_id: str | None
    low_code: str | None
    rd_code: str | None
    total_km_to_waste_center: float | None
    client_row_id: str | None
    status: Literal["loading", "active", "error"]
    co2e: float | None
    co2e_biomass: float | None
    ingest_job_id: str | None
    error_code: str | None
    created_at: str
    updated_at: str


class DryRunResult(BaseModel):
    dry_run: Literal[True]
    valid: Literal[True]
    records: int


class IngestJobPage(BaseModel):
    items: list[IngestJob]
    total: int
    page: int
    size: int
    pages: int


class IngestJobItemPage(BaseModel):
    items: list[IngestJobItem]
    total: int
    page: int
    size: int
    pages: int


class WastePage(BaseModel):
    items: list[Waste]
    total: int
    page: int
    size: int
    pages: int


PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem, "content": {"application/problem+json": {}}}
    for status in (400, 401, 403, 404, 422)
}


def use_problem_media_type(document: dict[str, Any]) -> dict[str, Any]:
    """FastAPI files a response model under application/json; error responses declared with
    an application/problem+json entry get the schema moved there."""
    for path_item in document.get("paths", {}).values():
        for operation in path_item.values():
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                if "application/problem+json" in content and "application/json" in content:
                    content["application/problem+json"] = content.pop("application/json")
    return document


def add_components(document: dict[str, Any], models: tuple[type[BaseModel], ...]) -> None:
    """Declare request-body models that routes reference by `#/components/schemas/<name>`."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for model in models:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema


class V1Error(BaseModel):
    """v1 error body: `{detail, code}` (interface: Errors); `code` absent on some 403s."""

    detail: str
    code: str | None = None


V1_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": V1Error} for status in (400, 401, 403, 404)
}
