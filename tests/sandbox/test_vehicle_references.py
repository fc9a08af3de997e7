"""Reference lists of the fleet (facts §9.4): GET /v1/vehicle-fuels and /v1/unknown-vehicles."""

from __future__ import annotations

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer, sandbox_client

pytestmark = pytest.mark.timeout(60)


def _bearer_client(sandbox: SandboxServer) -> httpx.Client:
    headers = {
        "authorization": f"Bearer {sandbox.org.api_key}",
        "x-organization-id": sandbox.org.organization_id,
    }
    return sandbox_client(sandbox.base_url, sandbox.ca_file, **headers)


def test_vehicle_fuels_is_a_bare_array_served_with_bearer_auth(sandbox: SandboxServer) -> None:
    with _bearer_client(sandbox) as client:
        response = client.get("/v1/vehicle-fuels")
    assert response.status_code == 200
    fuels = response.json()
    assert isinstance(fuels, list)
    assert {"diesel", "petrol", "lpg", "cng", "electricity"} <= {f["fuel"] for f in fuels}
    assert set(fuels[0]) == {"id", "fuel", "country", "fuel_units", "created_at", "updated_at"}


def test_every_fuel_lists_km_and_its_factor_units(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        fuels = client.get("/v1/vehicle-fuels").json()
    diesel = next(f for f in fuels if f["fuel"] == "diesel")
    electricity = next(f for f in fuels if f["fuel"] == "electricity")
    assert [u["name"] for u in diesel["fuel_units"]] == ["liters", "kilograms", "kWh", "km"]
    assert [u["name"] for u in electricity["fuel_units"]] == ["kWh", "km"]


def test_fuel_ids_are_the_same_in_every_database(sandbox: SandboxServer) -> None:
    # uuid5(fleet namespace, "vehicle_fuel|diesel|ES"): stable, so clients may keep it
    with sandbox.client() as client:
        fuels = client.get("/v1/vehicle-fuels").json()
    diesel_es = next(f for f in fuels if (f["fuel"], f["country"]) == ("diesel", "ES"))
    assert diesel_es["id"] == "68674a2c-58ff-53aa-a13a-ca243c1910cf"


def test_unknown_vehicles_is_a_bare_array_of_types(sandbox: SandboxServer) -> None:
    with _bearer_client(sandbox) as client:
        response = client.get("/v1/unknown-vehicles")
    assert response.status_code == 200
    items = response.json()
    assert {"car", "van", "truck", "suv", "motorcycle"} <= {v["type"] for v in items}
    assert set(items[0]) == {"id", "type", "country", "created_at", "updated_at"}


def test_reference_lists_need_credentials(sandbox: SandboxServer) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as anonymous:
        responses = [anonymous.get(path) for path in ("/v1/vehicle-fuels", "/v1/unknown-vehicles")]
    assert [r.status_code for r in responses] == [401, 401]
