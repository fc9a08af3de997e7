"""Business travels (interface: Business travels; facts §7): rules, the asynchronous co2e,
the gazetteer distances, the record maximum and organization scoping."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.sandbox_fixture import OrgCredentials, SandboxServer, create_org, sandbox_client

pytestmark = pytest.mark.timeout(60)
PATH = "/v1/business-travels"


def bearer_client(sandbox: SandboxServer, org: OrgCredentials) -> httpx.Client:
    """The interface's scheme for this resource: `Authorization: Bearer <API key>`."""
    headers = {"Authorization": f"Bearer {org.api_key}", "x-organization-id": org.organization_id}
    return sandbox_client(sandbox.base_url, sandbox.ca_file, None, **headers)


@pytest.fixture(scope="module")
def org(sandbox: SandboxServer) -> OrgCredentials:
    return create_org(sandbox.db_path, "Business travel org")


@pytest.fixture
def client(sandbox: SandboxServer, org: OrgCredentials) -> Iterator[httpx.Client]:
    with bearer_client(sandbox, org) as http:
        yield http


def travel(**fields: Any) -> dict[str, Any]:
    return {"travel_date": "2026-03-02", "transport_type": "train", "distance_km": 100, **fields}


def calculated(client: httpx.Client, travel_id: str) -> dict[str, Any]:
    """Poll until the worker has left `pending`."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"{PATH}/{travel_id}").json()
        if body["status"] != "pending":
            return body
        time.sleep(0.05)
    raise AssertionError("business travel still pending after 10 s")


def test_create_returns_201_pending_with_co2e_zero(client: httpx.Client) -> None:
    response = client.post(PATH, json=travel())
    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["co2e"], body["distance_km"]) == ("pending", 0, 100)
    assert (body["origin"], body["round_trip"], body["travel_number"]) == (None, False, 1)


def test_car_co2e_is_factor_times_distance_travellers_and_round_trip(client: httpx.Client) -> None:
    body = travel(transport_type="car", vehicle_size="medium", fuel_type="petrol",
                  travel_number=2, round_trip=True)  # fmt: skip
    created = client.post(PATH, json=body).json()
    done = calculated(client, created["id"])
    # DESNZ 2024 car medium car, petrol: 0.17726 kg/km; 100 km × 2 travellers × 2 (round trip)
    assert done["status"] == "active"
    assert done["co2e"] == pytest.approx(0.17726 * 100 * 2 * 2)  # 70.904


def test_flight_distance_comes_from_the_gazetteer_with_the_8_percent_uplift(
    client: httpx.Client,
) -> None:
    body = travel(transport_type="aircraft", distance_km=None, origin="Madrid",
                  destination="London, United Kingdom", cabin_class="economy")  # fmt: skip
    created = client.post(PATH, json=body).json()
    # haversine Madrid (40.42, -3.70) → London (51.51, -0.13), R 6371.0088 km: 1,263.25 km
    assert created["distance_km"] == pytest.approx(1263.25 * 1.08, rel=1e-4)  # 1,364.31 km
    done = calculated(client, created["id"])
    # ES → GB, 1,364 km ≤ 3,700: short-haul; economy with RF 0.18287 kg/passenger.km
    assert done["co2e"] == pytest.approx(1263.25 * 1.08 * 0.18287, rel=1e-4)  # 249.49 kg


def test_train_distance_is_the_plain_great_circle(client: httpx.Client) -> None:
    body = travel(distance_km=None, origin="Madrid", destination="Barcelona")
    created = client.post(PATH, json=body).json()
    assert created["distance_km"] == pytest.approx(504.86, abs=0.01)
    done = calculated(client, created["id"])
    assert done["co2e"] == pytest.approx(504.86 * 0.03546, abs=0.01)  # national rail: 17.90 kg


def test_neither_distance_nor_places_is_422_at_body(client: httpx.Client) -> None:
    response = client.post(PATH, json=travel(distance_km=None))
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body"]


def test_distance_and_places_together_is_422_at_body(client: httpx.Client) -> None:
    response = client.post(PATH, json=travel(origin="Madrid", destination="Barcelona"))
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body"]


@pytest.mark.parametrize(
    "fields", [{"travel_number": 0}, {"travel_number": 1001}, {"distance_km": 0}]
)
def test_travel_number_and_distance_bounds_are_422(
    client: httpx.Client, fields: dict[str, Any]
) -> None:
    assert client.post(PATH, json=travel(**fields)).status_code == 422


@pytest.mark.parametrize(
    "fields",
    [
        {"transport_type": "train", "vehicle_size": "small"},
        {"transport_type": "bus", "fuel_type": "diesel"},
        {"transport_type": "car", "cabin_class": "business"},
        {"transport_type": "motorbike", "flight_type": "domestic"},
    ],
)
def test_mode_specific_fields_on_another_mode_are_422(
    client: httpx.Client, fields: dict[str, Any]
) -> None:
    assert client.post(PATH, json=travel(**fields)).status_code == 422


def test_train_across_the_ocean_is_422_validation_error(client: httpx.Client) -> None:
    body = travel(distance_km=None, origin="Madrid", destination="New York")
    response = client.post(PATH, json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_ferry_between_coastal_places_is_accepted_but_not_from_inland(
    client: httpx.Client,
) -> None:
    ferry = travel(transport_type="ferry", distance_km=None, destination="Palma")
    assert client.post(PATH, json={**ferry, "origin": "Barcelona"}).status_code == 201
    inland = client.post(PATH, json={**ferry, "origin": "Madrid"})
    assert (inland.status_code, inland.json()["code"]) == (422, "VALIDATION_ERROR")


def test_unknown_place_is_a_clear_422(client: httpx.Client) -> None:
    response = client.post(PATH, json=travel(distance_km=None, origin="Atlantis",
                                             destination="Madrid"))  # fmt: skip
    assert response.status_code == 422
    assert response.json()["code"] == "UNKNOWN_PLACE"
    assert "Atlantis" in response.json()["detail"]


def test_at_the_record_maximum_create_is_403_limit_reached(sandbox: SandboxServer) -> None:
    limited = create_org(sandbox.db_path, "Limited org")
    with sqlite3.connect(sandbox.db_path) as db:
        db.execute(
            "INSERT INTO business_travel_limits (organization_id, max_records) VALUES (?, 2)",
            (limited.organization_id,),
        )
    with bearer_client(sandbox, limited) as client:
        statuses = [client.post(PATH, json=travel()).status_code for _ in range(3)]
        third = client.post(PATH, json=travel())
    assert statuses == [201, 201, 403]
    assert third.json()["code"] == "LIMIT_REACHED"


def test_list_filters_by_dates_transport_type_and_status(sandbox: SandboxServer) -> None:
    with bearer_client(sandbox, create_org(sandbox.db_path, "List org")) as client:
        early = client.post(PATH, json=travel(travel_date="2026-01-10")).json()["id"]
        bus = client.post(PATH, json=travel(travel_date="2026-02-10", transport_type="bus"))
        client.post(PATH, json=travel(travel_date="2026-03-10"))
        calculated(client, early)
        in_range = client.get(PATH, params={"start_date": "2026-02-01", "end_date": "2026-03-10"})
        buses = client.get(PATH, params={"transport_type": ["bus", "ferry"]}).json()
        active = client.get(PATH, params={"status": "active", "end_date": "2026-01-31"}).json()
    assert [t["travel_date"] for t in in_range.json()["items"]] == ["2026-02-10", "2026-03-10"]
    assert [t["id"] for t in buses["items"]] == [bus.json()["id"]]
    assert [t["id"] for t in active["items"]] == [early]
    assert set(in_range.json()) == {"items", "total", "page", "size", "pages"}


def test_list_pages_with_size(sandbox: SandboxServer) -> None:
    with bearer_client(sandbox, create_org(sandbox.db_path, "Paging org")) as client:
        for _ in range(3):
            client.post(PATH, json=travel())
        page = client.get(PATH, params={"size": 2, "page": 2}).json()
    assert (page["total"], page["pages"], len(page["items"])) == (3, 2, 1)


def test_patch_changes_the_sent_fields_and_recalculates(client: httpx.Client) -> None:
    created = client.post(PATH, json=travel(transport_type="bus")).json()
    before = calculated(client, created["id"])
    patched = client.patch(f"{PATH}/{created['id']}", json={"travel_number": 3})
    assert patched.status_code == 200
    assert (patched.json()["status"], patched.json()["transport_type"]) == ("pending", "bus")
    after = calculated(client, created["id"])
    # average local bus 0.10846 kg/passenger.km × 100 km × 3 travellers
    assert after["co2e"] == pytest.approx(3 * before["co2e"]) == pytest.approx(0.10846 * 300)


def test_patch_with_a_distance_replaces_origin_and_destination(client: httpx.Client) -> None:
    body = travel(distance_km=None, origin="Madrid", destination="Barcelona")
    created = client.post(PATH, json=body).json()
    patched = client.patch(f"{PATH}/{created['id']}", json={"distance_km": 42}).json()
    assert (patched["distance_km"], patched["origin"], patched["destination"]) == (42, None, None)


def test_patch_breaking_a_rule_is_422_and_changes_nothing(client: httpx.Client) -> None:
    created = client.post(PATH, json=travel()).json()
    response = client.patch(f"{PATH}/{created['id']}", json={"vehicle_size": "large"})
    assert response.status_code == 422
    assert client.get(f"{PATH}/{created['id']}").json()["vehicle_size"] is None


def test_delete_is_204_then_404_business_travel_not_found(client: httpx.Client) -> None:
    created = client.post(PATH, json=travel()).json()
    assert client.delete(f"{PATH}/{created['id']}").status_code == 204
    again = client.delete(f"{PATH}/{created['id']}")
    assert (again.status_code, again.json()["code"]) == (404, "BUSINESS_TRAVEL_NOT_FOUND")
    assert client.get(f"{PATH}/{created['id']}").status_code == 404


def test_another_organizations_travel_is_404_and_untouched(
    sandbox: SandboxServer, client: httpx.Client
) -> None:
    created = client.post(PATH, json=travel()).json()
    with bearer_client(sandbox, sandbox.other_org) as other:
        responses = [
            other.get(f"{PATH}/{created['id']}"),
            other.patch(f"{PATH}/{created['id']}", json={"travel_number": 5}),
            other.delete(f"{PATH}/{created['id']}"),
        ]
        listed = other.get(PATH, params={"size": 100}).json()["items"]
    assert [r.status_code for r in responses] == [404, 404, 404]
    assert created["id"] not in [t["id"] for t in listed]
    assert client.get(f"{PATH}/{created['id']}").json()["travel_number"] == 1


def test_a_jwt_bearer_works_and_no_credentials_is_401(
    sandbox: SandboxServer, org: OrgCredentials
) -> None:
    with sandbox_client(sandbox.base_url, sandbox.ca_file) as anonymous:
        token = anonymous.post(
            "/auth/login", json={"email": org.email, "password": org.password}
        ).json()["access_token"]
        missing = anonymous.get(PATH, headers={"x-organization-id": org.organization_id})
        headers = {"Authorization": f"Bearer {token}", "x-organization-id": org.organization_id}
        with_token = anonymous.get(PATH, headers=headers)
    assert missing.status_code == 401
    assert with_token.status_code == 200
