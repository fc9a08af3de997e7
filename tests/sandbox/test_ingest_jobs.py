"""Ingest jobs: the state machine, items, the list, and resumption after a restart."""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer, provisioned_sandbox, sandbox_client, serve

from .waste_requests import LITERS_ID, new_facility, post_wastes, record, wait_finished, waste_ef_id

pytestmark = pytest.mark.timeout(60)


def test_a_job_is_processing_then_completed(slow_sandbox: SandboxServer) -> None:
    with slow_sandbox.client() as client:
        facility = new_facility(client)
        ef = waste_ef_id(client, "150101", "R3")
        job = post_wastes(client, [record(facility, ef)] * 3).json()
        assert job["status"] == "processing"
        assert job["finished_at"] is None
        assert client.get(job["links"]["self"]).json()["status"] == "processing"
        done = wait_finished(client, job["links"]["self"])
    assert done["status"] == "completed"
    assert done["counts"] == {"submitted": 3, "succeeded": 3, "failed": 0}
    assert (done["chunks_total"], done["chunks_done"]) == (1, 1)
    assert done["finished_at"] is not None


def test_wastes_are_loading_until_calculated(slow_sandbox: SandboxServer) -> None:
    with slow_sandbox.client() as client:
        facility = new_facility(client)
        row_id = f"loading-{uuid.uuid4()}"
        ef = waste_ef_id(client, "150101", "R3")
        job = post_wastes(client, [record(facility, ef, client_row_id=row_id)]).json()
        waste = client.get("/v2/wastes", params={"client_row_id": row_id}).json()["items"][0]
        wait_finished(client, job["links"]["self"])
    assert waste["status"] == "loading"
    assert waste["co2e"] is None


def test_a_deleted_custom_factor_ends_completed_with_errors(slow_sandbox: SandboxServer) -> None:
    with slow_sandbox.client() as client:
        facility = new_facility(client)
        factor = client.post(
            "/v1/custom-emission-factors", json={"name": "Gone", "factor_kg_co2e_per_t": 5}
        ).json()
        ef = waste_ef_id(client, "150101", "R3")
        records = [record(facility, ef), record(facility, None, custom_ef_record_id=factor["id"])]
        job = post_wastes(client, records).json()
        assert client.delete(f"/v1/custom-emission-factors/{factor['id']}").status_code == 204
        done = wait_finished(client, job["links"]["self"])
        failed = client.get(job["links"]["items"], params={"status": "failed"}).json()["items"]
    assert done["status"] == "completed_with_errors"
    assert done["counts"] == {"submitted": 2, "succeeded": 1, "failed": 1}
    assert [(i["source_row_index"], i["error_code"]) for i in failed] == [
        (1, "CUSTOM_EF_NOT_FOUND")
    ]
    assert failed[0]["error_params"] == {"custom_ef_record_id": factor["id"]}


def test_a_unit_without_tonnes_fails_its_record_and_the_waste_exists(
    client: httpx.Client, facility: str
) -> None:
    ef = waste_ef_id(client, "200301", "D1")
    job = post_wastes(client, [record(facility, ef, unit_id=LITERS_ID)]).json()
    done = wait_finished(client, job["links"]["self"])
    item = client.get(job["links"]["items"]).json()["items"][0]
    waste = client.get("/v2/wastes", params={"ids": item["entity_id"]}).json()["items"][0]
    assert done["status"] == "completed_with_errors"
    assert (item["stage"], item["status"], item["error_code"]) == (
        "calculate",
        "failed",
        "UNIT_NOT_CONVERTIBLE",
    )
    assert (waste["status"], waste["co2e"]) == ("error", None)


def test_items_echo_index_client_row_id_and_entity(client: httpx.Client, facility: str) -> None:
    ef = waste_ef_id(client, "200101", "R3")
    records = [record(facility, ef, client_row_id=f"row-{i}-{uuid.uuid4()}") for i in range(3)]
    job = post_wastes(client, records).json()
    wait_finished(client, job["links"]["self"])
    page = client.get(job["links"]["items"], params={"size": 2}).json()
    assert (page["total"], page["pages"], len(page["items"])) == (3, 2, 2)
    first = page["items"][0]
    assert first["source_row_index"] == 0
    assert first["client_row_id"] == records[0]["client_row_id"]
    assert (first["stage"], first["status"], first["chunk_index"]) == ("calculate", "succeeded", 0)
    assert first["attempt_count"] == 1
    uuid.UUID(first["entity_id"])


def test_list_filters_by_operation_and_status(client: httpx.Client, facility: str) -> None:
    delete = client.post(
        "/v2/wastes/delete",
        json={"waste_ids": [str(uuid.uuid4())]},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    ).json()
    wait_finished(client, delete["links"]["self"])
    page = client.get(
        "/v2/ingest-jobs", params={"operation": "delete", "status": "completed", "size": 100}
    ).json()
    assert delete["id"] in {j["id"] for j in page["items"]}
    assert {j["operation"] for j in page["items"]} == {"delete"}


def test_list_filters_by_creation_time(client: httpx.Client, facility: str) -> None:
    ef = waste_ef_id(client, "200101", "R3")
    job = post_wastes(client, [record(facility, ef)]).json()
    after = client.get("/v2/ingest-jobs", params={"created_after": job["created_at"]}).json()
    before = client.get("/v2/ingest-jobs", params={"created_before": job["created_at"]}).json()
    assert job["id"] in {j["id"] for j in after["items"]}
    assert job["id"] not in {j["id"] for j in before["items"]}


def test_another_organizations_job_is_404(
    sandbox: SandboxServer, client: httpx.Client, facility: str
) -> None:
    ef = waste_ef_id(client, "200101", "R3")
    job = post_wastes(client, [record(facility, ef)]).json()
    with sandbox.client(sandbox.other_org) as other:
        response = other.get(job["links"]["self"])
    assert response.status_code == 404


def test_a_restarted_server_resumes_unfinished_jobs(tmp_path: Path) -> None:
    with provisioned_sandbox(tmp_path, calc_delay=2.0) as first, first.client() as client:
        facility = new_facility(client)
        ef = waste_ef_id(client, "200101", "R3")
        job = post_wastes(client, [record(facility, ef)] * 2500).json()
        assert job["chunks_total"] == 3
    # the first server stopped before its first chunk (2 s delay); a new one picks the job up
    with (
        serve(first.db_path, first.ca_file) as second,
        sandbox_client(second.base_url, first.ca_file, first.org) as client,
    ):
        done = wait_finished(client, job["links"]["self"])
    assert done["status"] == "completed"
    assert done["counts"]["succeeded"] == 2500
