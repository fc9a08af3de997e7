"""``open_job_completion``: polling without a URL, the webhook with one, and its life cycle."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.webhooks import (
    PollingCompletion,
    WebhookCompletion,
    WebhookSettings,
    open_job_completion,
)
from tests.webhooks.support import RECORDS_PER_JOB, Tenant, free_port

pytestmark = pytest.mark.timeout(120)


def test_without_a_url_jobs_are_polled(tenant: Tenant, tmp_path: Path) -> None:
    settings = WebhookSettings(warehouse=tmp_path / "warehouse.duckdb")

    with open_job_completion(tenant.client, settings) as completion:
        assert isinstance(completion, PollingCompletion)
        job = tenant.post_job()
        finished = completion.wait(job["id"])

    assert finished["counts"]["succeeded"] == RECORDS_PER_JOB
    assert tenant.job_reads(job["id"])
    assert not any("webhook-endpoints" in path for _, path in tenant.transport.requests)


def test_the_url_comes_from_the_environment(
    tenant: Tenant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    monkeypatch.setenv("EMISSIONS_WEBHOOK_URL", f"http://127.0.0.1:{port}/hook")
    monkeypatch.setenv("EMISSIONS_WEBHOOK_LISTEN", f"127.0.0.1:{port}")
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(tmp_path / "warehouse.duckdb"))

    with open_job_completion(tenant.client) as completion:
        assert isinstance(completion, WebhookCompletion)

    secret_file = tmp_path / "warehouse.duckdb.webhook-secret.json"
    [endpoint] = tenant.client.iter_webhook_endpoints()
    assert endpoint["id"] in secret_file.read_text()


def test_the_receiver_stops_when_the_block_ends(tenant: Tenant, tmp_path: Path) -> None:
    port = free_port()
    settings = WebhookSettings(
        url=f"http://127.0.0.1:{port}/hook",
        listen=f"127.0.0.1:{port}",
        warehouse=tmp_path / "warehouse.duckdb",
    )

    with open_job_completion(tenant.client, settings):
        assert httpx.post(f"http://127.0.0.1:{port}/hook", content=b"{}").status_code == 401

    with pytest.raises(httpx.ConnectError):
        httpx.post(f"http://127.0.0.1:{port}/hook", content=b"{}")


def test_a_taken_port_fails_before_the_service_is_touched(tenant: Tenant, tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        settings = WebhookSettings(
            url=f"http://127.0.0.1:{port}/hook",
            listen=f"127.0.0.1:{port}",
            warehouse=tmp_path / "warehouse.duckdb",
        )
        with (
            pytest.raises(ConfigurationError, match="cannot listen"),
            open_job_completion(tenant.client, settings),
        ):
            pass  # pragma: no cover

    assert not any("webhook-endpoints" in path for _, path in tenant.transport.requests)
