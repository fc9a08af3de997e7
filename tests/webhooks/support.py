"""Helpers of the webhook tests: tenants on the served sandbox, wastes to POST, and deliveries
signed by the `standardwebhooks` reference library (not by our code)."""

from __future__ import annotations

import base64
import json
import secrets
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from pydantic import SecretStr
from standardwebhooks.webhooks import Webhook

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from tests.pipeline.faults import FaultTransport
from tests.sandbox_fixture import OrgCredentials, SandboxServer, create_org

RECORDS_PER_JOB = 3


@dataclass
class Tenant:
    """A fresh organization: its admin's client, whose transport records every request."""

    org: OrgCredentials
    client: EmissionsClient
    transport: FaultTransport
    facility_id: str
    waste_efs_id: str

    def post_job(self, records: int = RECORDS_PER_JOB) -> dict[str, Any]:
        """POST /v2/wastes as the loader does: the ingest job, still `processing` or not."""
        body = [
            {
                "facility_id": self.facility_id,
                "waste_efs_id": self.waste_efs_id,
                "identification_name": f"INV-{n:04d}",
                "start_date": "2026-01-01",
                "end_date": "2026-01-31",
                "base_quantity": 100 + n,
                "client_row_id": f"row-{n}",
            }
            for n in range(records)
        ]
        return self.client.create_wastes(body, idempotency_key=str(uuid.uuid4()))

    def job_reads(self, job_id: str) -> list[tuple[str, str]]:
        """The requests that read this job (GET /v2/ingest-jobs/{id})."""
        path = f"/v2/ingest-jobs/{job_id}"
        return [(m, p) for m, p in self.transport.requests if m == "GET" and p == path]

    def deliveries(self, endpoint_id: str) -> list[dict[str, Any]]:
        page = self.client.get_json(f"/v2/webhook-endpoints/{endpoint_id}/deliveries")
        return list(page["items"])


@contextmanager
def new_tenant(sandbox: SandboxServer, name: str) -> Iterator[Tenant]:
    org = create_org(sandbox.db_path, name[:80])  # the `emissions-sandbox create-org` command
    transport = FaultTransport(sandbox.ca_file, faults=[])
    client = EmissionsClient(
        sandbox.base_url, ApiKeyAuth(org.api_key, org.organization_id), transport=transport
    )
    facility = client.create_facility(name="Plant", type="factory", country="ES")
    [factor] = client.iter_waste_efs(low_code="200101", rd_code="R3", region="GLO")
    try:
        yield Tenant(org, client, transport, facility["id"], factor["id"])
    finally:
        # The sandbox would otherwise keep retrying deliveries to ports already closed.
        for endpoint in list(client.iter_webhook_endpoints()):
            client.delete_webhook_endpoint(endpoint["id"])
        client.close()


def new_secret() -> SecretStr:
    return SecretStr("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def event_body(data: Any, event_type: str = "ingest_job.finished") -> bytes:
    """The service's event shape (sandbox README: "webhook event")."""
    payload = {
        "type": event_type,
        "timestamp": datetime.now(UTC).isoformat(),
        "api_version": "2026-10-05",
        "data": data,
    }
    return json.dumps(payload, separators=(",", ":")).encode()


def signed_headers(
    secret: SecretStr, body: bytes, *, webhook_id: str | None = None, at: datetime | None = None
) -> dict[str, str]:
    webhook_id = webhook_id or "evt_" + uuid.uuid4().hex
    at = at or datetime.now(UTC)
    signature = Webhook(secret.get_secret_value()).sign(webhook_id, at, body.decode())
    return {
        "webhook-id": webhook_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
        "content-type": "application/json",
    }


def deliver(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST one delivery as the service does; the status code answered."""
    return httpx.post(url, content=body, headers=headers, timeout=10).status_code


def wait_until(predicate: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"condition not met within {timeout} s")
