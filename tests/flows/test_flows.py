"""Real Prefect flow runs against the served sandbox: true end states, the summary and rejects
artifacts read back from the Prefect API, and no secret in any of them."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

from emissions_etl.orchestration.run_report import MAX_REJECTS_IN_ARTIFACT

from ..pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx
from ..pipeline.workbooks import LOADS, data_collection

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]
__all__ = ["tenant"]  # the fixture, shared with the pipeline tests
SUMMARY_KEY, REJECTS_KEY = "emissions-load-summary", "emissions-load-rejects"


@pytest.fixture
def flow_env(prefect_server: None, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> Tenant:
    """The run's settings as a worker has them: EMISSIONS_* variables only."""
    for name in [name for name in os.environ if name.startswith("EMISSIONS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("EMISSIONS_API_URL", tenant.base_url)
    monkeypatch.setenv("EMISSIONS_API_KEY", tenant.api_key)
    monkeypatch.setenv("EMISSIONS_ORGANIZATION_ID", tenant.organization_id)
    monkeypatch.setenv("EMISSIONS_CA_FILE", str(tenant.ca_file))
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(tenant.warehouse.path))
    return tenant


def run_flow(flow: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The flow's final state (a Failed run is a state to inspect, not an exception)."""
    return flow(*args, return_state=True, **kwargs)


def artifacts_of(state: Any) -> dict[str, Any]:
    """The artifacts of the state's flow run (those its tasks made included), by key."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    run_id = state.state_details.flow_run_id
    only_this_run = ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[run_id]))
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(artifact_filter=only_this_run)
    return {artifact.key: artifact for artifact in artifacts}


def log_messages_of(state: Any) -> list[str]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=10)  # logs are sent in batches, in the background
    run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])))
    return [log.message for log in logs]


def table_rows(artifact: Any) -> list[dict[str, Any]]:
    data = json.loads(artifact.data) if isinstance(artifact.data, str) else artifact.data
    return list(data)


def summary_line(markdown: str, file_name: str) -> str:
    [line] = [line for line in markdown.splitlines() if line.startswith(f"| {file_name} |")]
    return line


def remote_waste_count(tenant: Tenant) -> int:
    with tenant.client() as client:
        return sum(1 for _ in client.iter_wastes())


def test_a_nightly_run_with_a_corrupt_workbook_fails_and_its_summary_says_why(
    flow_env: Tenant,
) -> None:
    from flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    (inbox / "wastes").mkdir(parents=True)
    write_wastes_xlsx(inbox / "a.xlsx", [waste_row(n) for n in range(3)])
    write_wastes_xlsx(inbox / "b.xlsx", [waste_row(n) for n in range(3, 5)]
                      + [waste_row(9, quantity=-3)])  # fmt: skip
    (inbox / "wastes" / "corrupt.xlsx").write_bytes(os.urandom(4096))
    (inbox / "~$a.xlsx").write_bytes(b"lock file of an open workbook")

    state = run_flow(nightly_load, str(inbox))

    assert state.is_failed(), (state.name, state.message)
    assert "3 file(s), 1 failed" in state.message
    assert "corrupt.xlsx" in state.message
    assert remote_waste_count(flow_env) == 5  # the other files loaded all the same
    artifacts = artifacts_of(state)
    markdown = str(artifacts[SUMMARY_KEY].data)
    corrupt = summary_line(markdown, "corrupt.xlsx")
    assert "| wastes | failed |" in corrupt
    assert "UnsupportedSourceError" in corrupt
    assert "not an xlsx or csv file" in corrupt
    assert "| succeeded | 3 | 0 |" in summary_line(markdown, "a.xlsx")
    assert "| partial | 3 | 1 |" in summary_line(markdown, "b.xlsx")
    assert "~$a.xlsx" not in markdown
    assert "**Run:** failed" in markdown
    [reject] = table_rows(artifacts[REJECTS_KEY])
    assert (reject["file"], reject["row"], reject["code"]) == ("b.xlsx", "6", "NOT_POSITIVE")
    logs = log_messages_of(state)
    assert any("corrupt.xlsx (wastes): failed [UnsupportedSourceError]" in m for m in logs), logs
    everything = "\n".join([markdown, artifacts[REJECTS_KEY].data, str(state.message), *logs])
    assert flow_env.api_key not in everything
    assert flow_env.api_key.encode() not in flow_env.warehouse.path.read_bytes()


def test_a_run_whose_every_row_is_rejected_fails_and_says_what_the_artifact_omits(
    flow_env: Tenant,
) -> None:
    from flows.resource import load_resource

    rows = [waste_row(n, quantity=-1) for n in range(600)]
    path = write_wastes_xlsx(flow_env.workdir / "bad.xlsx", rows)

    state = run_flow(load_resource, "wastes", str(path))

    assert state.is_failed(), (state.name, state.message)
    assert "nothing could be loaded" in state.message
    assert "600 rejected" in state.message
    artifacts = artifacts_of(state)
    rejects = artifacts[REJECTS_KEY]
    assert len(table_rows(rejects)) == MAX_REJECTS_IN_ARTIFACT == 500
    assert "Showing 500 of 600 rejected cells (100 omitted)" in rejects.description
    assert "rejects_latest" in rejects.description
    assert "| rejected | 600 | 600 |" in summary_line(str(artifacts[SUMMARY_KEY].data), "bad.xlsx")
    assert remote_waste_count(flow_env) == 0


def test_a_partial_load_resource_run_is_completed_named_partial_with_its_counts(
    flow_env: Tenant,
) -> None:
    from flows.resource import load_resource

    rows = [waste_row(n) for n in range(4)] + [waste_row(9, facility="Nowhere")]
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", rows)

    state = run_flow(load_resource, "wastes", str(path))

    assert state.is_completed(), (state.name, state.message)
    assert state.name == "Partial"
    assert "1 file(s), 0 failed, 4 row(s) in the service, 1 rejected" in state.message
    [reject] = table_rows(artifacts_of(state)[REJECTS_KEY])
    assert (reject["row"], reject["column"], reject["code"]) == ("8", "Facility",
                                                                 "UNKNOWN_FACILITY")  # fmt: skip
    assert remote_waste_count(flow_env) == 4


def test_a_strict_load_wastes_run_stops_on_rejects_but_publishes_them_and_a_fixed_file_loads(
    flow_env: Tenant,
) -> None:
    from flows.wastes import load_wastes

    rows = [waste_row(n) for n in range(3)] + [waste_row(7, quantity="lots")]
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", rows)

    stopped = run_flow(load_wastes, str(path), strict=True)

    assert stopped.is_failed(), (stopped.name, stopped.message)
    assert remote_waste_count(flow_env) == 0
    artifacts = artifacts_of(stopped)
    [reject] = table_rows(artifacts[REJECTS_KEY])
    assert (reject["row"], reject["code"]) == ("7", "INVALID_NUMBER")
    assert "All 1 rejected cell(s)." in artifacts[REJECTS_KEY].description
    assert "| rejected |" in summary_line(str(artifacts[SUMMARY_KEY].data), "w.xlsx")

    write_wastes_xlsx(path, rows[:3])
    done = run_flow(load_wastes, str(path), strict=True)

    assert done.is_completed(), (done.name, done.message)
    assert done.name == "Completed"
    assert "3 row(s) in the service, 0 rejected" in done.message
    assert REJECTS_KEY not in artifacts_of(done)
    assert remote_waste_count(flow_env) == 3


def test_a_webhook_load_says_in_the_run_logs_how_its_endpoint_and_jobs_went(
    flow_env: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.wastes import load_wastes
    from tests.webhooks.support import free_port

    port = free_port()  # the sandbox calls the receiver on loopback (--allow-private-webhooks)
    monkeypatch.setenv("EMISSIONS_WEBHOOK_URL", f"http://127.0.0.1:{port}/hook")
    monkeypatch.setenv("EMISSIONS_WEBHOOK_LISTEN", f"127.0.0.1:{port}")
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", [waste_row(n) for n in range(3)])

    try:
        state = run_flow(load_wastes, str(path))
        logs = log_messages_of(state)
    finally:
        with flow_env.client() as client:
            for endpoint in list(client.iter_webhook_endpoints()):
                client.delete_webhook_endpoint(endpoint["id"])

    assert state.is_completed(), (state.name, state.message)
    registered = f"registered for http://127.0.0.1:{port}/…; ingest jobs finish by its events"
    assert [line for line in logs if line.startswith("webhook: endpoint ")][0].endswith(
        f"{registered} (receiver on http://127.0.0.1:{port})"
    )
    [job] = [line for line in logs if line.startswith("webhook: ingest job ")]
    assert job.endswith("finished by its event: completed, 3 of 3 records calculated")


def test_a_workbook_at_the_inbox_root_loads_sheet_by_sheet_and_names_the_sheets_skipped(
    flow_env: Tenant,
) -> None:
    from flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    inbox.mkdir()
    data_collection(inbox / "datos.xlsx")  # notes first, children before parents, summary last

    state = run_flow(nightly_load, str(inbox))

    assert state.is_completed(), (state.name, state.message)
    assert state.name == "Completed"
    assert "1 file(s), 0 failed, 15 row(s) in the service" in state.message
    assert state.message.endswith("2 sheet(s) not loaded")
    markdown = str(artifacts_of(state)[SUMMARY_KEY].data)
    for sheet, (resource, rows) in LOADS.items():
        line = summary_line(markdown, f"datos.xlsx sheet {sheet}")
        assert f"| {resource} | succeeded | {rows} | 0 |" in line
    for sheet in ("Notas", "Resumen"):
        line = summary_line(markdown, f"datos.xlsx sheet {sheet}")
        assert "| - | skipped |" in line
        assert line.endswith("| not loaded, its header fits no resource |")
    logs = log_messages_of(state)
    assert "datos.xlsx sheet Resumen: not loaded, its header fits no resource" in logs
    runs = flow_env.warehouse.query("SELECT resource FROM load_runs ORDER BY started_at")
    started = runs["resource"].tolist()
    assert started.index("facilities") < started.index("wastes")
    assert started.index("vehicles") < started.index("vehicle_consumptions")
