"""DELETE /v1/vehicles/{vehicle_id}/consumptions/{consumption_id} (a sandbox addition the
pipeline needs; README: Fleet): 204, and the vehicle's co2e and status are recalculated from
the consumptions left."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .fleet_requests import LITERS_ID, add_consumption, fuel, fuel_unit_id, new_vehicle

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with sandbox.client() as http:
        yield http


@pytest.fixture(scope="module")
def other(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """The other organization's admin."""
    with sandbox.client(sandbox.other_org) as http:
        yield http


def _consumption(client: httpx.Client, vehicle_id: str, quantity: float) -> dict[str, Any]:
    response = add_consumption(client, vehicle_id, quantity, LITERS_ID)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _delete(client: httpx.Client, vehicle_id: str, consumption_id: str) -> httpx.Response:
    return client.delete(f"/v1/vehicles/{vehicle_id}/consumptions/{consumption_id}")


def _consumption_ids(client: httpx.Client, vehicle_id: str) -> list[str]:
    page = client.get(f"/v1/vehicles/{vehicle_id}/consumptions", params={"size": 100}).json()
    return [item["id"] for item in page["items"]]


def _not_found(response: httpx.Response, code: str) -> None:
    assert response.status_code == 404, response.text
    assert response.json()["code"] == code
    assert set(response.json()) == {"detail", "code"}


def test_delete_answers_204_and_the_vehicle_keeps_the_other_consumptions_co2e(
    client: httpx.Client,
) -> None:
    vehicle = new_vehicle(client)
    kept = _consumption(client, vehicle["id"], 100)
    removed = _consumption(client, vehicle["id"], 20)
    before = client.get(f"/v1/vehicles/{vehicle['id']}").json()

    response = _delete(client, vehicle["id"], removed["id"])
    after = client.get(f"/v1/vehicles/{vehicle['id']}").json()

    assert response.status_code == 204
    assert response.content == b""
    assert before["co2e"] == pytest.approx(kept["co2e"] + removed["co2e"])
    assert after["co2e"] == pytest.approx(kept["co2e"])
    assert removed["co2e"] > 0
    assert _consumption_ids(client, vehicle["id"]) == [kept["id"]]


def test_deleting_the_last_consumption_brings_the_vehicle_to_zero(client: httpx.Client) -> None:
    vehicle = new_vehicle(client)
    only = _consumption(client, vehicle["id"], 40)

    _delete(client, vehicle["id"], only["id"])
    after = client.get(f"/v1/vehicles/{vehicle['id']}").json()

    assert only["co2e"] > 0
    assert after["co2e"] == 0
    assert _consumption_ids(client, vehicle["id"]) == []


def test_deleting_the_uncalculable_consumption_clears_the_vehicles_error(
    client: httpx.Client,
) -> None:
    """km of a passenger car is calculable; once the vehicle is freight it is not (README)."""
    vehicle = new_vehicle(client)
    litres = _consumption(client, vehicle["id"], 10)
    km = add_consumption(client, vehicle["id"], 50, fuel_unit_id(fuel(client, "diesel"), "km"))
    assert km.status_code == 201, km.text
    broken = client.patch(f"/v1/vehicles/{vehicle['id']}", json={"type": "freight"}).json()

    response = _delete(client, vehicle["id"], km.json()["id"])
    after = client.get(f"/v1/vehicles/{vehicle['id']}").json()

    assert broken["status"] == "error"
    assert response.status_code == 204
    assert after["status"] == "active"
    assert after["co2e"] == pytest.approx(litres["co2e"])


def test_a_second_delete_is_404_not_found(client: httpx.Client) -> None:
    vehicle = new_vehicle(client)
    consumption = _consumption(client, vehicle["id"], 5)

    first = _delete(client, vehicle["id"], consumption["id"])
    second = _delete(client, vehicle["id"], consumption["id"])

    assert first.status_code == 204
    _not_found(second, "NOT_FOUND")


def test_an_unknown_consumption_is_404_not_found(client: httpx.Client) -> None:
    vehicle = new_vehicle(client)
    _consumption(client, vehicle["id"], 5)

    response = _delete(client, vehicle["id"], str(uuid.uuid4()))

    _not_found(response, "NOT_FOUND")
    assert client.get(f"/v1/vehicles/{vehicle['id']}").json()["co2e"] > 0


def test_another_organizations_consumption_is_404_not_found_and_stays(
    client: httpx.Client, other: httpx.Client
) -> None:
    mine = new_vehicle(client)
    theirs = new_vehicle(other)
    their_consumption = _consumption(other, theirs["id"], 30)

    response = _delete(client, mine["id"], their_consumption["id"])

    _not_found(response, "NOT_FOUND")
    assert _consumption_ids(other, theirs["id"]) == [their_consumption["id"]]


def test_another_vehicles_consumption_is_404_not_found_and_stays(client: httpx.Client) -> None:
    first, second = new_vehicle(client), new_vehicle(client)
    consumption = _consumption(client, second["id"], 30)

    response = _delete(client, first["id"], consumption["id"])

    _not_found(response, "NOT_FOUND")
    assert _consumption_ids(client, second["id"]) == [consumption["id"]]


def test_an_unknown_vehicle_is_404_vehicle_not_found(client: httpx.Client) -> None:
    response = _delete(client, str(uuid.uuid4()), str(uuid.uuid4()))

    _not_found(response, "VEHICLE_NOT_FOUND")


def test_another_organizations_vehicle_is_404_vehicle_not_found(
    client: httpx.Client, other: httpx.Client
) -> None:
    theirs = new_vehicle(other)
    their_consumption = _consumption(other, theirs["id"], 30)

    response = _delete(client, theirs["id"], their_consumption["id"])

    _not_found(response, "VEHICLE_NOT_FOUND")
    assert _consumption_ids(other, theirs["id"]) == [their_consumption["id"]]


def test_a_non_uuid_id_is_422(client: httpx.Client) -> None:
    vehicle = new_vehicle(client)

    response = _delete(client, vehicle["id"], "not-a-uuid")

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["path", "consumption_id"]
