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
    settings = WebhookSettings(warehouse=str(tmp_path / "warehouse.duckdb"))

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


def test_an_address_that_cannot_be_bound_fails_before_the_service_is_touched(
    tenant: Tenant, tmp_path: Path
) -> None:
    settings = WebhookSettings(
        url="http://192.0.2.1:8787/hook",  # TEST-NET-1: no address of this machine
        listen="192.0.2.1:8787",
        warehouse=tmp_path / "warehouse.duckdb",
    )
    with (
        pytest.raises(ConfigurationError, match="cannot listen on 192.0.2.1:8787"),
        open_job_completion(tenant.client, settings),
    ):
        pass  # pragma: no cover

    assert not any("webhook-endpoints" in path for _, path in tenant.transport.requests)


@pytest.mark.parametrize("written", ["http://127.0.0.1:{held}/hook", "http://127.0.0.1:{{port}}/hook"])
def test_a_taken_port_gives_a_free_one_and_a_stand_in_endpoint_when_the_url_follows_it(
    tenant: Tenant, tmp_path: Path, written: str
) -> None:
    lines: list[str] = []
    with socket.socket() as holder:  # another load's receiver
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        held = holder.getsockname()[1]
        settings = WebhookSettings(
            url=written.format(held=held),
            listen=f"127.0.0.1:{held}",
            warehouse=tmp_path / "warehouse.duckdb",
        )
        with open_job_completion(tenant.client, settings, notify=lines.append) as completion:
            assert isinstance(completion, WebhookCompletion)
            [endpoint] = tenant.client.iter_webhook_endpoints()
            port = int(endpoint["url"].split(":")[2].split("/")[0])
            assert port != held
            assert endpoint["url"] == f"http://127.0.0.1:{port}/hook"
            job = tenant.post_job()
            assert completion.wait(job["id"])["status"] == "completed"

    assert lines[0] == (
        f"webhook: port {held} is taken (another load?): this load listens on "
        f"http://127.0.0.1:{port} and registers http://127.0.0.1:{port}/… for itself"
    )
    assert lines[1].startswith(f"webhook: endpoint {endpoint['id']} registered for ")
    assert lines[2] == (
        f"webhook: ingest job {job['id']} finished by its event: completed, "
        f"{RECORDS_PER_JOB} of {RECORDS_PER_JOB} records calculated"
    )
    assert lines[3].endswith("deleted with its port")
    assert list(tenant.client.iter_webhook_endpoints()) == []  # the stand-in dies with its port
    assert not tenant.job_reads(job["id"])


def test_a_taken_port_behind_a_proxy_url_makes_this_load_poll(
    tenant: Tenant, tmp_path: Path
) -> None:
    lines: list[str] = []
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        held = holder.getsockname()[1]
        settings = WebhookSettings(
            url="https://hooks.example.com/emissions?token=abc",  # the proxy forwards to `held`
            listen=f"127.0.0.1:{held}",
            warehouse=tmp_path / "warehouse.duckdb",
        )
        with open_job_completion(tenant.client, settings, notify=lines.append) as completion:
            assert isinstance(completion, PollingCompletion)
            job = tenant.post_job()
            assert completion.wait(job["id"])["status"] == "completed"

    assert lines == [
        f"webhook: port {held} is taken (another load?) and EMISSIONS_WEBHOOK_URL reaches that "
        "port only (https://hooks.example.com/…): this load polls its ingest jobs"
    ]
    assert not any("webhook-endpoints" in path for _, path in tenant.transport.requests)
