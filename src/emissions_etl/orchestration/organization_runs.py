"""A nightly run for each organization: the run of a deployment starts one run of that same
deployment per organization, as its children, on its own work queue, so the pool's workers run
them at once (each with its organization's key, inbox and warehouse rows), then waits for them
and ends as they did. A run outside any deployment (``python -m emissions_etl_flows.nightly``)
runs them one after the other in its own process (``OrganizationRun.of_state``).

The parent neither reads files nor takes a warehouse turn: its children do (a child waiting for
a turn its parent held would wait for ever).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar
from uuid import UUID

from emissions_etl.json_values import JsonValue
from emissions_etl.orchestration.run_report import RunVerdict
from emissions_etl.orchestration.run_states import PARTIAL_PREFIX

if TYPE_CHECKING:
    from prefect.client.schemas.objects import State

#: What a child's run returned: only its state's name, message and run are read.
_Result = TypeVar("_Result")

#: How Prefect words the message of a run that raised, before the error's own words.
_EXCEPTION = re.compile(r"^(?:Flow|Task) run encountered an exception: [\w.]+: ")
#: Seconds between two looks at the children's states.
POLL_SECONDS = 5.0


@dataclass(frozen=True)
class OrganizationRun:
    """How one organization's run ended (its state's name, which Prefect's UI shows; partial
    when it completed with rejected or failed rows: its message says so first)."""

    organization: str
    run_name: str
    state: str
    message: str
    partial: bool = False
    run_id: UUID | None = None

    @property
    def completed(self) -> bool:
        return self.state == "Completed"

    @classmethod
    def of_state(cls, organization: str, run_name: str, state: State[_Result]) -> OrganizationRun:
        """From a child's final Prefect state (a run in this process, or one read back)."""
        message = _EXCEPTION.sub("", str(state.message or ""))
        return cls(
            organization=organization,
            run_name=run_name,
            state=str(state.name),
            message=message,
            partial=message.startswith(PARTIAL_PREFIX),
            run_id=state.state_details.flow_run_id,
        )


def read_back(organization: str, state: State[_Result]) -> OrganizationRun:
    """How the run of ``state`` (a child run in this process) ended, with its name."""
    from prefect.client.orchestration import get_client

    run_id = state.state_details.flow_run_id
    if run_id is None:  # a state no run was made for: there is no name to read
        return OrganizationRun.of_state(organization, "", state)
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(run_id)
    return OrganizationRun.of_state(organization, run.name, state)


def run_each(
    organizations: Sequence[str],
    parameters: Mapping[str, JsonValue],
    nightly: Callable[..., object],
) -> list[OrganizationRun]:
    """One run per organization: children on the pool when this run is a deployment's, one
    after the other in this process otherwise (``nightly``: the flow, run for each with
    ``parameters``); how each ended."""
    from prefect.runtime import deployment
    from prefect.states import State

    if deployment.id:
        return run_on_the_pool(organizations, parameters)
    runs = []
    for name in organizations:
        state = nightly(**parameters, organization=name, return_state=True)
        assert isinstance(state, State)  # with return_state, the run's final state
        runs.append(read_back(name, state))
    return runs


def run_on_the_pool(
    organizations: Sequence[str], parameters: Mapping[str, JsonValue]
) -> list[OrganizationRun]:
    """Start this run's deployment once per organization (``parameters`` with its name), as
    children of this run on its work queue, and wait until every child has ended."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.objects import FlowRun
    from prefect.deployments import run_deployment
    from prefect.runtime import deployment, flow_run

    full_name = f"{flow_run.flow_name}/{deployment.name}"
    with get_client(sync_client=True) as client:
        queue = client.read_flow_run(UUID(flow_run.id)).work_queue_name
    started: dict[str, UUID] = {}
    for name in organizations:
        child = run_deployment(  # sync here: called from a sync flow
            full_name,
            parameters={**parameters, "organization": name},
            timeout=0,  # start them all, then wait
            work_queue_name=queue,
        )
        assert isinstance(child, FlowRun)  # from a sync flow the run, not a coroutine
        started[name] = child.id
    ended: dict[str, OrganizationRun] = {}
    with get_client(sync_client=True) as client:
        while len(ended) < len(started):
            for name, run_id in started.items():
                if name in ended:
                    continue
                run = client.read_flow_run(run_id)
                if run.state is not None and run.state.is_final():
                    ended[name] = OrganizationRun.of_state(name, run.name, run.state)
            if len(ended) < len(started):
                time.sleep(POLL_SECONDS)
    return [ended[name] for name in organizations]


def verdict(runs: Sequence[OrganizationRun]) -> RunVerdict:
    """Failed when an organization's run did not complete (naming it first), partial when one
    completed partial, completed when every one did."""
    if not runs:
        return RunVerdict("failed", "no organization to load")
    failed = [run for run in runs if not run.completed]
    partial = [run for run in runs if run.completed and run.partial]
    counts = (
        f"{len(runs)} organization(s): {len(runs) - len(failed)} completed "
        f"({len(partial)} partial), {len(failed)} failed"
    )
    if failed:
        first = failed[0]
        return RunVerdict("failed", f"{first.organization}: {first.state}: {first.message}; "
                          f"{counts}")  # fmt: skip
    return RunVerdict("partial" if partial else "completed", counts)


def runs_markdown(runs: Sequence[OrganizationRun], run: RunVerdict) -> str:
    """The parent's artifact: each organization's run, how it ended and why (its own summary
    is on its run's page, keyed with its name)."""
    lines = [
        "# Nightly load of each organization",
        "",
        f"**Run:** {run.state}: {_escape(run.message)}",
        "",
        "| organization | run | state | message |",
        "|---|---|---|---|",
    ]
    for child in runs:
        state = f"{child.state} (partial)" if child.partial else child.state
        lines.append(
            f"| {_escape(child.organization)} | {_escape(child.run_name)} | {state} | "
            f"{_escape(child.message)} |"
        )
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
