"""Faults on the way to the service never lose or duplicate a row."""

from __future__ import annotations

import pytest

from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.resources import resource_spec

from .faults import Fault, FaultTransport, SimulatedCrash
from .tenancy import Tenant, waste_row, write_wastes_xlsx

WASTES = resource_spec("wastes")


def _load_with(tenant: Tenant, path, faults: list[Fault]):  # type: ignore[no-untyped-def]
    transport = FaultTransport(tenant.ca_file, faults)
    with tenant.client(transport=transport) as client:
        summary = load_file(
            path, api=client, warehouse=tenant.warehouse, spec=WASTES, options=LoadOptions()
        )
    return summary, transport


def _remote_keys(tenant: Tenant) -> list[str]:
    with tenant.client() as client:
        return sorted(item["client_row_id"] for item in client.iter_wastes())


def test_500_and_429_answers_are_retried_and_nothing_is_lost(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(n) for n in range(20)])
    faults = [
        Fault("POST", "/v2/wastes", "status", status=500),
        Fault("POST", "/v2/wastes", "status", status=429, headers={"Retry-After": "0"}),
        Fault("GET", "/v2/ingest-jobs", "status", status=503),
    ]

    summary, transport = _load_with(tenant, path, faults)

    assert all(fault.hits == 1 for fault in faults)
    assert summary.rows_loaded == 20
    keys = _remote_keys(tenant)
    assert len(keys) == 20 == len(set(keys))


def test_a_lost_response_is_retried_with_the_same_key_and_replays_the_job(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(n) for n in range(20)])
    faults = [Fault("POST", "/v2/wastes", "drop_response")]

    summary, transport = _load_with(tenant, path, faults)

    posts = [r for r in transport.requests if r == ("POST", "/v2/wastes")]
    assert len(posts) == 2  # the original and its retry
    assert summary.rows_loaded == 20
    assert len(_remote_keys(tenant)) == 20


def test_a_crash_between_upload_and_landing_then_a_rerun_leaves_one_record_per_row(
    tenant: Tenant,
) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(n) for n in range(25)])
    with pytest.raises(SimulatedCrash):
        _load_with(tenant, path, [Fault("GET", "/v2/ingest-jobs", "crash")])
    assert len(_remote_keys(tenant)) == 25  # uploaded, but nothing landed
    assert tenant.warehouse.query("SELECT count(*) AS n FROM remote_ids")["n"][0] == 0

    summary, _ = _load_with(tenant, path, [])

    assert summary.rows_recovered == 25
    assert summary.rows_sent == 0
    keys = _remote_keys(tenant)
    assert len(keys) == 25 == len(set(keys))
    landed = tenant.warehouse.query("SELECT source_key FROM emissions")
    assert sorted(landed["source_key"]) == keys
