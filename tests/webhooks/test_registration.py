"""Registering or reusing the webhook endpoint, and keeping its secret, over the sandbox."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest
from pydantic import SecretStr

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.errors import ConfigurationError, NotFoundError
from emissions_etl.webhooks import (
    EventVerifier,
    SecretStore,
    VerifiedEvent,
    WebhookReceiver,
    ensure_endpoint,
)
from tests.sandbox_fixture import SandboxServer, create_user
from tests.webhooks.support import Tenant, wait_until

pytestmark = pytest.mark.timeout(120)

URL = "http://127.0.0.1:9/hooks/emissions"  # never called: no job runs in these tests


@pytest.fixture
def store(tmp_path: Path) -> SecretStore:
    return SecretStore(tmp_path / "warehouse.duckdb.webhook-secret.json")


def _endpoints(tenant: Tenant) -> list[dict[str, object]]:
    return list(tenant.client.iter_webhook_endpoints())


def test_creates_an_endpoint_and_keeps_its_secret_in_a_0600_file(
    tenant: Tenant, store: SecretStore, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        endpoint = ensure_endpoint(tenant.client, URL, store)

    [listed] = _endpoints(tenant)
    assert endpoint.created
    assert listed["id"] == endpoint.id
    assert listed["url"] == URL
    assert listed["event_types"] == ["ingest_job.finished"]
    assert listed["enabled"] is True
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.get(endpoint.id) == endpoint.secret
    secret = endpoint.secret.get_secret_value()
    assert secret.startswith("whsec_")
    assert secret not in caplog.text
    assert secret not in repr(endpoint)


def test_reuses_the_endpoint_on_the_next_run(tenant: Tenant, store: SecretStore) -> None:
    first = ensure_endpoint(tenant.client, URL, store)
    tenant.transport.requests.clear()

    again = ensure_endpoint(tenant.client, URL, store)

    assert (again.id, again.secret, again.created) == (first.id, first.secret, False)
    assert [e["id"] for e in _endpoints(tenant)] == [first.id]
    writes = [r for r in tenant.transport.requests if r[0] != "GET"]
    assert writes == []  # listed only: nothing created, patched or deleted


def test_reenables_an_endpoint_the_service_disabled(tenant: Tenant, store: SecretStore) -> None:
    first = ensure_endpoint(tenant.client, URL, store)
    tenant.client.update_webhook_endpoint(first.id, enabled=False)

    again = ensure_endpoint(tenant.client, URL, store)

    assert again.id == first.id
    assert again.reenabled
    [listed] = _endpoints(tenant)
    assert listed["enabled"] is True
    assert ("PATCH", f"/v2/webhook-endpoints/{first.id}") in tenant.transport.requests


def test_recreates_the_endpoint_when_its_secret_is_lost(tenant: Tenant, store: SecretStore) -> None:
    first = ensure_endpoint(tenant.client, URL, store)
    store.path.unlink()

    again = ensure_endpoint(tenant.client, URL, store)

    assert again.created
    assert again.id != first.id
    assert [e["id"] for e in _endpoints(tenant)] == [again.id]
    with pytest.raises(NotFoundError):
        tenant.client.get_json(f"/v2/webhook-endpoints/{first.id}")
    assert store.get(again.id) == again.secret


def test_leaves_other_urls_alone(tenant: Tenant, store: SecretStore) -> None:
    other = tenant.client.create_webhook_endpoint(URL + "/other", ["ingest_job.finished"])

    endpoint = ensure_endpoint(tenant.client, URL, store)

    assert {e["id"] for e in _endpoints(tenant)} == {other["id"], endpoint.id}


def test_uses_a_supplied_secret_for_an_endpoint_registered_by_hand(
    tenant: Tenant, store: SecretStore, receiver: WebhookReceiver
) -> None:
    url = receiver.local_url + "/by-hand"
    by_hand = tenant.client.create_webhook_endpoint(url, ["ingest_job.finished"])
    supplied = SecretStr(by_hand["secret"])

    endpoint = ensure_endpoint(tenant.client, url, store, supplied_secret=supplied)

    assert (endpoint.id, endpoint.created) == (by_hand["id"], False)
    assert not store.path.exists()  # the user's secret stays in the user's setting
    # The secret really is the endpoint's: the service's test event verifies with it.
    events: list[VerifiedEvent] = []
    receiver.arm(EventVerifier(endpoint.secret), events.append)
    tenant.client.request("POST", f"/v2/webhook-endpoints/{endpoint.id}/test")
    wait_until(lambda: events)
    assert [event.type for event in events] == ["webhook.test"]


def test_a_stored_secret_wins_over_a_supplied_one(tenant: Tenant, store: SecretStore) -> None:
    first = ensure_endpoint(tenant.client, URL, store)

    again = ensure_endpoint(tenant.client, URL, store, supplied_secret=SecretStr("whsec_b3RoZXI="))

    assert (again.id, again.secret) == (first.id, first.secret)


def test_a_members_key_is_a_configuration_error(
    tenant: Tenant, sandbox: SandboxServer, store: SecretStore
) -> None:
    member = create_user(sandbox.db_path, tenant.org.organization_id, "member")
    auth = ApiKeyAuth(member.api_key, tenant.org.organization_id)
    with (
        EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client,
        pytest.raises(ConfigurationError, match="ORG_ADMIN_REQUIRED"),
    ):
        ensure_endpoint(client, URL, store)
    assert _endpoints(tenant) == []


def test_a_url_the_service_refuses_is_a_configuration_error(
    tenant: Tenant, store: SecretStore
) -> None:
    url = "http://10.1.2.3/hook?token=do-not-print"  # plain http to a non-loopback host

    with pytest.raises(ConfigurationError, match="EMISSIONS_WEBHOOK_URL") as raised:
        ensure_endpoint(tenant.client, url, store)

    assert "do-not-print" not in str(raised.value)
    assert _endpoints(tenant) == []
    assert not store.path.exists()
