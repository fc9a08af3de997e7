"""The demo inbox's export copies, loaded the nightly flow's way (plan_inbox, then load_files
with the flow's bare LoadOptions): the folder gives the resource, the header gives the profile,
and the user's default country comes from EMISSIONS_DEFAULT_COUNTRY."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import SecretStr

from emissions_etl.loading.file_loads import load_files
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.loading.pipeline import LoadOptions
from emissions_etl.settings import Settings
from tests.pipeline.tenancy import Tenant
from tests.profiles.conftest import ROOT, needs_resource

INBOX = ROOT / "sample_data" / "inbox"
COPIES = {
    "purchases": "ME2N_2026_Q1.txt",
    "logistics_requests": "tms_shipment_legs_2026_q1.csv",
    "logistics_recharges": "solred_extracto_2026-03.xlsx",
}


@needs_resource("purchases")
@needs_resource("logistics_requests")
@needs_resource("logistics_recharges")
def test_the_inbox_copies_load_through_their_profiles_as_the_flow_loads_them(
    tenant: Tenant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = tmp_path / "inbox"
    for resource, name in COPIES.items():
        (inbox / resource).mkdir(parents=True)
        shutil.copyfile(INBOX / resource / name, inbox / resource / name)
    monkeypatch.setenv("EMISSIONS_DEFAULT_COUNTRY", "ES")  # plant 1400 has no country
    settings = Settings(
        api_url=tenant.base_url,
        api_key=SecretStr(tenant.api_key),
        organization_id=tenant.organization_id,
        ca_file=tenant.ca_file,
        warehouse=tenant.workdir / "warehouse.duckdb",
    )
    planned = [(f.path, f.spec) for f in plan_inbox(inbox) if f.spec is not None]
    assert sorted(spec.name for _, spec in planned) == sorted(COPIES)

    outcomes = load_files(planned, settings=settings, options=LoadOptions())

    counts = {
        o.resource: (o.outcome, o.summary.rows_read, o.summary.rows_loaded, o.summary.rows_rejected)
        for o in outcomes
        if o.summary is not None
    }
    assert counts == {
        "purchases": ("partial", 120, 115, 5),
        "logistics_requests": ("partial", 90, 86, 4),
        "logistics_recharges": ("partial", 141, 122, 19),
    }
