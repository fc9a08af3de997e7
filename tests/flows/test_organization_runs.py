"""Several organizations, each with its own key: the nightly runs once per organization (here in
one process; on the pool the real-server tests show it), each run named after its organization,
loading its own inbox with its own key into one warehouse, its rows carrying its id; the
organizations from a TOML file (EMISSIONS_ORGANIZATIONS) or from what prefect-setup writes to
Prefect (a variable and a Secret block each)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.organizations import (
    ORGANIZATIONS_VARIABLE,
    key_block_name,
    resolve_organizations,
    settings_for,
)
from emissions_etl.orchestration.setup import save_organizations
from emissions_etl.organizations import read_organizations
from emissions_etl.warehouse import Warehouse

from ..pipeline.tenancy import Tenant, new_tenant, waste_row, write_wastes_xlsx
from .test_flows import artifacts_of, flow_run_of, log_messages_of, run_flow

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]


def organizations_file(path: Path, tenants: dict[str, Tenant], inbox: dict[str, Path]) -> Path:
    """The TOML file a group writes: shared URL and CA, each key read from a variable."""
    lines = [
        "[defaults]",
        f'api_url = "{next(iter(tenants.values())).base_url}"',
        f'ca_file = "{next(iter(tenants.values())).ca_file}"',
    ]
    for name, tenant in tenants.items():
        lines += [
            "",
            "[[organization]]",
            f'name = "{name}"',
            f'organization_id = "{tenant.organization_id}"',
            f'api_key_env = "KEY_{name.upper().replace("-", "_")}"',
        ]
        if name in inbox:
            lines.append(f'inbox = "{inbox[name]}"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def group(
    prefect_server: None, sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Tenant]:
    """Two organizations of a group, on one worker whose settings are EMISSIONS_* only: the
    organizations file, the shared warehouse and inbox; no key of its own."""
    for name in [name for name in os.environ if name.startswith("EMISSIONS_")]:
        monkeypatch.delenv(name)
    tenants = {}
    for name in ("acme-es", "acme-pt"):
        (tmp_path / name).mkdir()
        tenants[name] = new_tenant(sandbox, tmp_path / name)
        monkeypatch.setenv(f"KEY_{name.upper().replace('-', '_')}", tenants[name].api_key)
    monkeypatch.setenv("EMISSIONS_WAREHOUSE", str(tmp_path / "group.duckdb"))
    monkeypatch.setenv("EMISSIONS_INBOX", str(tmp_path / "inbox"))
    return tenants


def test_the_nightly_runs_once_per_organization_each_with_its_key_into_one_warehouse(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    inbox = tmp_path / "inbox"
    for n, name in enumerate(group):
        (inbox / name / "wastes").mkdir(parents=True)
        rows = [waste_row(i) for i in range(10 * n, 10 * n + 3 + n)]  # 3 and 4 rows
        write_wastes_xlsx(inbox / name / "wastes" / f"{name}.xlsx", rows)
    toml = organizations_file(tmp_path / "organizations.toml", group, {})
    monkeypatch.setenv("EMISSIONS_ORGANIZATIONS", str(toml))

    state = run_flow(nightly_load)

    assert state.is_completed(), (state.name, state.message)
    assert state.message == "2 organization(s): 2 completed (0 partial), 0 failed"
    assert flow_run_of(state).name == f"nightly 2 organizations {tmp_path.name}/inbox"
    parent = artifacts_of(state)["organizations"]
    assert parent.key == "emissions-nightly-load-organizations"
    for name in group:
        [line] = [line for line in str(parent.data).splitlines() if line.startswith(f"| {name} |")]
        assert f"| nightly {name} inbox/{name} | Completed |" in line
    warehouse = Warehouse(tmp_path / "group.duckdb")
    landed = warehouse.query(
        "SELECT organization_id, count(*) AS n FROM emissions WHERE resource = 'wastes' "
        "GROUP BY ALL"
    )
    assert dict(zip(landed["organization_id"], landed["n"], strict=True)) == {
        group["acme-es"].organization_id: 3,
        group["acme-pt"].organization_id: 4,
    }
    for n, tenant in enumerate(group.values()):  # each key wrote its own organization's
        with tenant.client() as client:
            assert sum(1 for _ in client.iter_wastes()) == 3 + n
    logs = log_messages_of(state)
    assert "acme-es: Completed 1 file; rows read 3, rejected 0, unchanged 0, loaded 3, failed 0; " \
        "co2e" in " ".join(logs)  # fmt: skip
    everything = "\n".join([str(parent.data), *logs])
    for tenant in group.values():
        assert tenant.api_key not in everything


def test_a_child_run_is_named_after_its_organization_and_keys_its_artifacts_with_it(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    own = tmp_path / "elsewhere" / "pt-files"
    (own / "wastes").mkdir(parents=True)
    write_wastes_xlsx(own / "wastes" / "pt.xlsx", [waste_row(1), waste_row(2, facility="X")])
    toml = organizations_file(tmp_path / "organizations.toml", group, {"acme-pt": own})
    monkeypatch.setenv("EMISSIONS_ORGANIZATIONS", str(toml))

    state = run_flow(nightly_load, organization="acme-pt")

    assert state.is_completed(), (state.name, state.message)
    assert state.message.startswith("partial: 1 file; rows read 2, rejected 1")
    run = flow_run_of(state)
    assert run.name == "nightly acme-pt elsewhere/pt-files"
    assert "partial" in run.tags
    artifacts = artifacts_of(state)
    assert artifacts["summary"].key == "emissions-nightly-load-acme-pt-summary"
    assert str(artifacts["summary"].data).startswith("# Load summary of acme-pt")
    assert artifacts["rejects"].key == "emissions-nightly-load-acme-pt-rejects"
    assert artifacts["report"].key == "emissions-nightly-load-acme-pt-report"
    assert "report-acme-pt.html" in str(artifacts["report"].data)
    logs = log_messages_of(state)
    assert any(line.startswith("run for acme-pt partial: 1 file; rows read 2") for line in logs)
    assert (tmp_path / "report-acme-pt.html").exists()


def test_an_organization_whose_run_fails_fails_the_nightly_and_the_others_load(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emissions_etl_flows.nightly import nightly_load

    (tmp_path / "inbox" / "acme-es" / "wastes").mkdir(parents=True)
    write_wastes_xlsx(tmp_path / "inbox" / "acme-es" / "wastes" / "es.xlsx", [waste_row(1)])
    toml = organizations_file(tmp_path / "organizations.toml", group, {})  # no acme-pt folder
    monkeypatch.setenv("EMISSIONS_ORGANIZATIONS", str(toml))

    state = run_flow(nightly_load)

    assert state.is_failed(), (state.name, state.message)
    assert state.message.startswith(
        f"acme-pt: Failed: inbox folder {tmp_path}/inbox/acme-pt does not exist: create it, or "
        "give organization acme-pt an inbox of its own"
    )
    assert state.message.endswith("2 organization(s): 1 completed (0 partial), 1 failed")
    with group["acme-es"].client() as client:
        assert sum(1 for _ in client.iter_wastes()) == 1


def test_a_child_state_without_a_run_is_read_back_as_it_ended_without_a_name(
    prefect_server: None,
) -> None:
    from prefect.states import Failed

    from emissions_etl.orchestration.organization_runs import read_back

    run = read_back("acme-es", Failed(message="no run was made"))

    assert (run.organization, run.run_name, run.state, run.run_id) == (
        "acme-es", "", "Failed", None)  # fmt: skip
    assert run.message == "no run was made"


def test_an_organization_not_listed_is_named_with_those_that_are(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toml = organizations_file(tmp_path / "organizations.toml", group, {})
    monkeypatch.setenv("EMISSIONS_ORGANIZATIONS", str(toml))

    with pytest.raises(ConfigurationError, match=r"no organization named 'acme-fr' "
                       r"\(organizations known: acme-es, acme-pt\)"):  # fmt: skip
        settings_for("acme-fr")


def test_prefect_setup_keeps_each_key_in_its_secret_block_and_the_list_in_a_variable(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    toml = organizations_file(tmp_path / "organizations.toml", group, {})
    organizations = read_organizations(toml)

    save_organizations(organizations)  # what prefect-setup --organizations FILE does
    try:
        for name in [name for name in os.environ if name.startswith("KEY_")]:
            monkeypatch.delenv(name)  # the worker has neither the file nor the keys
        found = resolve_organizations()
        listed = Variable.get(ORGANIZATIONS_VARIABLE)
        es = settings_for("acme-es")
    finally:
        Variable.unset(ORGANIZATIONS_VARIABLE)

    assert found == organizations
    assert Secret.load(key_block_name("acme-pt")).get() == group["acme-pt"].api_key  # type: ignore[union-attr]
    assert group["acme-es"].api_key not in str(listed)
    assert [entry["name"] for entry in listed] == ["acme-es", "acme-pt"]  # type: ignore[union-attr,index]
    assert (es.organization_id, es.api_key.get_secret_value()) == (  # type: ignore[union-attr]
        group["acme-es"].organization_id,
        group["acme-es"].api_key,
    )


def test_a_run_of_one_organization_reads_its_own_key_only(
    group: dict[str, Tenant], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every task of a run asks for its organization's settings: reading every organization's
    Secret block each time made a night of N organizations ask Prefect for N * N blocks, and one
    organization's missing block failed the others' runs too."""
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    save_organizations(read_organizations(organizations_file(tmp_path / "o.toml", group, {})))
    try:
        for name in [name for name in os.environ if name.startswith("KEY_")]:
            monkeypatch.delenv(name)
        Secret.delete(key_block_name("acme-pt"))
        by_name = settings_for("acme-es")
        by_id = settings_for(group["acme-es"].organization_id)
        with pytest.raises(ConfigurationError) as missing:
            settings_for("acme-pt")
    finally:
        Variable.unset(ORGANIZATIONS_VARIABLE)

    for es in (by_name, by_id):
        assert (es.organization_id, es.api_key.get_secret_value()) == (  # type: ignore[union-attr]
            group["acme-es"].organization_id,
            group["acme-es"].api_key,
        )
    assert str(missing.value) == "organization acme-pt has no key (its Secret block)"
