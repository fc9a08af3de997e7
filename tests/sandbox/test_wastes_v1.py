"""Deprecated v1 wastes keep working, with Deprecation and successor Link headers."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .waste_requests import new_facility, record, waste_ef_id

pytestmark = pytest.mark.timeout(60)


def test_create_is_201_calculated_and_deprecated(
    sandbox: SandboxServer, client: httpx.Client
) -> None:
    facility = new_facility(client)
    response = client.post("/v1/wastes", json=record(facility, waste_ef_id(client, "200101", "D1")))
    assert response.status_code == 201
    assert response.json()["co2e"] == pytest.approx(1164.39015)
    assert response.headers["Deprecation"] == "@1791158400"
    assert response.headers["Link"] == f'<{sandbox.base_url}/v2/wastes>; rel="successor-version"'


def test_create_accepts_custom_emission_factor_id(client: httpx.Client) -> None:
    facility = new_facility(client)
    factor = client.post(
        "/v1/custom-emission-factors", json={"name": "v1", "factor_kg_co2e_per_t": 10}
    ).json()
    body = record(facility, None, custom_emission_factor_id=factor["id"])
    assert client.post("/v1/wastes", json=body).json()["co2e"] == pytest.approx(10)


def test_create_validation_is_a_v1_detail_list(client: httpx.Client) -> None:
    response = client.post("/v1/wastes", json={"identification_name": "x"})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], list)


def test_bulk_delete_reports_successes_and_failures(
    sandbox: SandboxServer, client: httpx.Client
) -> None:
    facility = new_facility(client)
    created = client.post(
        "/v1/wastes", json=record(facility, waste_ef_id(client, "200101", "R3"))
    ).json()
    unknown = str(uuid.uuid4())
    response = client.post("/v1/waste/bulk-delete", json={"waste_ids": [created["id"], unknown]})
    assert response.status_code == 200
    body = response.json()
    assert (body["success_count"], body["success_ids"]) == (1, [created["id"]])
    assert (body["failed_count"], body["failed_ids"]) == (1, [unknown])
    assert response.headers["Deprecation"] == "@1791158400"
    assert response.headers["Link"].endswith('/v2/wastes/delete>; rel="successor-version"')
