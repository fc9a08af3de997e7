"""A waste load killed while the service is still calculating: the re-run adopts what was
written, waits until the service has calculated it, and lands the co2e the service holds now;
the killed run ends ``interrupted``. The sandbox here calculates slowly (0.5 s per 1,000)."""

from __future__ import annotations

import os
from pathlib import Path

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.loading.pipeline import load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_module
from tests.pipeline.tenancy import waste_row, write_wastes_xlsx
from tests.resources.crash_driver import KILLED
from tests.sandbox_fixture import SandboxServer, create_org


def test_a_killed_load_is_recovered_with_the_co2e_the_service_holds_now(
    slow_sandbox: SandboxServer, tmp_path: Path
) -> None:
    org = create_org(slow_sandbox.db_path, tmp_path.name)
    auth = ApiKeyAuth(org.api_key, org.organization_id)
    client = EmissionsClient(slow_sandbox.base_url, auth, ca_file=slow_sandbox.ca_file)
    client.send_json(
        "POST", "/v1/facilities", {"name": "Madrid Warehouse", "type": "x", "country": "ES"}
    )
    path = write_wastes_xlsx(tmp_path / "w.xlsx", [waste_row(n) for n in range(2500)])
    warehouse = tmp_path / "w.duckdb"
    env = {**os.environ, "EMISSIONS_API_URL": slow_sandbox.base_url,
           "EMISSIONS_API_KEY": org.api_key, "EMISSIONS_ORGANIZATION_ID": org.organization_id,
           "EMISSIONS_CA_FILE": str(slow_sandbox.ca_file)}  # fmt: skip
    killed = run_module(
        "tests.resources.crash_driver",
        ["wastes", str(path), str(warehouse), "1"],
        env=env,
        timeout=120,
    )
    assert killed.returncode == KILLED, killed.stderr[-2000:]

    with client:
        summary = load_file(
            path, api=client, warehouse=Warehouse(warehouse), spec=resource_spec("wastes")
        )
        service = {item["id"]: item for item in client.iter_items("/v2/wastes")}

    assert (summary.rows_recovered, summary.rows_sent, summary.rows_unchanged) == (2500, 0, 2500)
    landed = Warehouse(warehouse).query("SELECT remote_id, status, co2e_kg FROM emissions")
    assert len(landed) == 2500 == len(service)
    assert set(landed["status"]) == {"active"}
    for row in landed.itertuples():
        assert abs(row.co2e_kg - service[row.remote_id]["co2e"]) < 1e-9
    outcomes = Warehouse(warehouse).query("SELECT outcome FROM load_runs ORDER BY started_at")
    assert list(outcomes["outcome"]) == ["interrupted", "succeeded"]
