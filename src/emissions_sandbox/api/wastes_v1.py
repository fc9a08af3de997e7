"""Deprecated v1 wastes (facts §1.1, §1.6), kept working with RFC 9745 `Deprecation` and a
`Link` to the v2 successor (interface: Versioning rule 4). Calculated synchronously."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.waste_calculation import FactorCache, calculate_waste
from emissions_sandbox.waste_records import WasteFields, WasteRecord, business_errors
from emissions_sandbox.waste_store import WASTE_COLUMNS, WASTE_TABLE, insert_wastes, waste_to_wire
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["wastes v1 (deprecated)"], responses=V1_RESPONSES)
DEPRECATION = "@1791158400"  # 2026-10-05T00:00:00Z, the changelog's deprecation date


class WasteCreateV1(WasteFields):
    """The body of POST /v1/wastes: v1 names the custom factor `custom_emission_factor_id`."""

    custom_emission_factor_id: UUID | None = None


class WasteBulkDeleteV1(BaseModel):
    waste_ids: list[UUID] = Field(min_length=1, max_length=100_000)


def _deprecate(request: Request, response: Response, successor: str) -> None:
    base = str(request.base_url).rstrip("/")
    response.headers["Deprecation"] = DEPRECATION
    response.headers["Link"] = f'<{base}{successor}>; rel="successor-version"'


@router.post("/v1/wastes", status_code=201, deprecated=True, operation_id="create_waste_v1")
def create_waste(
    body: WasteCreateV1,
    request: Request,
    response: Response,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    record = WasteRecord(
        **body.model_dump(exclude={"custom_emission_factor_id"}),
        custom_ef_record_id=body.custom_emission_factor_id,
    )
    db = request.app.state.db
    errors = business_errors(db.reader(), principal.organization_id, [(0, record)])
    if errors:
        first = errors[0]
        raise ServiceError(422, first["code"], f"{first['field']}: {first['message']}")
    with db.transaction() as conn:
        (waste_id,) = insert_wastes(
            conn,
            [record],
            organization_id=principal.organization_id,
            user_id=principal.user_id,
            ingest_job_id=None,
        )
        row = conn.execute(
            """SELECT w.id, w.base_quantity, w.unit_id, w.waste_efs_id, c.custom_ef_record_id
            FROM wastes w LEFT JOIN waste_calculation_configs c ON c.waste_id = w.id
            WHERE w.id = ?""",
            (waste_id,),
        ).fetchone()
        factors = FactorCache()
        factors.refresh_custom(conn, [row["custom_ef_record_id"]])
        result = calculate_waste(row, factors)
        conn.execute(
            "UPDATE wastes SET status = ?, quantity = ?, co2e = ?, co2e_biomass = ?,"
            " error_code = ? WHERE id = ?",
            (
                "error" if result.error_code else "active",
                result.quantity,
                result.co2e,
                None if result.error_code else 0.0,
                result.error_code,
                waste_id,
            ),
        )
        saved = conn.execute(
            f"SELECT {WASTE_COLUMNS} FROM {WASTE_TABLE} WHERE w.id = ?", (waste_id,)
        ).fetchone()
    _deprecate(request, response, "/v2/wastes")
    return waste_to_wire(saved)


@router.post("/v1/waste/bulk-delete", deprecated=True, operation_id="bulk_delete_wastes_v1")
def bulk_delete_wastes(
    body: WasteBulkDeleteV1,
    request: Request,
    response: Response,
    principal: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    """Permanent delete; unknown ids (or another organization's) land in `failed_ids`."""
    ids = list(dict.fromkeys(str(i) for i in body.waste_ids))
    deleted: list[str] = []
    with request.app.state.db.transaction() as conn:
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            found = [
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM wastes WHERE organization_id = ? AND id IN ({marks})",
                    [principal.organization_id, *part],
                )
            ]
            conn.executemany(
                "DELETE FROM waste_calculation_configs WHERE waste_id = ?", [(i,) for i in found]
            )
            conn.executemany("DELETE FROM wastes WHERE id = ?", [(i,) for i in found])
            deleted.extend(found)
    done = set(deleted)
    failed = [i for i in ids if i not in done]
    _deprecate(request, response, "/v2/wastes/delete")
    return {
        "success_count": len(deleted),
        "success_ids": [i for i in ids if i in done],
        "failed_count": len(failed),
        "failed_ids": failed,
        "message": f"{len(deleted)} wastes deleted, {len(failed)} failed",
    }
