"""Facilities (interface: Facility; facts §9.2)."""

from __future__ import annotations

import pytest

from tests.sandbox_fixture import SandboxServer

from .waste_requests import new_facility

pytestmark = pytest.mark.timeout(60)


def test_create_returns_201_with_the_default_logistic_factor(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post(
            "/v1/facilities", json={"name": "Madrid HQ", "type": "office", "country": "ES"}
        )
    assert response.status_code == 201
    body = response.json()
    assert body["logistic_factor"] == 0.8
    assert body["status"] == "active"
    assert body["co2e"] is None


def test_logistic_factor_above_one_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post(
            "/v1/facilities",
            json={"name": "x", "type": "office", "country": "ES", "logistic_factor": 1.5},
        )
    assert response.status_code == 422


def test_list_filters_by_partial_name_and_country(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        wanted = new_facility(client, name="Warehouse Zaragoza-unique", country="ES")
        new_facility(client, name="Warehouse Lyon-unique", country="FR")
        page = client.get("/v1/facilities", params={"name": "zaragoza-uni", "country": "ES"}).json()
    assert [f["id"] for f in page["items"]] == [wanted]
    assert set(page) == {"items", "total", "page", "size", "pages"}


def test_list_filters_by_status(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        archived = new_facility(client, name="Old site")
        client.put(f"/v1/facilities/{archived}", json={"status": "archived"})
        page = client.get("/v1/facilities", params={"status": "archived", "size": 100}).json()
    assert archived in [f["id"] for f in page["items"]]
    assert all(f["status"] == "archived" for f in page["items"])


def test_put_changes_only_the_fields_sent(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        facility_id = new_facility(client, name="Before", address="Calle 1")
        updated = client.put(f"/v1/facilities/{facility_id}", json={"name": "After"}).json()
    assert updated["name"] == "After"
    assert updated["address"] == "Calle 1"


def test_another_organizations_facility_is_403(sandbox: SandboxServer) -> None:
    with sandbox.client(sandbox.other_org) as other:
        foreign = new_facility(other)
    with sandbox.client() as client:
        response = client.get(f"/v1/facilities/{foreign}")
    assert response.status_code == 403
    assert response.json() == {"detail": "Facility doesn't belong to organization"}


def test_delete_is_204_and_the_facility_is_gone(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        facility_id = new_facility(client)
        deleted = client.delete(f"/v1/facilities/{facility_id}")
        after = client.get(f"/v1/facilities/{facility_id}")
    assert deleted.status_code == 204
    assert after.status_code == 404
    assert after.json()["code"] == "NOT_FOUND"
