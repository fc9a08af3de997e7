"""Table sources in a real nightly flow run: each synced after the inbox's files as a task of its
own, from the worker's EMISSIONS_SOURCES file or from the Prefect variable and Secret blocks
``prefect-setup --sources`` writes, a database's password in no log, artifact or state."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.tables.sources_file import read_sources_file
from tests.flows.test_flows import (
    artifacts_of,
    flow_env,
    log_messages_of,
    run_flow,
    summary_line,
    task_states_of,
)
from tests.pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx
from tests.postgres_server import PostgresServer, available
from tests.tables.erp import erp_rows, postgres_table, sqlite_table

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]
__all__ = ["flow_env", "tenant"]  # the fixtures, shared with the other flow tests
PASSWORD = "Erp-s3cret-42"


def sources_file(path: Path, attach: str) -> Path:
    path.write_text(
        f"""
[[source]]
name = "register"
resource = "wastes"
query = "SELECT * FROM erp.wastes"
key = "doc_id"
attach = {{ erp = "{attach}" }}
""",
        encoding="utf-8",
    )
    return path


def an_inbox(tenant: Tenant) -> Path:
    inbox = tenant.workdir / "inbox"
    inbox.mkdir()
    write_wastes_xlsx(inbox / "a.xlsx", [waste_row(n) for n in range(3)])
    return inbox


def test_a_nightly_syncs_each_table_source_after_its_inbox_in_a_task_of_its_own(
    flow_env: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    database = sqlite_table(flow_env.workdir / "erp.sqlite", erp_rows(4))
    sources = sources_file(flow_env.workdir / "sources.toml", f"sqlite:{database}")
    monkeypatch.setenv("EMISSIONS_SOURCES", str(sources))

    state = run_flow(nightly_load, str(an_inbox(flow_env)))

    assert state.is_completed(), (state.name, state.message)
    assert task_states_of(state) == {
        "plan inbox": "Completed",
        "load a.xlsx (wastes)": "Completed",
        "sync register (wastes)": "Completed",
        "refresh sums": "Completed",
        "publish run artifacts": "Completed",
    }
    markdown = str(artifacts_of(state)["summary"].data)
    assert markdown.index("| a.xlsx |") < markdown.index("| register |")
    assert "| succeeded | 4 | 0 | 0 | 4 | 0 |" in summary_line(markdown, "register")
    loaded = flow_env.warehouse.query(
        "SELECT source_name, count(*) AS n FROM remote_ids GROUP BY ALL ORDER BY 1"
    )
    assert loaded.to_records(index=False).tolist() == [("a.xlsx", 3), ("register", 4)]


@pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)")
def test_a_sources_password_kept_in_a_secret_block_is_in_no_log_artifact_or_state(
    flow_env: Tenant, postgres: PostgresServer
) -> None:
    from prefect.variables import Variable

    from emissions_etl.orchestration.table_sources import SOURCES_VARIABLE, save_sources
    from emissions_etl_flows.nightly import nightly_load

    conninfo = postgres.create_database("erp")  # trust on loopback: any password is taken
    postgres_table(conninfo, [*erp_rows(3), (None, *erp_rows(4)[3][1:])])
    given = sources_file(flow_env.workdir / "sources.toml", f"postgres:{conninfo} "
                         f"password={PASSWORD}")  # fmt: skip
    blocks = save_sources(read_sources_file(given))
    try:
        state = run_flow(nightly_load, str(an_inbox(flow_env)))
        stored = Variable.get(SOURCES_VARIABLE)
    finally:
        Variable.unset(SOURCES_VARIABLE)

    assert blocks == ["emissions-source-register-erp"]
    assert PASSWORD not in str(stored)
    assert state.is_completed(), (state.name, state.message)  # partial: the row without a key
    artifacts = artifacts_of(state)
    markdown = str(artifacts["summary"].data)
    assert "| partial | 4 | 1 | 0 | 3 | 0 |" in summary_line(markdown, "register")
    everything = "\n".join(
        [markdown, str(artifacts["rejects"].data), str(state.message), *log_messages_of(state)]
    )
    assert "doc_id" in everything
    assert PASSWORD not in everything
    assert PASSWORD.encode() not in flow_env.warehouse.path.read_bytes()
