"""Logistics recharges (fuel consumptions): create, upsert key, bulk, list, batch delete
(interface: Logistics; facts §4.4, §4.6)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .logistics_support import fresh_client

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with fresh_client(sandbox, "Recharges") as module_client:
        yield module_client


@pytest.fixture(scope="module")
def fuel_ids(client: httpx.Client) -> dict[str, str]:
    catalogue = client.get("/v1/logistics/fuels").json()
    return {fuel["name"]: fuel["id"] for fuel in catalogue["fuels"]}


def _plate() -> str:
    return f"PL-{uuid.uuid4().hex[:8]}"


def test_diesel_recharge_is_litres_times_the_desnz_factor(
    client: httpx.Client, fuel_ids: dict[str, str]
) -> None:
    body = {"fuel_id": fuel_ids["diesel"], "country": "ES", "date": "2026-01-10",
            "quantity": 100, "vehicle_license_plate": _plate()}  # fmt: skip
    response = client.post("/v1/logistics/recharges", json=body)
    assert response.status_code == 201
    # DESNZ 2024 diesel (average biofuel blend) 2.51279 kg CO2e/litre: 100 × 2.51279 = 251.279
    assert response.json()["co2e"] == pytest.approx(251.279)
    assert response.json()["unit"] == "litre"


def test_electricity_recharge_uses_the_country_grid_factor(
    client: httpx.Client, fuel_ids: dict[str, str]
) -> None:
    body = {"fuel_id": fuel_ids["electricity"], "country": "ES", "date": "2026-01-10",
            "quantity": 1000, "vehicle_license_plate": _plate()}  # fmt: skip
    response = client.post("/v1/logistics/recharges", json=body)
    # Ember 2024 Spain 0.14615 kg CO2e/kWh: 1,000 kWh × 0.14615 = 146.15 kg
    assert response.json()["co2e"] == pytest.approx(146.15)


def test_the_upsert_key_updates_the_existing_recharge(
    client: httpx.Client, fuel_ids: dict[str, str]
) -> None:
    plate = _plate()
    body = {"fuel_id": fuel_ids["diesel"], "country": "FR", "date": "2026-02-01",
            "quantity": 40, "vehicle_license_plate": plate}  # fmt: skip
    first = client.post("/v1/logistics/recharges", json=body)
    again = client.post("/v1/logistics/recharges", json={**body, "fuel_id": fuel_ids["petrol"]})
    listed = client.get("/v1/logistics/recharges", params={"vehicle_license_plate": plate}).json()
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert listed["total"] == 1
    # petrol 2.0844 kg CO2e/litre × 40 = 83.376
    assert listed["items"][0]["co2e"] == pytest.approx(83.376)
    assert set(listed) == {"page", "size", "total", "items"}


def test_unknown_fuel_is_404(client: httpx.Client) -> None:
    body = {"fuel_id": str(uuid.uuid4()), "country": "ES", "date": "2026-01-10", "quantity": 1}
    response = client.post("/v1/logistics/recharges", json=body)
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


def test_bad_country_code_is_422(client: httpx.Client, fuel_ids: dict[str, str]) -> None:
    body = {"fuel_id": fuel_ids["diesel"], "country": "Spain", "date": "2026-01-10", "quantity": 1}
    assert client.post("/v1/logistics/recharges", json=body).status_code == 422


def test_bulk_reports_each_failed_record(client: httpx.Client, fuel_ids: dict[str, str]) -> None:
    good = {"fuel_id": fuel_ids["diesel"], "country": "ES", "date": "2026-03-01", "quantity": 10,
            "vehicle_license_plate": _plate()}  # fmt: skip
    records = [good, {**good, "fuel_id": str(uuid.uuid4())}, {"country": "ES"}]
    body = client.post("/v1/logistics/recharges/bulk", json={"records": records}).json()
    assert (body["success"], body["failed"]) == (1, 2)
    assert [e["code"] for e in body["errors"]] == ["NOT_FOUND", "VALIDATION_ERROR"]
    assert body["results"][0]["co2e"] == pytest.approx(25.1279)  # 10 litres × 2.51279


def test_batch_delete_of_recharges(
    client: httpx.Client, fuel_ids: dict[str, str], sandbox: SandboxServer
) -> None:
    plate = _plate()
    body = {"fuel_id": fuel_ids["diesel"], "country": "ES", "date": "2026-04-01",
            "quantity": 5, "vehicle_license_plate": plate}  # fmt: skip
    recharge_id = client.post("/v1/logistics/recharges", json=body).json()["id"]
    with sandbox.client(sandbox.other_org) as other:
        foreign = other.post(
            "/v1/logistics/recharges/batch-delete", json={"recharge_ids": [recharge_id]}
        )
    deleted = client.post(
        "/v1/logistics/recharges/batch-delete", json={"recharge_ids": [recharge_id]}
    )
    listed = client.get("/v1/logistics/recharges", params={"vehicle_license_plate": plate}).json()
    missing_field = client.post("/v1/logistics/recharges/batch-delete", json={})
    assert foreign.status_code == 404
    assert deleted.status_code == 204
    assert listed["total"] == 0
    assert missing_field.status_code == 422
