"""Routes that exist only to test the limit and auth dependencies (mounted when
settings.test_routes)."""

from __future__ import annotations

import time

from fastapi import APIRouter, Depends, Query

from emissions_sandbox.auth import Principal, require_legacy, require_org_admin
from emissions_sandbox.limits import concurrency_limited, rate_limited

router = APIRouter(prefix="/_test", include_in_schema=False)


@router.post("/rate-limited", dependencies=[Depends(rate_limited(per_second=30))])
def rate_limited_probe() -> dict[str, bool]:
    return {"ok": True}


@router.post("/concurrency-limited", dependencies=[concurrency_limited(max_in_flight=10)])
def concurrency_limited_probe(hold: float = Query(0.0, ge=0, le=5)) -> dict[str, bool]:
    time.sleep(hold)
    return {"ok": True}


@router.get("/legacy")
def legacy_probe(principal: Principal = Depends(require_legacy)) -> dict[str, str]:
    return {"user_id": principal.user_id, "organization_id": principal.organization_id}


@router.get("/org-admin")
def org_admin_probe(principal: Principal = Depends(require_org_admin)) -> dict[str, str]:
    return {"user_id": principal.user_id}
