"""Logistics requests (shipment legs): v1 and v2 creates, bulk, list, batch delete, limits
(interface: Logistics, Limits; facts §4.1-4.3, §4.5, §4.6)."""

from __future__ import annotations

import json
import math
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer

from .logistics_support import fresh_client, leg, wait_for_co2e

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """One organization (and API key) for the module; tests filter by their own movement_id."""
    with fresh_client(sandbox) as module_client:
        yield module_client


@pytest.fixture(scope="module")
def other(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    with fresh_client(sandbox, "Other logistics") as other_client:
        yield other_client


def _movement() -> str:
    return f"MOV-{uuid.uuid4().hex[:12]}"


def test_van_leg_is_load_tonnes_times_km_times_wtw(client: httpx.Client) -> None:
    response = client.post("/v1/logistics/requests", json=leg(load=500, distance_km=100))
    assert response.status_code == 201
    body = response.json()
    # van_diesel WTW 1.270 kg/t·km (facts §4.6): 0.5 t × 100 km = 50 t·km; 50 × 1.270 = 63.5 kg
    assert body["tkm"] == pytest.approx(50)
    assert body["co2e"] == pytest.approx(63.5)
    assert body["status"] == "active"


def test_glec_faq_rigid_truck_example_gives_164_4_kg(client: httpx.Client) -> None:
    record = leg(toc="rigid_truck_26_32_t_euro6_diesel", load=5, load_unit="ton", distance_km=203)
    body = client.post("/v1/logistics/requests", json=record).json()
    # facts §4.6: 5 t × 203 km = 1,015 t·km; × 0.162 = 164.43 kg
    assert body["co2e"] == pytest.approx(164.43)


def test_category_without_toc_uses_the_generic_rail_toc(client: httpx.Client) -> None:
    record = {"category": "rail", "distance_km": 300, "load": 20, "load_unit": "ton"}
    body = client.post("/v1/logistics/requests", json=record).json()
    # generic_average_rail 0.025 (facts §4.6): 20 t × 300 km = 6,000 t·km; × 0.025 = 150 kg
    assert body["toc"] == "generic_average_rail"
    assert body["co2e"] == pytest.approx(150)


def test_desnz_wtw_toc_with_a_load_factor(client: httpx.Client) -> None:
    record = leg(toc="rigid_truck_diesel_desnz", load=10, load_unit="ton", load_factor=0.5,
                 distance_km=203)  # fmt: skip
    body = client.post("/v1/logistics/requests", json=record).json()
    # DESNZ rigid WTW 0.17853 + 0.04332 = 0.22185; 10 t × 0.5 = 5 t; 5 × 203 = 1,015 t·km
    # 1,015 × 0.22185 = 225.17775 kg
    assert body["co2e"] == pytest.approx(225.17775)


def test_distance_comes_from_the_gazetteer_when_origin_and_destination_are_given(
    client: httpx.Client,
) -> None:
    record = {"toc": "van_diesel", "load": 1, "load_unit": "ton",
              "origin": "Madrid, Spain", "destination": "Barcelona, Spain"}  # fmt: skip
    body = client.post("/v1/logistics/requests", json=record).json()
    # gazetteer: Madrid 40.42, -3.70; Barcelona 41.39, 2.17; haversine on R = 6371.0088 km
    lat1, lon1, lat2, lon2 = map(math.radians, (40.42, -3.70, 41.39, 2.17))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    expected_km = 2 * 6371.0088 * math.asin(math.sqrt(h))  # ≈ 505 km
    assert body["distance_km"] == pytest.approx(expected_km, abs=0.1)
    assert body["co2e"] == pytest.approx(body["distance_km"] * 1 * 1.270)  # 1 t × km × 1.270
    assert body["estimated_data"] == ["distance_km"]


def test_unknown_place_without_distance_is_422_location_not_found(client: httpx.Client) -> None:
    record = {"toc": "van_diesel", "origin": "Atlantis", "destination": "Madrid"}
    response = client.post("/v1/logistics/requests", json=record)
    assert response.status_code == 422
    assert response.json()["code"] == "LOCATION_NOT_FOUND"


def test_neither_distance_nor_places_is_a_422_validation_list(client: httpx.Client) -> None:
    response = client.post("/v1/logistics/requests", json={"toc": "van_diesel"})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], list)


def test_same_movement_id_updates_the_leg(client: httpx.Client) -> None:
    movement = _movement()
    first = client.post("/v1/logistics/requests", json=leg(movement_id=movement))
    again = client.post("/v1/logistics/requests", json=leg(movement_id=movement, load=1000))
    listed = client.get("/v1/logistics/requests", params={"movement_id": movement}).json()
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert listed["total"] == 1
    assert listed["items"][0]["co2e"] == pytest.approx(1 * 100 * 1.270)  # 1 t × 100 km × 1.270


def test_v2_create_answers_null_co2e_then_the_worker_calculates(client: httpx.Client) -> None:
    movement = _movement()
    created = client.post("/v2/logistics/requests", json=leg(movement_id=movement))
    calculated = wait_for_co2e(client, movement)
    assert created.status_code == 201
    assert created.json()["co2e"] is None
    assert created.json()["tkm"] == pytest.approx(50)  # facts §4.2: distance sent → tkm up front
    assert calculated["status"] == "active"
    assert calculated["co2e"] == pytest.approx(63.5)  # 0.5 t × 100 km × 1.270


def test_v2_leg_with_an_unknown_place_ends_in_error(client: httpx.Client) -> None:
    movement = _movement()
    record = {"toc": "van_diesel", "origin": "Atlantis", "destination": "Madrid",
              "movement_id": movement}  # fmt: skip
    assert client.post("/v2/logistics/requests", json=record).status_code == 201
    calculated = wait_for_co2e(client, movement)
    assert calculated["status"] == "error"
    assert calculated["error_messages"] == ["LOCATION_NOT_FOUND"]


def test_v2_validation_errors_are_problem_details(client: httpx.Client) -> None:
    response = client.post("/v2/logistics/requests", json={"toc": "van_diesel"})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_bulk_lists_bad_records_and_keeps_the_good_ones(client: httpx.Client) -> None:
    movement = _movement()
    records = [leg(movement_id=movement), {"toc": "van_diesel"}, leg(movement_id=movement),
               leg(toc="no_such_toc")]  # fmt: skip
    body = client.post("/v1/logistics/requests/bulk", json={"records": records}).json()
    assert (body["total_received"], body["success"], body["failed"]) == (4, 1, 3)
    codes = {e["index"]: e["code"] for e in body["errors"]}
    assert codes == {1: "VALIDATION_ERROR", 2: "DUPLICATE_IN_BATCH", 3: "TOC_NOT_FOUND"}
    assert body["results"][0]["co2e"] == pytest.approx(63.5)


def test_bulk_stops_at_the_first_error_without_continue_on_error(client: httpx.Client) -> None:
    payload = {"records": [leg(), {"toc": "van_diesel"}, leg()],
               "options": {"continue_on_error": False}}  # fmt: skip
    body = client.post("/v1/logistics/requests/bulk", json=payload).json()
    assert (body["total_processed"], body["success"], body["failed"]) == (2, 1, 1)


def test_bulk_over_5000_records_is_422(client: httpx.Client) -> None:
    response = client.post("/v1/logistics/requests/bulk", json={"records": [leg()] * 5001})
    assert response.status_code == 422


def test_v2_bulk_results_have_null_co2e(client: httpx.Client) -> None:
    first, second = _movement(), _movement()
    records = [leg(movement_id=first), leg(movement_id=second)]
    body = client.post("/v2/logistics/requests/bulk", json={"records": records}).json()
    calculated = wait_for_co2e(client, second)
    assert body["success"] == 2
    assert [r["co2e"] for r in body["results"]] == [None, None]
    assert calculated["co2e"] == pytest.approx(63.5)


def test_batch_delete_removes_the_legs_with_204(client: httpx.Client) -> None:
    movement = _movement()
    ids = [
        client.post(
            "/v1/logistics/requests", json=leg(movement_id=movement, movement_stretch=s)
        ).json()["id"]
        for s in ("1", "2")
    ]
    response = client.post("/v1/logistics/requests/batch-delete", json={"request_ids": ids})
    remaining = client.get("/v1/logistics/requests", params={"movement_id": movement}).json()
    assert response.status_code == 204
    assert response.content == b""
    assert remaining["total"] == 0


def test_batch_delete_with_another_organizations_id_is_404_and_deletes_nothing(
    client: httpx.Client, other: httpx.Client
) -> None:
    movement = _movement()
    own = client.post("/v1/logistics/requests", json=leg(movement_id=movement)).json()["id"]
    foreign = other.post("/v1/logistics/requests", json=leg()).json()["id"]
    response = client.post(
        "/v1/logistics/requests/batch-delete", json={"request_ids": [own, foreign]}
    )
    kept = client.get("/v1/logistics/requests", params={"movement_id": movement}).json()
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"
    assert kept["total"] == 1


def test_batch_delete_of_an_unknown_id_is_404(client: httpx.Client) -> None:
    response = client.post(
        "/v1/logistics/requests/batch-delete", json={"request_ids": [str(uuid.uuid4())]}
    )
    assert response.status_code == 404


def test_batch_delete_without_request_ids_is_422(client: httpx.Client) -> None:
    response = client.post("/v1/logistics/requests/batch-delete", json={})
    assert response.status_code == 422


def test_list_is_scoped_to_the_organization(client: httpx.Client, other: httpx.Client) -> None:
    movement = _movement()
    other.post("/v1/logistics/requests", json=leg(movement_id=movement))
    page = client.get("/v1/logistics/requests", params={"movement_id": movement}).json()
    assert page["total"] == 0
    assert page["size"] == 10


def test_31_quick_creates_meet_a_429_and_waiting_retry_after_is_served(
    client: httpx.Client,
) -> None:
    time.sleep(1 - time.time() % 1 + 0.01)  # start at the beginning of a one-second window
    with ThreadPoolExecutor(31) as pool:
        responses = list(
            pool.map(lambda _: client.post("/v1/logistics/requests", json=leg()), range(31))
        )
    refused = [r for r in responses if r.status_code == 429]
    time.sleep(int(refused[0].headers["Retry-After"]))
    again = client.post("/v1/logistics/requests", json=leg())
    assert len(refused) == 1
    assert refused[0].json() == {"detail": "Rate limit exceeded"}
    assert all("X-RateLimit-Remaining" in r.headers and "RateLimit" in r.headers for r in responses)
    assert again.status_code == 201


@pytest.mark.slow  # benchmark-sized (eleven bulks of 5,000 records): left out of the fast run
def test_the_eleventh_concurrent_bulk_is_429_without_rate_limit_headers(
    client: httpx.Client,
) -> None:
    """11 slow (5,000-record) bulks at once: one is refused (interface: rate-limit rule 3)."""
    payload = json.dumps({"records": [leg(distance_km=i + 1) for i in range(5000)]})
    start = threading.Barrier(11)

    def post_bulk(_: int) -> httpx.Response:
        start.wait()
        return client.post(
            "/v1/logistics/requests/bulk",
            content=payload,
            headers={"content-type": "application/json"},
        )

    with ThreadPoolExecutor(11) as pool:
        responses = list(pool.map(post_bulk, range(11)))
    refused = [r for r in responses if r.status_code == 429]
    assert sorted(r.status_code for r in responses) == [200] * 10 + [429]
    assert refused[0].json() == {"detail": "Too many concurrent requests"}
    assert refused[0].headers["Retry-After"] == "1"
    assert not any(h.lower().startswith("x-ratelimit") for h in refused[0].headers)
