"""Real Prefect flow runs against the served sandbox: results, artifacts, and no secret leaks."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ..pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx

pytestmark = pytest.mark.flow
__all__ = ["tenant"]  # the fixture, shared with the pipeline tests


@pytest.fixture
def flow_env(tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> Tenant:
    monkeypatch.setenv("EMISSIONS_API_URL", tenant.base_url)
    monkeypatch.setenv("EMISSIONS_API_KEY", tenant.api_key)
    monkeypatch.setenv("EMISSIONS_ORGANIZATION_ID", tenant.organization_id)
    monkeypatch.setenv("EMISSIONS_CA_FILE", str(tenant.ca_file))
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(tenant.workdir / "warehouse.duckdb"))
    return tenant


async def _artifacts_and_logs() -> tuple[list[str], list[str]]:
    from prefect.client.orchestration import get_client

    async with get_client() as client:
        artifacts = await client.read_artifacts()
        logs = await client.read_logs()
    return (
        [json.dumps(a.data, default=str) + (a.description or "") for a in artifacts],
        [log.message for log in logs],
    )


def test_nightly_load_loads_every_inbox_file_and_publishes_artifacts(
    prefect_server: None, flow_env: Tenant, caplog: pytest.LogCaptureFixture
) -> None:
    from flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    inbox.mkdir()
    write_wastes_xlsx(inbox / "a.xlsx", [waste_row(n) for n in range(6)])
    rows = [waste_row(n) for n in range(4)] + [waste_row(9, quantity=-3)]
    write_wastes_xlsx(inbox / "b.xlsx", rows)
    (inbox / "~$a.xlsx").write_bytes(b"lock file of an open workbook")

    results = nightly_load(str(inbox))

    by_name = {Path(path).name: result for path, result in results.items()}
    assert set(by_name) == {"a.xlsx", "b.xlsx"}
    assert (by_name["a.xlsx"]["outcome"], by_name["a.xlsx"]["rows_loaded"]) == ("succeeded", 6)
    assert (by_name["b.xlsx"]["rows_loaded"], by_name["b.xlsx"]["rows_rejected"]) == (4, 1)

    artifacts, logs = asyncio.run(_artifacts_and_logs())
    assert any("Load summary" in artifact for artifact in artifacts)
    assert any("NOT_POSITIVE" in artifact for artifact in artifacts)
    everything = "\n".join(artifacts + logs + [record.getMessage() for record in caplog.records])
    assert flow_env.api_key not in everything
    assert flow_env.api_key not in (flow_env.workdir / "warehouse.duckdb").read_bytes().decode(
        "latin-1"
    )
