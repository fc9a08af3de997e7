"""End to end over a served sandbox: a file loads once, re-runs send nothing, changes replace."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import EmptySourceError, StrictModeError
from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.resources import resource_spec

from .tenancy import Tenant, waste_row, write_wastes_csv, write_wastes_xlsx

WASTES = resource_spec("wastes")


def _remote_wastes(tenant: Tenant) -> list[dict]:
    with tenant.client() as client:
        return list(client.iter_wastes())


def _load(tenant: Tenant, path: Path, **options: object):  # type: ignore[no-untyped-def]
    with tenant.client() as client:
        return load_file(
            path,
            api=client,
            warehouse=tenant.warehouse,
            spec=WASTES,
            options=LoadOptions(**options),
        )


def test_a_file_loads_once_with_every_row_mapped_to_its_remote_record(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [waste_row(n) for n in range(30)])

    summary = _load(tenant, path)

    assert (summary.outcome, summary.rows_read, summary.rows_loaded) == ("succeeded", 30, 30)
    remote = _remote_wastes(tenant)
    assert len(remote) == 30
    mapping = tenant.warehouse.query("SELECT remote_id FROM remote_ids WHERE resource='wastes'")
    assert set(mapping["remote_id"]) == {item["id"] for item in remote}
    emissions = tenant.warehouse.query("SELECT co2e_kg, status FROM emissions")
    assert len(emissions) == 30
    assert (emissions["co2e_kg"] > 0).all()


def test_a_batch_is_sent_while_the_jobs_of_the_one_before_still_calculate(
    slow_tenant: Tenant,
) -> None:
    path = write_wastes_csv(slow_tenant.workdir / "w.csv", [waste_row(n) for n in range(4500)])

    summary = _load(slow_tenant, path, batch_rows=1500)

    assert (summary.outcome, summary.rows_read, summary.rows_loaded) == ("succeeded", 4500, 4500)
    with slow_tenant.client() as client:
        jobs = [client.get_ingest_job(job_id) for job_id in summary.job_ids]
    assert len(jobs) == 3
    # the second batch went out before the first batch's job had finished calculating
    assert jobs[1]["created_at"] < jobs[0]["finished_at"]
    landed = slow_tenant.warehouse.query(
        "SELECT count(DISTINCT remote_id) AS ids, count(co2e_kg) AS co2e, "
        "(SELECT count(*) FROM pending_uploads) AS pending FROM emissions"
    )
    assert landed.to_dict("records") == [{"ids": 4500, "co2e": 4500, "pending": 0}]


def test_loading_the_same_file_again_sends_nothing(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [waste_row(n) for n in range(10)])
    _load(tenant, path)

    again = _load(tenant, path)

    assert (again.rows_sent, again.rows_unchanged, again.rows_loaded) == (0, 10, 0)
    assert len(_remote_wastes(tenant)) == 10


def test_a_changed_row_with_a_key_replaces_its_record(tenant: Tenant) -> None:
    rows = [waste_row(n, client_row_id=f"W-{n}") for n in range(5)]
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", rows)
    _load(tenant, path)
    before = {item["client_row_id"]: item for item in _remote_wastes(tenant)}

    rows[2] = waste_row(2, quantity=250.0, client_row_id="W-2")
    write_wastes_xlsx(path, rows)
    summary = _load(tenant, path)

    after = {item["client_row_id"]: item for item in _remote_wastes(tenant)}
    assert (summary.rows_sent, summary.rows_deleted, summary.rows_unchanged) == (1, 1, 4)
    assert len(after) == 5
    assert after["W-2"]["base_quantity"] == 250.0
    assert after["W-2"]["id"] != before["W-2"]["id"]
    assert tenant.warehouse.query("SELECT count(*) AS n FROM emissions")["n"][0] == 5


def test_a_changed_row_without_a_key_is_a_new_record_and_a_mirror_drops_the_old(
    tenant: Tenant,
) -> None:
    rows = [waste_row(n) for n in range(5)]
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", rows)
    _load(tenant, path)
    old = {
        item["id"]
        for item in _remote_wastes(tenant)
        if item["identification_name"] == "RSU-2026-002"
    }

    rows[2] = waste_row(2, quantity=250.0)
    write_wastes_xlsx(path, rows)
    kept = _load(tenant, path)
    mirrored = _load(tenant, path, mirror=True)

    # Identified by content, the edited row is another activity: created, the old one kept
    # (and named) until the file is mirrored.
    assert (kept.rows_sent, kept.rows_unchanged, kept.rows_gone) == (1, 4, 1)
    assert any("--mirror" in note for note in kept.notes)
    assert (mirrored.rows_sent, mirrored.rows_unchanged, mirrored.rows_deleted) == (0, 5, 1)
    after = _remote_wastes(tenant)
    assert len(after) == 5
    assert not old & {item["id"] for item in after}
    assert tenant.warehouse.query("SELECT count(*) AS n FROM emissions")["n"][0] == 5


def test_an_unknown_facility_is_rejected_at_its_row_and_column(tenant: Tenant) -> None:
    rows = [waste_row(1), waste_row(2, facility="Madrid Wharehouse"), waste_row(3)]
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", rows)

    summary = _load(tenant, path)

    assert (summary.outcome, summary.rows_loaded, summary.rows_rejected) == ("partial", 2, 1)
    reject = summary.rejects.iloc[0]
    assert (reject["sheet"], int(reject["row"]), reject["column"]) == ("Wastes", 5, "Facility")
    assert reject["code"] == "UNKNOWN_FACILITY"
    stored = tenant.warehouse.query("SELECT row, code FROM rejects")
    assert stored.to_dict("records") == [{"row": 5, "code": "UNKNOWN_FACILITY"}]


def test_strict_mode_sends_nothing_when_a_row_is_rejected_and_keeps_the_rejects(
    tenant: Tenant,
) -> None:
    rows = [waste_row(1), waste_row(2, facility="Nowhere"), waste_row(3)]
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", rows)

    with pytest.raises(StrictModeError):
        _load(tenant, path, strict=True)

    assert _remote_wastes(tenant) == []
    runs = tenant.warehouse.query("SELECT outcome FROM load_runs")
    assert runs["outcome"].tolist() == ["failed"]
    stored = tenant.warehouse.query("SELECT row, code FROM rejects")
    assert stored.to_dict("records") == [{"row": 5, "code": "UNKNOWN_FACILITY"}]


def test_a_dry_run_writes_nothing_to_the_service(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [waste_row(n) for n in range(4)])

    summary = _load(tenant, path, dry_run=True)

    assert (summary.outcome, summary.rows_loaded, summary.rows_rejected) == ("dry_run", 0, 0)
    assert _remote_wastes(tenant) == []


def test_a_file_whose_every_row_is_rejected_ends_rejected_and_sends_nothing(
    tenant: Tenant,
) -> None:
    rows = [waste_row(1, quantity=-1), waste_row(2, facility="Nowhere")]
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", rows)

    summary = _load(tenant, path)

    assert (summary.outcome, summary.rows_read, summary.rows_rejected) == ("rejected", 2, 2)
    assert (summary.rows_sent, summary.rows_loaded) == (0, 0)
    assert _remote_wastes(tenant) == []
    runs = tenant.warehouse.query("SELECT outcome FROM load_runs")
    assert runs["outcome"].tolist() == ["rejected"]


def test_a_header_only_file_is_an_empty_source_and_its_run_failed(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [])

    with pytest.raises(EmptySourceError, match="no data rows"):
        _load(tenant, path)

    runs = tenant.warehouse.query("SELECT outcome, error FROM load_runs")
    assert runs["outcome"].tolist() == ["failed"]
    assert "EmptySourceError" in runs["error"].iloc[0]
