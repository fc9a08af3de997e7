"""DELETE /v1/employee-historic/{period_id} (a sandbox addition the pipeline needs; README:
Employees): 204 and the period (with its co2e) is gone; unknown or another organization's is
404 `NOT_FOUND`."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer, create_org

pytestmark = pytest.mark.timeout(60)

PERIODS = "/v1/employee-historic"


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with sandbox.client(create_org(sandbox.db_path, "Period deletes")) as http:
        yield http


@pytest.fixture(scope="module")
def other(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with sandbox.client(create_org(sandbox.db_path, "Other period deletes")) as http:
        yield http


def _employee(client: httpx.Client) -> str:
    body = {"name": "Ana", "situation": "active", "status": "uploaded"}
    response = client.post("/v1/employees", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _period(client: httpx.Client, employee_id: str, start: str, end: str) -> dict[str, Any]:
    body = {
        "employee_id": employee_id, "start_date": start, "end_date": end,
        "commuting_type": "in_itinere", "transport_type": "bus", "total_km": 12,
        "weekly_travels": [0, 2, 4],
    }  # fmt: skip
    response = client.post(PERIODS, json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _period_ids(client: httpx.Client, employee_id: str) -> list[str]:
    page = client.get(PERIODS, params={"employee_id": employee_id}).json()
    return [item["id"] for item in page["items"]]


def _not_found(response: httpx.Response) -> None:
    assert response.status_code == 404, response.text
    assert response.json()["code"] == "NOT_FOUND"
    assert set(response.json()) == {"detail", "code"}


def test_delete_answers_204_and_removes_only_that_period(client: httpx.Client) -> None:
    employee = _employee(client)
    kept = _period(client, employee, "2024-01-01", "2024-03-31")
    removed = _period(client, employee, "2024-04-01", "2024-06-30")

    response = client.delete(f"{PERIODS}/{removed['id']}")
    read = client.get(f"/v1/employees/{employee}").json()

    assert response.status_code == 204
    assert response.content == b""
    assert removed["co2e"] > 0
    assert _period_ids(client, employee) == [kept["id"]]
    assert [p["id"] for p in read["periods"]] == [kept["id"]]
    assert sum(p["co2e"] for p in read["periods"]) == pytest.approx(kept["co2e"])


def test_a_second_delete_is_404(client: httpx.Client) -> None:
    period = _period(client, _employee(client), "2024-01-01", "2024-01-31")

    first = client.delete(f"{PERIODS}/{period['id']}")
    second = client.delete(f"{PERIODS}/{period['id']}")

    assert first.status_code == 204
    _not_found(second)


def test_an_unknown_period_is_404(client: httpx.Client) -> None:
    _not_found(client.delete(f"{PERIODS}/{uuid.uuid4()}"))


def test_another_organizations_period_is_404_and_stays(
    client: httpx.Client, other: httpx.Client
) -> None:
    their_employee = _employee(other)
    theirs = _period(other, their_employee, "2024-01-01", "2024-01-31")

    response = client.delete(f"{PERIODS}/{theirs['id']}")

    _not_found(response)
    assert _period_ids(other, their_employee) == [theirs["id"]]


def test_an_employee_id_is_not_a_period_id(client: httpx.Client) -> None:
    employee = _employee(client)
    period = _period(client, employee, "2024-01-01", "2024-01-31")

    response = client.delete(f"{PERIODS}/{employee}")

    _not_found(response)
    assert _period_ids(client, employee) == [period["id"]]


def test_a_non_uuid_id_is_422(client: httpx.Client) -> None:
    response = client.delete(f"{PERIODS}/not-a-uuid")

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["path", "period_id"]
