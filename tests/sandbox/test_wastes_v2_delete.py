"""POST /v2/wastes/delete: an asynchronous, idempotent bulk delete run as an ingest job."""

from __future__ import annotations

import uuid

import httpx
import pytest

from .waste_requests import post_wastes, record, wait_finished

pytestmark = pytest.mark.timeout(60)


def test_delete_is_an_ingest_job_that_removes_the_wastes(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    created = post_wastes(client, [record(facility, paper_r3)] * 2).json()
    wait_finished(client, created["links"]["self"])
    ids = [i["entity_id"] for i in client.get(created["links"]["items"]).json()["items"]]
    response = client.post(
        "/v2/wastes/delete", json={"waste_ids": ids}, headers={"Idempotency-Key": str(uuid.uuid4())}
    )
    assert response.status_code == 202
    job = wait_finished(client, response.headers["Location"])
    assert job["operation"] == "delete"
    assert job["status"] == "completed"
    assert client.get("/v2/wastes", params={"ids": ids}).json()["total"] == 0


def test_deleting_unknown_ids_skips_them(client: httpx.Client) -> None:
    response = client.post(
        "/v2/wastes/delete",
        json={"waste_ids": [str(uuid.uuid4())]},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    job = wait_finished(client, response.headers["Location"])
    items = client.get(job["links"]["items"]).json()["items"]
    assert [(i["stage"], i["status"]) for i in items] == [("delete", "skipped")]
    assert job["status"] == "completed"


def test_delete_requires_an_idempotency_key(client: httpx.Client) -> None:
    response = client.post("/v2/wastes/delete", json={"waste_ids": [str(uuid.uuid4())]})
    assert response.status_code == 422
    assert response.json()["code"] == "IDEMPOTENCY_KEY_REQUIRED"


def test_an_id_given_twice_is_deleted_once_and_then_skipped(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    created = post_wastes(client, [record(facility, paper_r3)]).json()
    wait_finished(client, created["links"]["self"])
    waste_id = client.get(created["links"]["items"]).json()["items"][0]["entity_id"]
    response = client.post(
        "/v2/wastes/delete",
        json={"waste_ids": [waste_id, waste_id]},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    job = wait_finished(client, response.headers["Location"])
    items = client.get(job["links"]["items"]).json()["items"]
    assert [i["status"] for i in items] == ["succeeded", "skipped"]
    assert job["counts"]["succeeded"] == 1


def test_a_delete_replay_returns_the_same_job(client: httpx.Client) -> None:
    body = {"waste_ids": [str(uuid.uuid4())]}
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/v2/wastes/delete", json=body, headers=headers)
    second = client.post("/v2/wastes/delete", json=body, headers=headers)
    assert (first.status_code, second.status_code) == (202, 200)
    assert second.json()["id"] == first.json()["id"]
