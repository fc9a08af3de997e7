"""Request builders shared by the sandbox's fleet tests (vehicles, consumptions, references)."""

from __future__ import annotations

from typing import Any

import httpx

LITERS_ID = "3b1f8e02-7c55-4d0e-9a43-52c1f0b5a7d9"
KILOGRAMS_ID = "61743a63-ff70-459c-9567-5eee8f7dfd5c"


def fuel(client: httpx.Client, name: str, country: str = "ES") -> dict[str, Any]:
    fuels = client.get("/v1/vehicle-fuels").json()
    return next(f for f in fuels if f["fuel"] == name and f["country"] == country)


def fuel_unit_id(fuel_item: dict[str, Any], unit_name: str) -> str:
    return next(str(u["id"]) for u in fuel_item["fuel_units"] if u["name"] == unit_name)


def unknown_vehicle_id(client: httpx.Client, vehicle_type: str = "car") -> str:
    items = client.get("/v1/unknown-vehicles").json()
    return next(str(v["id"]) for v in items if v["type"] == vehicle_type)


def new_vehicle(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    """A passenger car on diesel unless `fields` say otherwise."""
    body: dict[str, Any] = {
        "type": "passenger",
        "ownership": "owned",
        "license_plate": "0000AAA",
        "unknown_vehicle_id": unknown_vehicle_id(client),
        "country": "ES",
    }
    if "custom_emission_factor_id" not in fields:
        body["vehicle_fuel_id"] = fuel(client, "diesel")["id"]
    response = client.post("/v1/vehicles", json={**body, **fields})
    assert response.status_code == 201, response.text
    return dict(response.json())


def add_consumption(
    client: httpx.Client, vehicle_id: str, quantity: float, unit_id: str, **fields: Any
) -> httpx.Response:
    body = {
        "quantity": quantity,
        "unit_id": unit_id,
        "start_date": "2024-01-01",
        "end_date": "2024-01-31",
        **fields,
    }
    return client.post(f"/v1/vehicles/{vehicle_id}/consumptions", json=body)


def new_custom_factor(client: httpx.Client, kg_co2e_per_t: float) -> str:
    response = client.post(
        "/v1/custom-emission-factors",
        json={"name": "supplier factor", "factor_kg_co2e_per_t": kg_co2e_per_t},
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])
