"""Global reference data: waste emission factors (facts §1.4) and units."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.pagination import PageParams, page_params, select_page
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["reference"], responses=V1_RESPONSES)


def _waste_ef(row: Any) -> dict[str, Any]:
    keys = ("id", "low_code", "low_name", "low_description", "rd_code", "rd_name")
    return {
        **{k: row[k] for k in keys},
        "rd_description": row["rd_description"],
        "region": row["region"],
    }


@router.get("/v1/waste-efs", operation_id="list_waste_efs")
def list_waste_efs(
    request: Request,
    region: str | None = Query(None),
    low_code: str | None = Query(None, description="exact LER code, 6 digits, no spaces"),
    rd_code: str | None = Query(None),
    paging: PageParams = Depends(page_params),
    _: Principal = Depends(require_api_key_or_jwt),
) -> dict[str, Any]:
    where, params = [], []
    for column, value in (("region", region), ("low_code", low_code), ("rd_code", rd_code)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value.replace(" ", "") if column == "low_code" else value)
    return select_page(
        request.app.state.db.reader(),
        table="waste_efs",
        where=where,
        params=params,
        order_by="low_code, rd_code, region",
        paging=paging,
        to_wire=_waste_ef,
    )


@router.get("/v1/units", operation_id="list_units")
def list_units(
    request: Request, _: Principal = Depends(require_api_key_or_jwt)
) -> list[dict[str, Any]]:
    rows = request.app.state.db.reader().execute("SELECT id, name, type FROM units ORDER BY name")
    return [dict(r) for r in rows]
