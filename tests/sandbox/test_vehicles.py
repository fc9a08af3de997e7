"""Vehicles (interface: Vehicles; facts §9.4): create, PATCH, list, read, delete."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import httpx
import pytest

from tests.sandbox_fixture import OrgCredentials, SandboxServer, create_org, sandbox_client

from .fleet_requests import fuel, new_vehicle, unknown_vehicle_id

pytestmark = pytest.mark.timeout(60)


@dataclass(frozen=True)
class FleetOrgs:
    parent: OrgCredentials
    child: OrgCredentials


@pytest.fixture(scope="module")
def fleet_orgs(sandbox: SandboxServer) -> FleetOrgs:
    """A fresh organization and its child, so list counts are this module's own."""
    parent = create_org(sandbox.db_path, "Fleet parent")
    child = create_org(sandbox.db_path, "Fleet child", parent=parent.organization_id)
    return FleetOrgs(parent, child)


@pytest.fixture(scope="module")
def listed(sandbox: SandboxServer, fleet_orgs: FleetOrgs) -> dict[str, str]:
    """Vehicles of the fresh parent (three) and of its child (one), by role."""
    with sandbox.client(fleet_orgs.parent) as client:
        made = {
            "b_owned": new_vehicle(client, name="Bravo van", license_plate="1111BBB"),
            "a_rented": new_vehicle(
                client,
                name="Alpha car",
                license_plate="2222CCC",
                ownership="rented",
                vehicle_fuel_id=fuel(client, "petrol")["id"],
            ),
            "c_truck": new_vehicle(
                client,
                name="Bravo van",  # same name as b_owned: the second sort key decides
                license_plate="3333DDD",
                type="freight",
                unknown_vehicle_id=unknown_vehicle_id(client, "truck"),
            ),
        }
    with sandbox.client(fleet_orgs.child) as child_client:
        made["child"] = new_vehicle(child_client, name="Delta child", license_plate="4444EEE")
    return {role: vehicle["id"] for role, vehicle in made.items()}


def _ids(client: httpx.Client, **params: object) -> list[str]:
    response = client.get("/v1/vehicles", params=params)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["items"]]


def test_create_returns_201_active_with_co2e_0_before_any_consumption(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client, name="Pool car", registration_year=2021, size="medium")
    assert vehicle["status"] == "active"
    assert vehicle["co2e"] == 0
    assert vehicle["unknown_vehicle_type"] is None
    assert (vehicle["registration_year"], vehicle["size"]) == (2021, "medium")


def test_create_without_fuel_or_custom_factor_is_422_on_the_body(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        body = {
            "type": "passenger",
            "ownership": "owned",
            "license_plate": "9999ZZZ",
            "unknown_vehicle_id": unknown_vehicle_id(client),
            "country": "ES",
        }
        response = client.post("/v1/vehicles", json=body)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body"]


def test_create_with_an_invalid_market_segment_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post("/v1/vehicles", json={"market_segment": "tiny", "type": "passenger"})
    assert response.status_code == 422
    assert "market_segment" in str(response.json()["detail"])


def test_create_with_an_unknown_vehicle_fuel_is_404(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle_fuel_id = str(uuid.uuid4())
        response = client.post(
            "/v1/vehicles",
            json={
                "type": "passenger",
                "ownership": "owned",
                "license_plate": "8888YYY",
                "unknown_vehicle_id": unknown_vehicle_id(client),
                "country": "ES",
                "vehicle_fuel_id": vehicle_fuel_id,
            },
        )
    assert response.status_code == 404
    assert response.json()["code"] == "VEHICLE_FUEL_NOT_FOUND"


def test_create_with_an_unknown_unknown_vehicle_id_is_404(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.post(
            "/v1/vehicles",
            json={
                "type": "passenger",
                "ownership": "owned",
                "license_plate": "7777XXX",
                "unknown_vehicle_id": str(uuid.uuid4()),
                "country": "ES",
                "vehicle_fuel_id": fuel(client, "diesel")["id"],
            },
        )
    assert response.status_code == 404
    assert response.json()["code"] == "UNKNOWN_VEHICLE_NOT_FOUND"


def test_patch_changes_only_the_fields_sent(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client, name="Before", license_plate="5555FFF")
        response = client.patch(f"/v1/vehicles/{vehicle['id']}", json={"name": "After"})
    assert response.status_code == 200
    assert response.json()["name"] == "After"
    assert response.json()["license_plate"] == "5555FFF"


def test_patch_removing_the_only_fuel_is_422(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        response = client.patch(f"/v1/vehicles/{vehicle['id']}", json={"vehicle_fuel_id": None})
        after = client.get(f"/v1/vehicles/{vehicle['id']}").json()
    assert response.status_code == 422
    assert after["vehicle_fuel_id"] == vehicle["vehicle_fuel_id"]


def test_patch_of_an_unknown_vehicle_is_404_vehicle_not_found(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        response = client.patch(f"/v1/vehicles/{uuid.uuid4()}", json={"name": "x"})
    assert response.status_code == 404
    assert response.json()["code"] == "VEHICLE_NOT_FOUND"


def test_another_organizations_vehicle_is_neither_served_nor_modified(
    sandbox: SandboxServer,
) -> None:
    with sandbox.client(sandbox.other_org) as other:
        foreign = new_vehicle(other, name="Theirs")
    with sandbox.client() as client:
        read = client.get(f"/v1/vehicles/{foreign['id']}")
        patched = client.patch(f"/v1/vehicles/{foreign['id']}", json={"name": "Mine"})
        deleted = client.delete(f"/v1/vehicles/{foreign['id']}")
    with sandbox.client(sandbox.other_org) as other:
        still = other.get(f"/v1/vehicles/{foreign['id']}").json()
    assert [r.status_code for r in (read, patched, deleted)] == [404, 404, 404]
    assert read.json()["code"] == "VEHICLE_NOT_FOUND"
    assert still["name"] == "Theirs"


def test_delete_is_204_and_the_vehicle_is_gone(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        vehicle = new_vehicle(client)
        deleted = client.delete(f"/v1/vehicles/{vehicle['id']}")
        after = client.get(f"/v1/vehicles/{vehicle['id']}")
    assert deleted.status_code == 204
    assert after.status_code == 404


def test_vehicles_need_an_api_key(sandbox: SandboxServer) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as anonymous:
        response = anonymous.get("/v1/vehicles")
    assert response.status_code == 401


def test_list_is_a_page_of_the_organizations_own_vehicles(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        page = client.get("/v1/vehicles").json()
    assert set(page) == {"items", "total", "page", "size", "pages"}
    assert page["total"] == 3
    assert listed["child"] not in [v["id"] for v in page["items"]]


def test_list_include_children_adds_child_organizations_vehicles(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        ids = _ids(client, include_children="true")
    assert set(ids) == set(listed.values())


def test_list_search_matches_part_of_name_or_license_plate(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        by_name = _ids(client, search="alpha")
        by_plate = _ids(client, search="33DD")
    assert by_name == [listed["a_rented"]]
    assert by_plate == [listed["c_truck"]]


def test_list_filters_by_ownership_status_fuel_and_unknown_vehicle(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        rented = _ids(client, ownership="rented")
        active = _ids(client, status=["active", "error"])
        archived = _ids(client, status="archived")
        petrol = _ids(client, vehicle_fuel_id=fuel(client, "petrol")["id"])
        trucks = _ids(client, unknown_vehicle_id=unknown_vehicle_id(client, "truck"))
    assert rented == [listed["a_rented"]]
    assert len(active) == 3
    assert archived == []
    assert petrol == [listed["a_rented"]]
    assert trucks == [listed["c_truck"]]


def test_list_sorts_by_several_keys_with_minus_for_descending(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        name_then_plate_desc = _ids(client, sort=["name", "-license_plate"])
        name_desc_then_plate = _ids(client, sort=["-name", "license_plate"])
    assert name_then_plate_desc == [listed["a_rented"], listed["c_truck"], listed["b_owned"]]
    assert name_desc_then_plate == [listed["b_owned"], listed["c_truck"], listed["a_rented"]]


def test_list_pages_with_page_and_size(
    sandbox: SandboxServer, fleet_orgs: FleetOrgs, listed: dict[str, str]
) -> None:
    with sandbox.client(fleet_orgs.parent) as client:
        second = client.get(
            "/v1/vehicles", params={"size": 2, "page": 2, "sort": ["name", "license_plate"]}
        ).json()
    assert (second["total"], second["pages"], second["page"], second["size"]) == (3, 2, 2, 2)
    assert [v["id"] for v in second["items"]] == [listed["c_truck"]]


@pytest.mark.parametrize(
    "params", [{"size": 101}, {"sort": "co2e"}, {"status": "deleted"}, {"ownership": "leased"}]
)
def test_list_rejects_invalid_query_values_with_422(
    sandbox: SandboxServer, params: dict[str, object]
) -> None:
    with sandbox.client() as client:
        response = client.get("/v1/vehicles", params=params)
    assert response.status_code == 422
