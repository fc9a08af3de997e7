"""Vehicle consumptions (interface: Vehicle consumption; facts §9.4) and the co2e they give
their vehicle. Worked examples use data/vehicle_fuel_factors.csv and vehicle_km_factors.csv
(DESNZ 2024, copied from shared/reference/emission_factors.csv)."""

from __future__ import annotations

import uuid

import pytest

from tests.sandbox_fixture import SandboxServer

from .fleet_requests import (
    KILOGRAMS_ID,
    LITERS_ID,
    add_consumption,
    fuel,
    fuel_unit_id,
    new_custom_factor,
    new_vehicle,
)

pytestmark = pytest.mark.timeout(60)


def test_diesel_litres_use_the_desnz_combustion_factor(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        response = add_consumption(client, vehicle["id"], 100, LITERS_ID, custom_id="CARD-1")
    # diesel (average biofuel blend), combustion, litre: 2.51279 kg/L; 100 L × 2.51279 = 251.279
    assert response.status_code == 201
    consumption = response.json()
    assert consumption["co2e"] == pytest.approx(251.279)
    assert consumption["status"] == "active"
    assert consumption["data"]["fuel_consumed"] == 100
    assert consumption["data"]["custom_id"] == "CARD-1"
    assert consumption["data"]["period"] == "2024-01-01/2024-01-31"


def test_consumptions_roll_up_into_the_vehicles_co2e(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        add_consumption(client, vehicle["id"], 100, LITERS_ID)
        add_consumption(client, vehicle["id"], 20, LITERS_ID)
        after = client.get(f"/v1/vehicles/{vehicle['id']}").json()
    # 100 L × 2.51279 + 20 L × 2.51279 = 251.279 + 50.2558 = 301.5348
    assert after["co2e"] == pytest.approx(301.5348)


def test_electricity_kwh_use_the_uk_grid_generation_factor(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        electric = fuel(client, "electricity")
        vehicle = new_vehicle(client, vehicle_fuel_id=electric["id"])
        response = add_consumption(client, vehicle["id"], 50, fuel_unit_id(electric, "kWh"))
    # UK grid electricity, generation: 0.20705 kg/kWh; 50 kWh × 0.20705 = 10.3525
    assert response.json()["co2e"] == pytest.approx(10.3525)


def test_km_use_the_size_of_the_market_segment_and_follow_its_changes(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client() as client:
        petrol = fuel(client, "petrol")
        vehicle = new_vehicle(client, vehicle_fuel_id=petrol["id"], market_segment="supermini")
        add_consumption(client, vehicle["id"], 1000, fuel_unit_id(petrol, "km"))
        small = client.get(f"/v1/vehicles/{vehicle['id']}").json()["co2e"]
        large = client.patch(
            f"/v1/vehicles/{vehicle['id']}", json={"market_segment": "executive"}
        ).json()["co2e"]
        diesel = client.patch(
            f"/v1/vehicles/{vehicle['id']}", json={"vehicle_fuel_id": fuel(client, "diesel")["id"]}
        ).json()["co2e"]
    # supermini → small car, petrol: 0.1437 kg/km; 1000 km × 0.1437 = 143.7
    assert small == pytest.approx(143.7)
    # executive → large car, petrol: 0.26885 kg/km; 1000 km × 0.26885 = 268.85
    assert large == pytest.approx(268.85)
    # large car, diesel: 0.20729 kg/km; 1000 km × 0.20729 = 207.29
    assert diesel == pytest.approx(207.29)


def test_an_explicit_size_wins_over_the_market_segment(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        petrol = fuel(client, "petrol")
        vehicle = new_vehicle(
            client, vehicle_fuel_id=petrol["id"], market_segment="mini", size="medium"
        )
        response = add_consumption(client, vehicle["id"], 10, fuel_unit_id(petrol, "km"))
    # medium car, petrol: 0.17726 kg/km; 10 km × 0.17726 = 1.7726
    assert response.json()["co2e"] == pytest.approx(1.7726)
    assert response.json()["data"]["distance_km"] == 10


def test_a_custom_factor_applies_per_tonne_of_fuel(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        factor_id = new_custom_factor(client, 3000)
        vehicle = new_vehicle(client, custom_emission_factor_id=factor_id)
        response = add_consumption(client, vehicle["id"], 500, KILOGRAMS_ID)
    # 500 kg = 0.5 t; 0.5 t × 3000 kg CO2e/t = 1500
    assert response.json()["co2e"] == pytest.approx(1500)


def test_a_unit_the_fuel_cannot_take_is_422_unit_not_convertible(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        electric = fuel(client, "electricity")
        vehicle = new_vehicle(client, vehicle_fuel_id=electric["id"])
        response = add_consumption(client, vehicle["id"], 10, LITERS_ID)
    assert response.status_code == 422
    assert response.json()["code"] == "UNIT_NOT_CONVERTIBLE"


def test_km_of_a_freight_vehicle_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        diesel = fuel(client, "diesel")
        vehicle = new_vehicle(client, type="freight")
        response = add_consumption(client, vehicle["id"], 10, fuel_unit_id(diesel, "km"))
    assert response.status_code == 422


def test_end_before_start_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        response = add_consumption(
            client, vehicle["id"], 1, LITERS_ID, start_date="2024-02-01", end_date="2024-01-01"
        )
    assert response.status_code == 422


def test_a_fuel_change_that_breaks_a_consumption_marks_it_and_the_vehicle_error(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        add_consumption(client, vehicle["id"], 100, LITERS_ID)
        patched = client.patch(
            f"/v1/vehicles/{vehicle['id']}",
            json={"vehicle_fuel_id": fuel(client, "electricity")["id"]},
        ).json()
        errors = client.get(
            f"/v1/vehicles/{vehicle['id']}/consumptions", params={"status": "error"}
        ).json()
    assert patched["status"] == "error"
    assert patched["co2e"] == 0
    assert errors["total"] == 1
    assert errors["items"][0]["error_code"] == "UNIT_NOT_CONVERTIBLE"


def test_list_is_a_page_filtered_by_status(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        first = add_consumption(client, vehicle["id"], 1, LITERS_ID).json()
        add_consumption(client, vehicle["id"], 2, LITERS_ID)
        page = client.get(
            f"/v1/vehicles/{vehicle['id']}/consumptions", params={"status": "active", "size": 1}
        ).json()
        none = client.get(
            f"/v1/vehicles/{vehicle['id']}/consumptions", params={"status": "loading"}
        ).json()
    assert (page["total"], page["pages"], page["size"]) == (2, 2, 1)
    assert page["items"][0]["id"] == first["id"]
    assert none["total"] == 0


def test_list_with_an_invalid_status_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        response = client.get(
            f"/v1/vehicles/{vehicle['id']}/consumptions", params={"status": "done"}
        )
    assert response.status_code == 422


def test_consumptions_of_an_unknown_or_foreign_vehicle_are_404(sandbox: SandboxServer) -> None:
    with sandbox.client(sandbox.other_org) as other:
        foreign = new_vehicle(other)
    with sandbox.client() as client:
        unknown = client.get(f"/v1/vehicles/{uuid.uuid4()}/consumptions")
        listed = client.get(f"/v1/vehicles/{foreign['id']}/consumptions")
        added = add_consumption(client, foreign["id"], 1, LITERS_ID)
    assert [r.status_code for r in (unknown, listed, added)] == [404, 404, 404]
    assert {r.json()["code"] for r in (unknown, listed, added)} == {"VEHICLE_NOT_FOUND"}
