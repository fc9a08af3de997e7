"""Real Prefect flow runs against the served sandbox: end states in Prefect's own names, runs
and task runs named after what they load, the summary, rejects and report artifacts read back
from the Prefect API, one set of figures, and no secret in any of them."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.errors import ServerError
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.orchestration.run_report import MAX_REJECTS_IN_ARTIFACT

from ..pipeline.tenancy import HEADER, Tenant, tenant, waste_row, write_wastes_xlsx
from ..pipeline.workbooks import LOADS, data_collection

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]
__all__ = ["tenant"]  # the fixture, shared with the pipeline tests
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data" / "inbox"


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


def flow_run_of(state: Any) -> Any:
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return client.read_flow_run(state.state_details.flow_run_id)


def artifacts_of(state: Any) -> dict[str, Any]:
    """The artifacts of the state's flow run (those its tasks made included), by kind: the
    key's last word (``emissions-<deployment>-<kind>``)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    run_id = state.state_details.flow_run_id
    only_this_run = ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[run_id]))
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(artifact_filter=only_this_run)
    return {artifact.key.rsplit("-", 1)[-1]: artifact for artifact in artifacts}


def task_states_of(state: Any) -> dict[str, str]:
    """Task run name -> final state name."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    only = FlowRunFilter(id=FlowRunFilterId(any_=[state.state_details.flow_run_id]))
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(flow_run_filter=only)
    return {run.name: run.state.name for run in runs if run.state is not None}


def logs_of(state: Any) -> list[Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=10)  # logs are sent in batches, in the background
    run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        return client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])))


def log_messages_of(state: Any) -> list[str]:
    return [log.message for log in logs_of(state)]


def table_rows(artifact: Any) -> list[dict[str, Any]]:
    data = json.loads(artifact.data) if isinstance(artifact.data, str) else artifact.data
    return list(data)


def summary_line(markdown: str, file_name: str, table: int = 0) -> str:
    """The file's line in the summary's rows table (``table=1``: its co2e table)."""
    lines = [line for line in markdown.splitlines() if line.startswith(f"| {file_name} |")]
    return lines[table]


def remote_waste_count(tenant: Tenant) -> int:
    with tenant.client() as client:
        return sum(1 for _ in client.iter_wastes())


def in_service_kg(message: str) -> float:
    """The co2e a run's message says the records of its files hold in the service."""
    [figure] = re.findall(r"([\d,]+\.\d) kg in the service", message)
    return float(figure.replace(",", ""))


def loaded_kg(message: str) -> float:
    [figure] = re.findall(r"([\d,]+\.\d) kg loaded by this run", message)
    return float(figure.replace(",", ""))


def test_a_nightly_run_with_a_corrupt_workbook_fails_and_its_summary_says_why(
    flow_env: Tenant,
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    (inbox / "wastes").mkdir(parents=True)
    write_wastes_xlsx(inbox / "a.xlsx", [waste_row(n) for n in range(3)])
    write_wastes_xlsx(inbox / "b.xlsx", [waste_row(n) for n in range(3, 5)]
                      + [waste_row(9, quantity=-3)])  # fmt: skip
    (inbox / "wastes" / "corrupt.xlsx").write_bytes(os.urandom(4096))
    (inbox / "~$a.xlsx").write_bytes(b"lock file of an open workbook")

    state = run_flow(nightly_load, str(inbox))

    assert state.is_failed(), (state.name, state.message)
    assert state.message.startswith("corrupt.xlsx: [UnsupportedSourceError] not a workbook (xlsx, "
                                    "xls, xlsb, ods), an HTML table or a csv file (binary "
                                    "content); 3 files, 1 failed; rows read 6, rejected 1, "
                                    "unchanged 0, loaded 5, failed 0; co2e ")  # fmt: skip
    assert remote_waste_count(flow_env) == 5  # the other files loaded all the same
    run = flow_run_of(state)
    assert run.name == f"nightly {flow_env.workdir.name}/inbox"
    assert "partial" not in run.tags
    assert task_states_of(state) == {
        "plan inbox": "Completed",
        "load a.xlsx (wastes)": "Completed",
        "load b.xlsx (wastes)": "Completed",
        "load corrupt.xlsx (wastes)": "Failed",  # the file that failed, its task too
        "refresh sums": "Completed",
        "publish run artifacts": "Completed",
    }
    artifacts = artifacts_of(state)
    assert artifacts["summary"].key == "emissions-nightly-load-summary"  # the flow's name
    markdown = str(artifacts["summary"].data)
    assert "| wastes | failed |" in summary_line(markdown, "corrupt.xlsx")
    assert "- **corrupt.xlsx**: [UnsupportedSourceError] not a workbook (xlsx, xls" in markdown
    assert "| succeeded | 3 | 0 | 0 | 3 | 0 |" in summary_line(markdown, "a.xlsx")
    assert "| partial | 3 | 1 | 0 | 2 | 0 |" in summary_line(markdown, "b.xlsx")
    assert "- b.xlsx, sheet Wastes, row 6, Base quantity: " in markdown  # what to change
    assert "~$a.xlsx" not in markdown
    assert "**Run:** failed: corrupt.xlsx: [UnsupportedSourceError]" in markdown
    [reject] = table_rows(artifacts["rejects"])
    assert (reject["file"], reject["row"], reject["code"]) == ("b.xlsx", "6", "NOT_POSITIVE")
    assert artifacts["rejects"].description.startswith("All 1 rejected cell(s), in 1 rejected row")
    assert "report.html" in str(artifacts["report"].data)
    logs = logs_of(state)
    messages = [log.message for log in logs]
    assert any("corrupt.xlsx (wastes): failed [UnsupportedSourceError]" in m for m in messages)
    assert any(m.startswith("a.xlsx (wastes): succeeded; rows read 3,") for m in messages)
    assert not [m for m in messages if "stages:" in m]  # stage timings at DEBUG
    assert not [m for m in messages if m.startswith("Finished in state Completed")]
    assert not [log.message for log in logs if log.level >= 40 and "Traceback" in log.message]
    everything = "\n".join([markdown, artifacts["rejects"].data, str(state.message), *messages])
    assert flow_env.api_key not in everything
    assert flow_env.api_key.encode() not in flow_env.warehouse.path.read_bytes()


def test_a_run_whose_every_row_is_rejected_fails_and_says_what_the_artifact_omits(
    flow_env: Tenant,
) -> None:
    from emissions_etl_flows.resource import load_resource

    rows = [waste_row(n, quantity=-1) for n in range(600)]
    path = write_wastes_xlsx(flow_env.workdir / "bad.xlsx", rows)

    state = run_flow(load_resource, "wastes", str(path))

    assert state.is_failed(), (state.name, state.message)
    assert state.message.startswith("nothing could be loaded: 1 file; rows read 600, rejected 600")
    assert flow_run_of(state).name == "wastes bad.xlsx"
    artifacts = artifacts_of(state)
    rejects = artifacts["rejects"]
    assert len(table_rows(rejects)) == MAX_REJECTS_IN_ARTIFACT == 500
    assert rejects.description.startswith(
        "Showing 500 of 600 rejected cells (100 omitted), in 600 rejected rows."
    )
    assert "rejects_latest" in rejects.description
    assert "| rejected | 600 | 600 | 0 | 0 | 0 |" in summary_line(
        str(artifacts["summary"].data), "bad.xlsx"
    )
    assert remote_waste_count(flow_env) == 0


def test_a_partial_load_resource_run_is_completed_tagged_partial_with_its_counts(
    flow_env: Tenant,
) -> None:
    from emissions_etl_flows.resource import load_resource

    rows = [waste_row(n) for n in range(4)] + [waste_row(9, facility="Nowhere")]
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", rows)

    state = run_flow(load_resource, "wastes", str(path))

    assert state.is_completed(), (state.name, state.message)
    assert state.name == "Completed"  # a name of Prefect's own: the UI's filters list it
    assert flow_run_of(state).tags == ["partial"]
    assert state.message.startswith(
        "partial: 1 file; rows read 5, rejected 1, unchanged 0, loaded 4, failed 0"
    )
    artifacts = artifacts_of(state)
    assert set(artifacts) == {"summary", "rejects", "report"}
    assert artifacts["summary"].key == "emissions-load-resource-summary"
    [reject] = table_rows(artifacts["rejects"])
    assert (reject["row"], reject["column"], reject["code"]) == ("8", "Facility",
                                                                 "UNKNOWN_FACILITY")  # fmt: skip
    assert remote_waste_count(flow_env) == 4


def test_a_load_run_logs_its_progress_each_tenth_of_the_files_rows(flow_env: Tenant) -> None:
    from emissions_etl_flows.resource import load_resource

    path = flow_env.workdir / "w.csv"
    lines = [",".join(HEADER), *(",".join("" if cell is None else str(cell)
                                          for cell in waste_row(n)) for n in range(3_000))]
    path.write_text("\n".join(lines) + "\n")  # fmt: skip

    state = run_flow(load_resource, "wastes", str(path))

    assert state.is_completed(), (state.name, state.message)
    found = [re.match(r"w\.csv: (\d+) % of about ([\d,]+) rows \(read ", message)
             for message in log_messages_of(state)]  # fmt: skip
    tenths = [(int(match.group(1)), match.group(2)) for match in found if match]
    assert tenths, log_messages_of(state)
    [total] = {total for _, total in tenths}  # the csv's bytes over its first lines' length
    assert abs(int(total.replace(",", "")) - 3_000) <= 30
    percents = [percent for percent, _ in tenths]
    assert percents == sorted(set(percents))
    assert percents[-1] >= 90  # (the estimate may be above the rows: the outcome says the end)
    assert all(percent % 10 == 0 for percent in percents)


def test_a_strict_load_wastes_run_stops_on_rejects_but_publishes_them_and_a_fixed_file_loads(
    flow_env: Tenant,
) -> None:
    from emissions_etl_flows.wastes import load_wastes

    rows = [waste_row(n) for n in range(3)] + [waste_row(7, quantity="lots")]
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", rows)

    stopped = run_flow(load_wastes, str(path), strict=True)

    assert stopped.is_failed(), (stopped.name, stopped.message)
    assert flow_run_of(stopped).name == "wastes w.xlsx (strict)"
    assert remote_waste_count(flow_env) == 0
    assert task_states_of(stopped)["load w.xlsx (wastes)"] == "Failed"
    artifacts = artifacts_of(stopped)
    [reject] = table_rows(artifacts["rejects"])
    assert (reject["row"], reject["code"]) == ("7", "INVALID_NUMBER")
    assert "All 1 rejected cell(s)" in artifacts["rejects"].description
    assert "| rejected |" in summary_line(str(artifacts["summary"].data), "w.xlsx")

    write_wastes_xlsx(path, rows[:3])
    done = run_flow(load_wastes, str(path), strict=True)

    assert done.is_completed(), (done.name, done.message)
    assert done.name == "Completed"
    assert flow_run_of(done).tags == []
    assert "rows read 3, rejected 0, unchanged 0, loaded 3, failed 0" in done.message
    assert "rejects" not in artifacts_of(done)
    assert remote_waste_count(flow_env) == 3


def test_a_nightly_over_hubs_and_wastes_says_the_co2e_of_activity_records_once(
    flow_env: Tenant,
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    for resource, name in [("facilities", "centros_2026.xlsx"), ("logistic_hubs", "hubs_2026.xlsx"),
                           ("logistics_requests", "envios_2026_t1.xlsx"),
                           ("wastes", "wastes_2026_h1.xlsx")]:  # fmt: skip
        (inbox / resource).mkdir(parents=True)
        shutil.copy(SAMPLES / resource / name, inbox / resource / name)

    first = run_flow(nightly_load, str(inbox))
    again = run_flow(nightly_load, str(inbox))

    assert first.is_completed(), first.message
    files = [path.name for path in inbox.glob("*/*.xlsx")]
    activity = flow_env.warehouse.query(
        "SELECT coalesce(sum(co2e_kg), 0) AS kg FROM emissions "
        "WHERE NOT is_aggregate AND list_contains(?, source_file)",
        [files],
    )["kg"][0]
    sums = flow_env.warehouse.query(
        "SELECT coalesce(sum(co2e_kg), 0) AS kg FROM emissions "
        "WHERE resource = 'logistic_hubs' AND list_contains(?, source_file)",
        [files],
    )["kg"][0]
    assert sums > 0  # the hubs carry their shipments' co2e: it must not be added again
    assert in_service_kg(first.message) == pytest.approx(activity, abs=0.05)
    assert loaded_kg(first.message) == pytest.approx(activity, abs=0.05)
    # An unchanged re-run loads nothing and its files' records still hold all of it.
    assert again.is_completed(), again.message
    assert loaded_kg(again.message) == 0.0
    assert in_service_kg(again.message) == pytest.approx(activity, abs=0.05)
    assert re.search(r"loaded 0, failed \d+; co2e 0\.0 kg loaded by this run", again.message)
    markdown = str(artifacts_of(again)["summary"].data)
    hubs = summary_line(markdown, "hubs_2026.xlsx", table=1)
    assert hubs == "| hubs_2026.xlsx | not added: sums of other records |  |"


def test_a_run_that_found_the_service_down_is_tried_again(
    flow_env: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl.orchestration import tasks
    from emissions_etl_flows import wastes

    calls: list[str] = []
    real = tasks.load_files

    def down_once(planned: Any, **kwargs: Any) -> list[FileOutcome]:
        calls.append(str(planned[0].path))
        if len(calls) == 1:
            return [FileOutcome(planned[0].path, "wastes", error=ServerError(503, "unavailable"))]
        return real(planned, **kwargs)

    monkeypatch.setattr(tasks, "load_files", down_once)
    monkeypatch.setattr(tasks, "load_one", tasks.load_one.with_options(retries=0))
    path = write_wastes_xlsx(flow_env.workdir / "w.xlsx", [waste_row(1)])

    state = run_flow(wastes.load_wastes.with_options(retry_delay_seconds=1), str(path))

    assert state.is_completed(), (state.name, state.message)
    assert len(calls) == 2
    assert flow_run_of(state).run_count == 2
    messages = log_messages_of(state)
    assert any("ServiceOutageError" in m and "the service looks down" in m for m in messages)
    assert any("AwaitingRetry" in m for m in messages)


def test_a_run_without_its_inbox_fails_at_once_saying_why_in_one_line(flow_env: Tenant) -> None:
    from emissions_etl_flows.nightly import nightly_load

    missing = flow_env.workdir / "no-such-inbox"

    state = run_flow(nightly_load.with_options(retry_delay_seconds=1), str(missing))

    assert state.is_failed(), (state.name, state.message)
    assert f"inbox folder {missing} does not exist" in state.message
    assert flow_run_of(state).run_count == 1  # no retry: trying again changes nothing
    logs = logs_of(state)
    assert [log for log in logs if log.level >= 40 and "Traceback" in log.message] == []
    assert any(log.level >= 40 and "does not exist" in log.message for log in logs)


def test_a_webhook_load_says_in_the_run_logs_how_its_endpoint_and_jobs_went(
    flow_env: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl_flows.wastes import load_wastes
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
    from emissions_etl_flows.nightly import nightly_load

    inbox = flow_env.workdir / "inbox"
    inbox.mkdir()
    data_collection(inbox / "datos.xlsx")  # notes first, children before parents, summary last

    state = run_flow(nightly_load, str(inbox))

    assert state.is_completed(), (state.name, state.message)
    assert state.name == "Completed"
    assert state.message.startswith(
        "1 file, 2 sheets not loaded; rows read 15, rejected 0, unchanged 0, loaded 15, failed 0"
    )
    markdown = str(artifacts_of(state)["summary"].data)
    for sheet, (resource, rows) in LOADS.items():
        line = summary_line(markdown, f"datos.xlsx sheet {sheet}")
        assert f"| {resource} | succeeded | {rows} | 0 | 0 | {rows} | 0 |" in line
    for sheet in ("Notas", "Resumen"):
        assert "| - | skipped |" in summary_line(markdown, f"datos.xlsx sheet {sheet}")
        assert (
            f"- **datos.xlsx sheet {sheet}**: not loaded, its header fits no resource" in markdown
        )
    logs = log_messages_of(state)
    assert "datos.xlsx sheet Resumen: not loaded, its header fits no resource" in logs
    runs = flow_env.warehouse.query("SELECT resource FROM load_runs ORDER BY started_at")
    started = runs["resource"].tolist()
    assert started.index("facilities") < started.index("wastes")
    assert started.index("vehicles") < started.index("vehicle_consumptions")
