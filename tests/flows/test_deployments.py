"""The deployments, declared once in ``flows/prefect.yaml`` and installed with the flows: each
names its flow by module path (what a worker with the package installed imports), with
parameters the flow takes; ``prefect-setup`` deploys a checkout's declaration, else the
installed one, which is the same file."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import yaml

from emissions_etl.orchestration.setup import deployments_file

PROJECT = Path(__file__).resolve().parents[2]
DECLARATION = PROJECT / "flows" / "prefect.yaml"
DEPLOYMENTS = yaml.safe_load(DECLARATION.read_text())["deployments"]


@pytest.mark.parametrize("deployment", DEPLOYMENTS, ids=[d["name"] for d in DEPLOYMENTS])
def test_a_deployment_names_an_installed_flow_by_module_path_and_passes_it_its_parameters(
    deployment: dict[str, object],
) -> None:
    from prefect import Flow
    from prefect.flows import load_flow_from_entrypoint

    entrypoint = str(deployment["entrypoint"])
    flow = load_flow_from_entrypoint(entrypoint, use_placeholder_flow=False)

    assert ":" not in entrypoint  # a module path, not a file of a checkout
    assert entrypoint.startswith("emissions_etl_flows.")
    assert isinstance(flow, Flow)
    taken = inspect.signature(flow.fn).parameters
    assert set(deployment.get("parameters") or {}) <= set(taken)  # type: ignore[arg-type]


@pytest.mark.parametrize("deployment", DEPLOYMENTS, ids=[d["name"] for d in DEPLOYMENTS])
def test_a_deployment_made_before_with_a_file_of_the_checkout_still_finds_its_flow(
    deployment: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deployments made before the flows were installed name them by file
    (``flows/nightly.py:nightly_load``), which Prefect loads as a script of its own, not as a
    module of the installed package: they keep running from a checkout (the changelog's
    promise), each file finding the same flow as its module path."""
    from prefect.flows import load_flow_from_entrypoint

    module, _, function = str(deployment["entrypoint"]).rpartition(".")
    by_file = f"flows/{module.split('.', 1)[1].replace('.', '/')}.py:{function}"
    monkeypatch.chdir(PROJECT)  # a run of such a deployment starts in its checkout

    by_path = load_flow_from_entrypoint(str(deployment["entrypoint"]), use_placeholder_flow=False)
    flow = load_flow_from_entrypoint(by_file, use_placeholder_flow=False)

    assert flow.name == by_path.name


def test_without_a_checkout_setup_deploys_the_declaration_installed_with_the_flows(
    tmp_path: Path,
) -> None:
    assert deployments_file(None) == DECLARATION  # installed editable: the repository's file
    assert deployments_file(tmp_path) == DECLARATION  # a folder without flows/prefect.yaml


def test_a_checkout_given_deploys_its_own_declaration(tmp_path: Path) -> None:
    own = tmp_path / "flows" / "prefect.yaml"
    own.parent.mkdir()
    own.write_text(DECLARATION.read_text())

    assert deployments_file(tmp_path) == own


def _declared(name: str) -> dict[str, object]:
    [deployment] = [d for d in DEPLOYMENTS if d["name"] == name]
    return deployment  # type: ignore[no-any-return]


def test_the_load_of_an_arrival_is_triggered_by_the_watchers_event_with_its_file() -> None:
    from prefect.events.schemas.deployment_triggers import DeploymentEventTrigger
    from prefect.flows import load_flow_from_entrypoint

    from emissions_etl.orchestration.arrivals import ARRIVED, FILE_RESOURCE

    deployment = _declared("load-arrival")
    [declared] = deployment["triggers"]  # type: ignore[misc]
    trigger = DeploymentEventTrigger.model_validate(declared)
    flow = load_flow_from_entrypoint(str(deployment["entrypoint"]), use_placeholder_flow=False)

    assert trigger.expect == {ARRIVED}
    assert trigger.match.root["prefect.resource.id"] == f"{FILE_RESOURCE}*"
    assert trigger.for_each == {"prefect.resource.id"}  # a bucket per file: each its own run
    assert set(trigger.parameters or {}) == set(inspect.signature(flow.fn).parameters)


def test_the_watcher_looks_every_minute_one_look_at_a_time() -> None:
    deployment = _declared("watch-inbox")

    assert deployment["schedules"] == [{"interval": 60}]
    assert deployment["concurrency_limit"] == {"limit": 1, "collision_strategy": "CANCEL_NEW"}
