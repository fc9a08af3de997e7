"""Logistics packages and the summary (interface: Logistics package, Logistics summary;
facts §4.5, §4.6: a package aggregates its legs)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .logistics_support import fresh_client, leg

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with fresh_client(sandbox, "Packages") as module_client:
        yield module_client


def _two_leg_package(client: httpx.Client, key: str) -> None:
    movement = f"SHIP-{key}"
    client.post("/v1/logistics/requests", json=leg(
        movement_id=movement, movement_stretch="1", package_key=key, client="ACME",
        origin="Madrid", destination="Zaragoza", distance_km=300, load=500))  # fmt: skip
    client.post("/v1/logistics/requests", json=leg(
        movement_id=movement, movement_stretch="2", package_key=key, client="ACME",
        toc="articulated_truck_diesel", distance_km=200, load=500))  # fmt: skip


def test_a_package_sums_its_legs(client: httpx.Client) -> None:
    key = uuid.uuid4().hex
    _two_leg_package(client, key)
    page = client.get("/v1/logistics/packages", params={"package_key": key}).json()
    package = page["items"][0]
    # leg 1: 0.5 t × 300 km × 1.270 (van_diesel) = 190.5; leg 2: 0.5 × 200 × 0.196 = 19.6
    assert package["total_co2e"] == pytest.approx(190.5 + 19.6)
    assert package["total_distance_km"] == pytest.approx(500)
    assert package["weight_kg"] == pytest.approx(500)
    assert package["shipment_id"] == f"SHIP-{key}"
    assert [leg_["distance_km"] for leg_ in package["legs"]] == [300, 200]


def test_the_package_page_has_no_pages_and_defaults_to_10(client: httpx.Client) -> None:
    page = client.get("/v1/logistics/packages").json()
    assert set(page) == {"page", "size", "total", "items"}
    assert page["size"] == 10


def test_legs_appear_only_when_filtered_by_package_key(client: httpx.Client) -> None:
    key = uuid.uuid4().hex
    _two_leg_package(client, key)
    page = client.get("/v1/logistics/packages", params={"movement_id": f"SHIP-{key}"}).json()
    assert page["total"] == 1
    assert "legs" not in page["items"][0]


def test_deleting_a_leg_recalculates_the_package(client: httpx.Client) -> None:
    key = uuid.uuid4().hex
    _two_leg_package(client, key)
    legs = client.get("/v1/logistics/packages", params={"package_key": key}).json()
    first_leg = legs["items"][0]["legs"][0]["id"]
    client.post("/v1/logistics/requests/batch-delete", json={"request_ids": [first_leg]})
    package = client.get("/v1/logistics/packages", params={"package_key": key}).json()["items"][0]
    assert package["total_co2e"] == pytest.approx(19.6)  # only leg 2 left: 0.5 × 200 × 0.196


def test_summary_counts_requests_recharges_and_hubs(sandbox: SandboxServer) -> None:
    with fresh_client(sandbox, "Summary") as client:
        empty = client.get("/v1/logistics/summary").json()
        project = str(uuid.uuid4())
        client.post("/v1/logistics/requests", json=leg(project_id=project))
        client.post("/v1/logistics/requests", json=leg())
        client.post("/v1/logistic-hubs", json={"name": "Hub", "type": "subcontracted"})
        summary = client.get("/v1/logistics/summary").json()
        scoped = client.get("/v1/logistics/summary", params={"project_id": project}).json()
    assert empty["requests"] == {"count": 0, "last_updated": None}
    assert summary["requests"]["count"] == 2
    assert summary["requests"]["last_updated"].endswith("Z")
    assert summary["hubs"]["count"] == 1
    assert summary["recharges"]["count"] == 0
    assert scoped["requests"]["count"] == 1
