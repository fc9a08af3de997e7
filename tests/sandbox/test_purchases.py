"""Purchases (interface: Purchases; facts §8). Worked examples use
data/purchase_sector_factors.csv (US EPA Supply Chain v1.3.0, kg CO2e per 2022 USD) and the
EUR rate of data/purchase_units.csv (ECB 2022 average, 1 EUR = 1.0530 USD)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.sandbox_fixture import OrgCredentials, SandboxServer, create_org

from .fleet_requests import KILOGRAMS_ID, new_custom_factor

pytestmark = pytest.mark.timeout(60)


def new_purchase(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    body = {
        "product_name": "Notebooks",
        "sector": "322230",
        "country": "ES",
        "quantity": 1000,
        "unit_id": "EUR",
        "purchase_date": "2024-05-01",
        **fields,
    }
    response = client.post("/v1/purchases", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.fixture(scope="module")
def fresh_org(sandbox: SandboxServer) -> OrgCredentials:
    return create_org(sandbox.db_path, "Purchases org")


def test_spend_in_eur_is_converted_to_usd_and_uses_the_sector_factor(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, quantity=1000, unit_id="EUR", sector="322230")
    # 1000 EUR × 1.0530 USD/EUR × 0.296 kg/USD (NAICS 322230) = 311.688
    assert purchase["co2e"] == pytest.approx(311.688)
    assert purchase["status"] == "active"
    assert purchase["purchase_type"] == "spend_based"


def test_recycled_content_reduces_co2e_by_its_share(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, quantity=1000, unit_id="EUR", recycled=0.25)
    # 311.688 × (1 − 0.25) = 233.766
    assert purchase["co2e"] == pytest.approx(233.766)


def test_sector_may_be_given_by_its_name_in_usd(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(
            client, quantity=500, unit_id="USD", sector="electronic computer manufacturing"
        )
    # 500 USD × 0.058 kg/USD (NAICS 334111) = 29.0
    assert purchase["co2e"] == pytest.approx(29.0)


def test_supplier_specific_uses_the_custom_factor_per_tonne(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        factor_id = new_custom_factor(client, 2000)
        purchase = new_purchase(
            client,
            purchase_type="supplier_specific",
            custom_emission_factor_id=factor_id,
            quantity=250,
            unit_id=KILOGRAMS_ID,
            recycled=0.5,
        )
    # 250 kg = 0.25 t; 0.25 t × 2000 kg CO2e/t × (1 − 0.5) = 250
    assert purchase["co2e"] == pytest.approx(250)
    assert purchase["custom_emission_factor_id"] == factor_id


def test_supplier_specific_without_a_custom_factor_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post(
            "/v1/purchases",
            json={
                "product_name": "Steel",
                "sector": "331110",
                "country": "ES",
                "quantity": 1,
                "unit_id": "kg",
                "purchase_date": "2024-05-01",
                "purchase_type": "supplier_specific",
            },
        )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body"]


def test_an_unknown_sector_is_stored_with_status_error_and_no_co2e(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, sector="Widgets")
    assert (purchase["status"], purchase["co2e"]) == ("error", None)
    assert purchase["error_code"] == "SECTOR_NOT_FOUND"


def test_patch_recalculates_and_keeps_the_fields_not_sent(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, sector="Widgets", description="kept")
        patched = client.patch(
            f"/v1/purchases/{purchase['id']}", json={"sector": "322230", "unit_id": "USD"}
        )
    assert patched.status_code == 200
    body = patched.json()
    # 1000 USD × 0.296 = 296.0; the `error` status clears once it calculates
    assert body["co2e"] == pytest.approx(296.0)
    assert (body["status"], body["description"]) == ("active", "kept")


def test_a_purchase_in_progress_refuses_patch_and_delete_with_409(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, status="in_progress")
        patched = client.patch(f"/v1/purchases/{purchase['id']}", json={"quantity": 1})
        deleted = client.delete(f"/v1/purchases/{purchase['id']}")
        after = client.get(f"/v1/purchases/{purchase['id']}").json()
    assert (patched.status_code, deleted.status_code) == (409, 409)
    assert patched.json()["code"] == "PURCHASE_IN_PROGRESS"
    assert after["quantity"] == 1000


def test_read_returns_the_whole_purchase(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client, expense_type="capex", supplier_id="SUP-1")
        response = client.get(f"/v1/purchases/{purchase['id']}")
    assert response.status_code == 200
    assert response.json() == purchase
    assert response.json()["organization_id"] == sandbox.org.organization_id


def test_an_id_that_is_not_a_uuid_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.get("/v1/purchases/not-a-uuid")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["path", "purchase_id"]


def test_unknown_and_foreign_purchases_are_404_purchase_not_found(sandbox: SandboxServer) -> None:
    with sandbox.client(sandbox.other_org) as other:
        foreign = new_purchase(other)
    with sandbox.client() as client:
        unknown = client.get(f"/v1/purchases/{uuid.uuid4()}")
        read = client.get(f"/v1/purchases/{foreign['id']}")
        patched = client.patch(f"/v1/purchases/{foreign['id']}", json={"quantity": 1})
        deleted = client.delete(f"/v1/purchases/{foreign['id']}")
    with sandbox.client(sandbox.other_org) as other:
        still = other.get(f"/v1/purchases/{foreign['id']}").json()
    responses = (unknown, read, patched, deleted)
    assert [r.status_code for r in responses] == [404, 404, 404, 404]
    assert {r.json()["code"] for r in responses} == {"PURCHASE_NOT_FOUND"}
    assert still["quantity"] == 1000


def test_delete_is_204_and_the_purchase_is_gone(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        purchase = new_purchase(client)
        deleted = client.delete(f"/v1/purchases/{purchase['id']}")
        after = client.get(f"/v1/purchases/{purchase['id']}")
    assert deleted.status_code == 204
    assert after.status_code == 404


def test_list_is_a_page_filtered_by_status_and_types(
    sandbox: SandboxServer, fresh_org: OrgCredentials
) -> None:
    with sandbox.client(fresh_org) as client:
        capex = new_purchase(client, expense_type="capex")
        new_purchase(client, expense_type="opex")
        broken = new_purchase(client, sector="Widgets")
        everything = client.get("/v1/purchases").json()
        errors = client.get("/v1/purchases", params={"status": "error"}).json()
        capexes = client.get("/v1/purchases", params={"expense_type": "capex"}).json()
        second = client.get("/v1/purchases", params={"size": 2, "page": 2}).json()
    assert set(everything) == {"items", "total", "page", "size", "pages"}
    assert everything["total"] == 3
    assert [p["id"] for p in errors["items"]] == [broken["id"]]
    assert [p["id"] for p in capexes["items"]] == [capex["id"]]
    assert (second["pages"], [p["id"] for p in second["items"]]) == (2, [broken["id"]])


@pytest.mark.parametrize(
    "fields",
    [
        {"recycled": 1.5},
        {"quantity": -1},
        {"country": "ESP"},
        {"purchase_type": "leased"},
        {"status": "error"},
        {"unexpected": 1},
    ],
)
def test_invalid_bodies_are_422(sandbox: SandboxServer, fields: dict[str, Any]) -> None:
    body = {
        "product_name": "x",
        "sector": "322230",
        "country": "ES",
        "quantity": 1,
        "unit_id": "EUR",
        "purchase_date": "2024-05-01",
        **fields,
    }
    with sandbox.client() as client:
        response = client.post("/v1/purchases", json=body)
    assert response.status_code == 422
