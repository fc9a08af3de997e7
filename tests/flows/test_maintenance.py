"""The upkeep flow (``emissions_etl_flows.maintenance``, deployed as
``maintain_warehouse/maintain-warehouse`` after the nightly) as a real Prefect flow run: the
warehouse's upkeep, each step in the run's logs and the whole in its ``upkeep`` artifact."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from emissions_etl.warehouse import Warehouse
from emissions_etl_flows.maintenance import maintain_warehouse

from ..warehouse.conftest import mapping_frame, source_frame
from .test_flows import artifacts_of, log_messages_of, run_flow

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]
PREFECT_YAML = Path(__file__).resolve().parents[2] / "flows" / "prefect.yaml"


def test_the_upkeep_flow_compacts_a_file_and_publishes_what_it_did(
    prefect_server: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [name for name in os.environ if name.startswith("EMISSIONS_")]:
        monkeypatch.delenv(name)
    warehouse = Warehouse(tmp_path / "warehouse.duckdb")
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(warehouse.path))
    for night in range(6):  # six small loads: a row group each
        keys = [f"n{night}-{n}" for n in range(40)]
        with warehouse.writer() as writer:
            writer.runs.land_source_rows(f"run-{night}", "wastes", source_frame(keys))
            writer.mappings.upsert_mapping("wastes", mapping_frame({k: f"i-{k}" for k in keys}))

    state = run_flow(maintain_warehouse)

    assert state.is_completed(), state.message
    upkeep = artifacts_of(state)["upkeep"]
    assert "row groups compacted: remote_ids, source_rows" in upkeep.data
    assert any(message.startswith("before: ") for message in log_messages_of(state))


def test_the_upkeep_is_deployed_each_night_after_the_nightly() -> None:
    deployments = {d["name"]: d for d in yaml.safe_load(PREFECT_YAML.read_text())["deployments"]}

    upkeep = deployments["maintain-warehouse"]

    assert upkeep["entrypoint"] == "emissions_etl_flows.maintenance.maintain_warehouse"
    [schedule] = upkeep["schedules"]
    [nightly] = deployments["nightly"]["schedules"]
    assert schedule["timezone"] == nightly["timezone"]
    assert int(schedule["cron"].split()[1]) > int(nightly["cron"].split()[1])  # a later hour
