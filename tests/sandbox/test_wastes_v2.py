"""POST /v2/wastes, POST /v2/wastes/delete and GET /v2/wastes: every rule of the interface."""

from __future__ import annotations

import sqlite3
import uuid

import httpx
import pytest
from pydantic import BaseModel, TypeAdapter

from emissions_sandbox.waste_store import new_ids
from emissions_sandbox.wire_models import IngestJobItemPage, IngestJobPage, WastePage
from tests.sandbox_fixture import SandboxServer

from .waste_requests import (
    TONNES_ID,
    new_facility,
    post_wastes,
    record,
    wait_finished,
    waste_ef_id,
)

pytestmark = pytest.mark.timeout(60)


def _waste_count(sandbox: SandboxServer) -> int:
    with sqlite3.connect(sandbox.db_path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM wastes").fetchone()[0])


def test_accepted_returns_202_job_with_location(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    response = post_wastes(client, [record(facility, paper_r3)])
    assert response.status_code == 202
    job = response.json()
    assert response.headers["Location"] == f"/v2/ingest-jobs/{job['id']}"
    assert job["operation"] == "create"
    assert job["entity_type"] == "waste"
    assert job["counts"]["submitted"] == 1
    assert job["links"] == {
        "self": f"/v2/ingest-jobs/{job['id']}",
        "items": f"/v2/ingest-jobs/{job['id']}/items",
    }


def test_co2e_is_tonnes_times_the_factor(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    row_id = f"co2e-{uuid.uuid4()}"
    job = post_wastes(client, [record(facility, paper_r3, client_row_id=row_id)]).json()
    wait_finished(client, job["links"]["self"])
    waste = client.get("/v2/wastes", params={"client_row_id": row_id}).json()["items"][0]
    assert waste["status"] == "active"
    assert waste["quantity"] == pytest.approx(1.0)
    assert waste["co2e"] == pytest.approx(6.41061)  # DESNZ 2024 paper closed-loop, per tonne


def test_tonnes_are_converted(client: httpx.Client, facility: str) -> None:
    landfill = waste_ef_id(client, "200301", "D1")
    row_id = f"t-{uuid.uuid4()}"
    rec = record(facility, landfill, base_quantity=2, unit_id=TONNES_ID, client_row_id=row_id)
    wait_finished(client, post_wastes(client, [rec]).json()["links"]["self"])
    waste = client.get("/v2/wastes", params={"client_row_id": row_id}).json()["items"][0]
    assert waste["co2e"] == pytest.approx(2 * 497.04416)


def test_missing_idempotency_key_is_422_required(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    response = client.post("/v2/wastes", json={"records": [record(facility, paper_r3)]})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "IDEMPOTENCY_KEY_REQUIRED"


def test_same_key_and_body_replays_the_job_and_writes_nothing(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    key = str(uuid.uuid4())
    first = post_wastes(client, [record(facility, paper_r3)], key=key)
    before = _waste_count(sandbox)
    second = post_wastes(client, [record(facility, paper_r3)], key=key)
    assert second.status_code == 200
    assert second.json()["id"] == first.json()["id"]
    assert _waste_count(sandbox) == before


def test_same_key_with_another_body_is_422_reused(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    key = str(uuid.uuid4())
    post_wastes(client, [record(facility, paper_r3)], key=key)
    response = post_wastes(client, [record(facility, paper_r3, base_quantity=5)], key=key)
    assert response.status_code == 422
    assert response.json()["code"] == "IDEMPOTENCY_KEY_REUSED"


def test_keys_are_scoped_per_organization(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    key = str(uuid.uuid4())
    post_wastes(client, [record(facility, paper_r3)], key=key)
    with sandbox.client(sandbox.other_org) as other:
        other_facility = new_facility(other)
        response = post_wastes(other, [record(other_facility, paper_r3)], key=key)
    assert response.status_code == 202


def test_dry_run_validates_and_writes_nothing(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    before = _waste_count(sandbox)
    response = post_wastes(client, [record(facility, paper_r3)] * 3, dry_run="true")
    assert response.status_code == 200
    assert response.json() == {"dry_run": True, "valid": True, "records": 3}
    assert _waste_count(sandbox) == before


def test_dry_run_of_an_invalid_request_is_the_same_422(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    response = post_wastes(client, [record(facility, paper_r3, base_quantity=0)], dry_run="true")
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == "MUST_BE_POSITIVE"


def test_more_than_5000_records_is_422_too_many(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    response = post_wastes(client, [record(facility, paper_r3)] * 5001)
    assert response.status_code == 422
    assert response.json()["code"] == "TOO_MANY_RECORDS"


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"base_quantity": -1}, "base_quantity", "MUST_BE_POSITIVE"),
        ({"start_date": "2024-02-01"}, "end_date", "DATE_ORDER"),
        ({"client_row_id": "x" * 256}, "client_row_id", "TOO_LONG"),
        ({"waste_efs_id": str(uuid.uuid4())}, "waste_efs_id", "WASTE_EF_NOT_FOUND"),
        ({"unit_id": str(uuid.uuid4())}, "unit_id", "UNIT_NOT_FOUND"),
        ({"facility_id": str(uuid.uuid4())}, "facility_id", "FACILITY_NOT_FOUND"),
        ({"custom_ef_record_id": str(uuid.uuid4())}, "custom_ef_record_id", "CUSTOM_EF_NOT_FOUND"),
        ({"start_date": "01/02/2024"}, "start_date", "INVALID_FORMAT"),
        ({"colour": "red"}, "colour", "UNKNOWN_FIELD"),
    ],
)
def test_an_invalid_record_is_listed_with_index_field_and_code(
    client: httpx.Client,
    facility: str,
    paper_r3: str,
    change: dict,
    field: str,
    code: str,
) -> None:
    records = [record(facility, paper_r3), {**record(facility, paper_r3), **change}]
    response = post_wastes(client, records)
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {
            "index": 1,
            "field": field,
            "code": code,
            "message": response.json()["errors"][0]["message"],
        }
    ]


def test_a_missing_required_field_is_required(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    rec = record(facility, paper_r3)
    del rec["identification_name"]
    errors = post_wastes(client, [rec]).json()["errors"]
    assert [(e["index"], e["field"], e["code"]) for e in errors] == [
        (0, "identification_name", "REQUIRED")
    ]


def test_every_invalid_record_is_listed_and_nothing_written(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    before = _waste_count(sandbox)
    records = [record(facility, paper_r3, base_quantity=0) if i % 2 else record(facility, paper_r3)
               for i in range(10)]  # fmt: skip
    response = post_wastes(client, records)
    assert response.status_code == 422
    assert [e["index"] for e in response.json()["errors"]] == [1, 3, 5, 7, 9]
    assert _waste_count(sandbox) == before


def test_a_facility_of_another_organization_is_not_found(
    sandbox: SandboxServer, client: httpx.Client, paper_r3: str
) -> None:
    with sandbox.client(sandbox.other_org) as other:
        foreign = new_facility(other)
    errors = post_wastes(client, [record(foreign, paper_r3)]).json()["errors"]
    assert errors[0]["code"] == "FACILITY_NOT_FOUND"


def test_an_archived_facility_is_inactive(client: httpx.Client, paper_r3: str) -> None:
    archived = new_facility(client)
    client.put(f"/v1/facilities/{archived}", json={"status": "archived"})
    errors = post_wastes(client, [record(archived, paper_r3)]).json()["errors"]
    assert errors[0]["code"] == "FACILITY_INACTIVE"


def test_a_client_row_id_twice_in_one_request_is_duplicate(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    records = [record(facility, paper_r3, client_row_id="same")] * 2
    errors = post_wastes(client, records).json()["errors"]
    assert [(e["index"], e["code"]) for e in errors] == [(1, "DUPLICATE_CLIENT_ROW_ID")]


def test_custom_factor_is_stored_as_a_calculation_config_and_used(
    sandbox: SandboxServer, client: httpx.Client, facility: str
) -> None:
    factor = client.post(
        "/v1/custom-emission-factors", json={"name": "Own", "factor_kg_co2e_per_t": 100.0}
    ).json()
    row_id = f"custom-{uuid.uuid4()}"
    rec = record(facility, None, custom_ef_record_id=factor["id"], client_row_id=row_id)
    wait_finished(client, post_wastes(client, [rec]).json()["links"]["self"])
    waste = client.get("/v2/wastes", params={"client_row_id": row_id}).json()["items"][0]
    with sqlite3.connect(sandbox.db_path) as conn:
        config = conn.execute(
            "SELECT choice, custom_ef_record_id FROM waste_calculation_configs WHERE waste_id = ?",
            (waste["id"],),
        ).fetchone()
    assert config == ("client_choice", factor["id"])
    assert "custom_ef_record_id" not in waste
    assert waste["co2e"] == pytest.approx(100.0)


def test_list_filters_by_ids_and_dates(client: httpx.Client, facility: str, paper_r3: str) -> None:
    records = [
        record(facility, paper_r3, start_date="2023-03-01", end_date="2023-03-31"),
        record(facility, paper_r3, start_date="2023-05-01", end_date="2023-05-31"),
    ]
    job = post_wastes(client, records).json()
    wait_finished(client, job["links"]["self"])
    ids = [i["entity_id"] for i in client.get(job["links"]["items"]).json()["items"]]
    page = client.get(
        "/v2/wastes", params={"ids": ids, "start_date": "2023-04-01", "end_date": "2023-06-30"}
    ).json()
    assert [w["id"] for w in page["items"]] == [ids[1]]


def test_list_filters_by_updated_since(client: httpx.Client, facility: str, paper_r3: str) -> None:
    first = post_wastes(client, [record(facility, paper_r3)]).json()
    first = wait_finished(client, first["links"]["self"])
    second = post_wastes(client, [record(facility, paper_r3)]).json()
    wait_finished(client, second["links"]["self"])
    page = client.get(
        "/v2/wastes", params={"updated_since": first["finished_at"], "size": 100}
    ).json()
    assert second["id"] in {w["ingest_job_id"] for w in page["items"]}
    assert first["id"] not in {w["ingest_job_id"] for w in page["items"]}


def test_list_filters_by_ingest_job(client: httpx.Client, facility: str, paper_r3: str) -> None:
    first = post_wastes(client, [record(facility, paper_r3)] * 2).json()
    second = post_wastes(client, [record(facility, paper_r3)]).json()
    wait_finished(client, second["links"]["self"])
    page = client.get("/v2/wastes", params={"ingest_job_id": first["id"]}).json()
    assert page["total"] == 2
    assert {w["ingest_job_id"] for w in page["items"]} == {first["id"]}


def test_pages_of_a_job_count_its_records_with_or_without_a_factor(
    client: httpx.Client, facility: str, paper_r3: str
) -> None:
    """`total` and the pages read the wastes alone and look the factor's codes up per listed
    row: a record without a factor is counted and listed, in order, with null codes."""
    records = [record(facility, paper_r3, client_row_id=f"page-{i}") for i in range(5)]
    records.insert(2, record(facility, None, client_row_id="page-no-factor"))
    job = post_wastes(client, records).json()
    wait_finished(client, job["links"]["self"])
    pages = [
        client.get("/v2/wastes", params={"ingest_job_id": job["id"], "size": 2, "page": n}).json()
        for n in (1, 2, 3, 4)
    ]
    assert [(p["total"], p["pages"], len(p["items"])) for p in pages] == [(6, 3, 2)] * 3 + [
        (6, 3, 0)
    ]
    listed = [waste for p in pages for waste in p["items"]]
    assert [w["client_row_id"] for w in listed] == [r["client_row_id"] for r in records]
    codes = {w["client_row_id"]: (w["low_code"], w["rd_code"]) for w in listed}
    assert codes["page-no-factor"] == (None, None)
    assert codes["page-0"] == ("200101", "R3")


@pytest.mark.parametrize(
    ("path", "model"),
    [
        ("/v2/wastes", WastePage),
        ("/v2/ingest-jobs", IngestJobPage),
        ("{items}", IngestJobItemPage),
    ],
)
def test_a_v2_page_is_sent_as_its_model_serialises_it(
    client: httpx.Client, facility: str, paper_r3: str, path: str, model: type[BaseModel]
) -> None:
    """These pages are encoded without FastAPI's response model: their bytes must be the ones
    the model would have written (field order, JSON types, float form)."""
    records = [record(facility, paper_r3, base_quantity=0.1 * (i + 1)) for i in range(3)]
    records.append(record(facility, None, total_km_to_waste_center=12.5))  # a failed item
    job = post_wastes(client, records).json()
    wait_finished(client, job["links"]["self"])
    response = client.get(path.format(items=job["links"]["items"]), params={"size": 100})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    adapter = TypeAdapter(model)
    assert adapter.dump_json(adapter.validate_json(response.content)) == response.content


def test_another_organizations_wastes_are_not_listed(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    job = post_wastes(client, [record(facility, paper_r3)]).json()
    with sandbox.client(sandbox.other_org) as other:
        page = other.get("/v2/wastes", params={"size": 100}).json()
    assert job["id"] not in {w["ingest_job_id"] for w in page["items"]}


def test_new_waste_ids_are_distinct_version_4_uuids_as_str_writes_them() -> None:
    ids = new_ids(2000)
    assert len(set(ids)) == 2000
    for text in ids:
        parsed = uuid.UUID(text)
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, text)
