"""Request builders shared by the sandbox's waste and ingest-job tests."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx

KILOGRAMS_ID = "61743a63-ff70-459c-9567-5eee8f7dfd5c"
TONNES_ID = "c6d4a0f1-2b9e-4a57-9d1f-0b6f5a7e3c21"
LITERS_ID = "3b1f8e02-7c55-4d0e-9a43-52c1f0b5a7d9"


def new_facility(client: httpx.Client, **fields: Any) -> str:
    body = {"name": "Plant", "type": "factory", "country": "ES", **fields}
    response = client.post("/v1/facilities", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def waste_ef_id(client: httpx.Client, low_code: str, rd_code: str, region: str = "GLO") -> str:
    page = client.get(
        "/v1/waste-efs", params={"low_code": low_code, "rd_code": rd_code, "region": region}
    ).json()
    assert page["total"] == 1, page
    return str(page["items"][0]["id"])


def record(facility_id: str, waste_efs_id: str | None, **fields: Any) -> dict[str, Any]:
    return {
        "facility_id": facility_id,
        "identification_name": "RSU-2024-001",
        "start_date": "2024-01-01",
        "end_date": "2024-01-31",
        "base_quantity": 1000,
        **({"waste_efs_id": waste_efs_id} if waste_efs_id else {}),
        **fields,
    }


def post_wastes(
    client: httpx.Client, records: list[dict[str, Any]], key: str | None = None, **params: Any
) -> httpx.Response:
    headers = {"Idempotency-Key": key or str(uuid.uuid4())}
    return client.post("/v2/wastes", json={"records": records}, headers=headers, params=params)


def wait_finished(client: httpx.Client, job_path: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(job_path).json()
        if job["status"] != "processing":
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_path} still processing after {timeout} s")
