"""Logistic hubs (interface: Logistic hub, Logistic hubs, States and transitions; facts §9.3)
and the minimal facility invoices the delete rule needs."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .logistics_support import fresh_client, leg

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with fresh_client(sandbox, "Hubs") as module_client:
        yield module_client


def _name() -> str:
    return f"Hub {uuid.uuid4().hex[:8]}"


def _facility(client: httpx.Client) -> str:
    body = {"name": _name(), "type": "warehouse", "country": "ES"}
    return str(client.post("/v1/facilities", json=body).json()["id"])


def _hub(client: httpx.Client, **fields: object) -> dict:
    body = {"name": _name(), "type": "subcontracted", **fields}
    response = client.post("/v1/logistic-hubs", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_create_returns_201_with_the_hub(client: httpx.Client) -> None:
    hub = _hub(client, category="warehouse_ambient", address="Calle Mayor 1, Madrid, Spain")
    assert hub["status"] == "active"
    assert hub["country"] == "ES"  # from the address through the gazetteer
    assert hub["facility_id"] is None
    assert hub["supercharger"] is False


def test_a_duplicate_name_is_409(client: httpx.Client) -> None:
    hub = _hub(client)
    response = client.post("/v1/logistic-hubs", json={"name": hub["name"], "type": "subcontracted"})
    assert response.status_code == 409


def test_owned_without_facility_is_422(client: httpx.Client) -> None:
    response = client.post("/v1/logistic-hubs", json={"name": _name(), "type": "owned"})
    assert response.status_code == 422


def test_owned_hub_links_its_facility(client: httpx.Client) -> None:
    facility_id = _facility(client)
    hub = _hub(client, type="owned", facility_id=facility_id)
    assert hub["facility_id"] == facility_id
    assert hub["co2e"] is None  # the facility has no emissions yet


def test_another_organizations_hub_is_403_and_unknown_is_404(
    client: httpx.Client, sandbox: SandboxServer
) -> None:
    hub = _hub(client)
    with sandbox.client(sandbox.other_org) as other:
        foreign = other.get(f"/v1/logistic-hubs/{hub['id']}")
        foreign_delete = other.delete(f"/v1/logistic-hubs/{hub['id']}")
    unknown = client.get(f"/v1/logistic-hubs/{uuid.uuid4()}")
    assert foreign.status_code == 403
    assert foreign_delete.status_code == 403
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "NOT_FOUND"


def test_list_filters_by_partial_name_and_defaults_to_10(client: httpx.Client) -> None:
    hub = _hub(client, name=f"Zaragoza {uuid.uuid4().hex[:8]}")
    page = client.get("/v1/logistic-hubs", params={"name": hub["name"][-8:].upper()}).json()
    assert [h["id"] for h in page["items"]] == [hub["id"]]
    assert page["size"] == 10
    assert set(page) == {"items", "total", "page", "size", "pages"}


def test_put_changes_only_the_fields_sent(client: httpx.Client) -> None:
    hub = _hub(client, category="warehouse_mixed", address="Calle 1, Madrid")
    updated = client.put(f"/v1/logistic-hubs/{hub['id']}", json={"supercharger": True}).json()
    assert updated["supercharger"] is True
    assert updated["category"] == "warehouse_mixed"
    assert updated["address"] == "Calle 1, Madrid"
    assert updated["updated_at"] is not None


def test_turning_owned_with_an_address_creates_and_links_a_facility(client: httpx.Client) -> None:
    hub = _hub(client)
    body = {"type": "owned", "address": "Avenida 2, Valencia, Spain"}
    updated = client.put(f"/v1/logistic-hubs/{hub['id']}", json=body).json()
    facility = client.get(f"/v1/facilities/{updated['facility_id']}")
    assert updated["type"] == "owned"
    assert facility.status_code == 200
    assert facility.json()["address"] == "Avenida 2, Valencia, Spain"
    assert facility.json()["country"] == "ES"


def test_turning_owned_without_address_or_facility_is_422(client: httpx.Client) -> None:
    hub = _hub(client)
    response = client.put(f"/v1/logistic-hubs/{hub['id']}", json={"type": "owned"})
    assert response.status_code == 422


def test_delete_is_204_and_the_hub_is_gone(client: httpx.Client) -> None:
    hub = _hub(client)
    deleted = client.delete(f"/v1/logistic-hubs/{hub['id']}")
    assert deleted.status_code == 204
    assert client.get(f"/v1/logistic-hubs/{hub['id']}").status_code == 404


def test_delete_of_a_hub_referenced_by_a_request_is_409(client: httpx.Client) -> None:
    hub = _hub(client)
    client.post("/v1/logistics/requests", json=leg(hub_id=hub["id"]))
    response = client.delete(f"/v1/logistic-hubs/{hub['id']}")
    assert response.status_code == 409
    assert response.json()["code"] == "HUB_IN_USE"


def test_delete_of_a_hub_whose_facility_has_invoices_is_409(client: httpx.Client) -> None:
    facility_id = _facility(client)
    hub = _hub(client, type="owned", facility_id=facility_id)
    invoice = client.post(f"/v1/facilities/{facility_id}/invoices", json={"quantity": 120})
    response = client.delete(f"/v1/logistic-hubs/{hub['id']}")
    assert invoice.status_code == 201
    assert response.status_code == 409
    assert response.json()["code"] == "FACILITY_HAS_INVOICES"


def test_an_invoice_on_another_organizations_facility_is_403(
    client: httpx.Client, sandbox: SandboxServer
) -> None:
    facility_id = _facility(client)
    with sandbox.client(sandbox.other_org) as other:
        response = other.post(f"/v1/facilities/{facility_id}/invoices", json={})
    assert response.status_code == 403


def test_a_request_naming_another_organizations_hub_is_refused(
    client: httpx.Client, sandbox: SandboxServer
) -> None:
    hub = _hub(client)
    with sandbox.client(sandbox.other_org) as other:
        response = other.post("/v1/logistics/requests", json=leg(hub_id=hub["id"]))
    assert response.status_code == 422
    assert response.json()["code"] == "HUB_NOT_FOUND"


def test_put_with_null_fields_keeps_their_values(client: httpx.Client) -> None:
    hub = _hub(client, supercharger=True)
    body = {"name": None, "type": None, "supercharger": None}
    response = client.put(f"/v1/logistic-hubs/{hub['id']}", json=body)
    assert response.status_code == 200
    assert response.json()["supercharger"] is True
    assert response.json()["name"] == hub["name"]
