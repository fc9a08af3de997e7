"""Alerting: Prefect automations that tell someone when a run of our deployments fails (and,
if asked, when one completes ``partial``, or finds data overdue), through a block the user
names.

The block is any notification block (Slack, Microsoft Teams, e-mail, a custom webhook: the
action is Prefect's *Send a notification*), or a *Webhook* block (the action is *Call a
webhook*, with a JSON body). It is named ``<block type slug>/<block name>`` as Prefect names
blocks (``custom-webhook/ops-alerts``, ``webhook/ops``, ``slack-webhook/data-team``), or by
its name alone when only one block has it. The server runs the automations: nothing here runs
on a worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.run_states import OVERDUE_EVENT, PARTIAL_PREFIX

if TYPE_CHECKING:
    from prefect.automations import AutomationCore
    from prefect.client.orchestration import SyncPrefectClient

#: An event's resource, or its related resources, matched label by label (a value, or any of
#: several).
Labels = dict[str, str | list[str]]

FAILED_AUTOMATION = "emissions-etl: a run failed"
PARTIAL_AUTOMATION = "emissions-etl: a run completed partial"
OVERDUE_AUTOMATION = "emissions-etl: a run found data overdue"
#: State events that mean a run ended without loading what it should (``TimedOut`` is a Failed
#: state of its own name; ``Crashed``: the infrastructure failed).
FAILED_EVENTS = ("prefect.flow-run.Failed", "prefect.flow-run.Crashed", "prefect.flow-run.TimedOut")
COMPLETED_EVENT = "prefect.flow-run.Completed"
#: Block types whose documents are called as a webhook rather than sent a notification.
WEBHOOK_BLOCK_TYPES = ("webhook",)

SUBJECT = "emissions-etl: {{ flow_run.name }} {{ flow_run.state.name | lower }}"
BODY = (
    "Flow run {{ flow_run.name }} of {{ deployment.name }} ended {{ flow_run.state.name }}"
    ": {{ flow_run.state.message }}\n"
    "{{ flow_run | ui_url }}"
)
#: The JSON body a Webhook block is called with (every value JSON-encoded by the template).
WEBHOOK_FIELDS = {
    "flow_run": "flow_run.name",
    "deployment": "deployment.name",
    "state": "flow_run.state.name",
    "tags": "flow_run.tags",
    "message": "flow_run.state.message",
    "url": "flow_run | ui_url",
}

#: The notification of overdue data: the event's payload says what (it is emitted before the
#: run's end state, so the run's own state is not its last yet).
OVERDUE_SUBJECT = "emissions-etl: {{ flow_run.name }} found data overdue"
OVERDUE_BODY = (
    "Flow run {{ flow_run.name }} of {{ deployment.name }} found data overdue: "
    "{{ event.payload.message }}\n{{ flow_run | ui_url }}"
)
OVERDUE_FIELDS = {
    "flow_run": "flow_run.name",
    "deployment": "deployment.name",
    "event": "event.event",
    "overdue": "event.payload.overdue",
    "message": "event.payload.message",
    "url": "flow_run | ui_url",
}


def _json_body(fields: dict[str, str]) -> str:
    return (
        "{"
        + ", ".join(f'"{key}": {{{{ ({value}) | tojson }}}}' for key, value in fields.items())
        + "}"
    )


WEBHOOK_PAYLOAD = _json_body(WEBHOOK_FIELDS)
OVERDUE_PAYLOAD = _json_body(OVERDUE_FIELDS)


@dataclass(frozen=True)
class NotifyBlock:
    """The block an automation sends through."""

    slug: str
    name: str
    id: UUID

    @property
    def is_webhook(self) -> bool:
        return self.slug in WEBHOOK_BLOCK_TYPES

    def __str__(self) -> str:
        return f"{self.slug}/{self.name}"


def find_block(client: SyncPrefectClient, named: str) -> NotifyBlock:
    """The block named ``<type slug>/<name>`` or ``<name>``; ConfigurationError saying how to
    make one when there is none (or which to choose when the name is ambiguous)."""
    from prefect.exceptions import ObjectNotFound

    slug, _, name = named.rpartition("/")
    if slug:
        try:
            document = client.read_block_document_by_name(name, block_type_slug=slug)
        except ObjectNotFound:
            raise _no_block(named) from None
        return NotifyBlock(slug, name, document.id)
    documents = client.read_block_documents(include_secrets=False)
    found = [d for d in documents if d.name == name and d.block_type is not None]
    if not found:
        raise _no_block(named)
    if len(found) > 1:
        choices = ", ".join(sorted(f"{d.block_type.slug}/{name}" for d in found if d.block_type))
        raise ConfigurationError(f"several blocks are named {name}: give one of {choices}")
    block_type = found[0].block_type
    assert block_type is not None  # filtered above
    return NotifyBlock(block_type.slug, name, found[0].id)


def _no_block(named: str) -> ConfigurationError:
    return ConfigurationError(
        f"no block {named} on the Prefect server: create a notification block (Blocks > "
        "Custom Webhook, Slack Webhook, ...) or a Webhook block, then name it as "
        "<type>/<name>, e.g. custom-webhook/ops-alerts"
    )


def ensure_alerts(
    client: SyncPrefectClient,
    block: NotifyBlock,
    deployment_ids: Sequence[UUID],
    *,
    partial: bool | None,
    overdue: bool | None = None,
) -> dict[str, str]:
    """The automation for failed runs of ``deployment_ids`` and, with ``partial``, the one for
    partial runs, with ``overdue`` the one for runs that find data overdue (False removes it;
    None leaves it as it is); name -> outcome."""
    done = {FAILED_AUTOMATION: _ensure(client, _failed(block, deployment_ids))}
    for wanted, name, make in ((partial, PARTIAL_AUTOMATION, _partial),
                               (overdue, OVERDUE_AUTOMATION, _overdue)):  # fmt: skip
        if wanted:
            done[name] = _ensure(client, make(block, deployment_ids))
        elif wanted is False:
            for automation in client.read_automations_by_name(name):
                client.delete_automation(automation.id)
                done[name] = "removed"
    return done


def _failed(block: NotifyBlock, deployment_ids: Sequence[UUID]) -> AutomationCore:
    return _automation(
        FAILED_AUTOMATION,
        f"Tell {block} when a run of the emissions-etl deployments fails.",
        set(FAILED_EVENTS),
        {"prefect.resource.id": "prefect.flow-run.*"},
        _deployments(deployment_ids),
        block,
    )


def _partial(block: NotifyBlock, deployment_ids: Sequence[UUID]) -> AutomationCore:
    # The message, not the tag: a state event carries the tags the server cached for the run
    # when it started (``PREFECT_API_EVENTS_RELATED_RESOURCE_CACHE_TTL``), not the one added at
    # its end.
    return _automation(
        PARTIAL_AUTOMATION,
        f"Tell {block} when a run of the emissions-etl deployments completes with rejected or "
        "failed rows (its message begins 'partial: ', its tag is partial).",
        {COMPLETED_EVENT},
        {
            "prefect.resource.id": "prefect.flow-run.*",
            "prefect.state-message": f"{PARTIAL_PREFIX}*",
        },
        _deployments(deployment_ids),
        block,
    )


def _overdue(block: NotifyBlock, deployment_ids: Sequence[UUID]) -> AutomationCore:
    # A run that finds overdue gaps emits the event (run_states); its tag would reach the
    # server too late for a state event, as partial's does.
    return _automation(
        OVERDUE_AUTOMATION,
        f"Tell {block} when a run of the emissions-etl deployments finds data overdue (a gap "
        "of the inventory's coverage past its due date; its tag is overdue).",
        {OVERDUE_EVENT},
        {"prefect.resource.id": "emissions-etl.coverage.*"},
        _deployments(deployment_ids),
        block,
        overdue=True,
    )


def _deployments(deployment_ids: Sequence[UUID]) -> Labels:
    return {
        "prefect.resource.id": [f"prefect.deployment.{i}" for i in deployment_ids],
        "prefect.resource.role": "deployment",
    }


def _automation(
    name: str,
    description: str,
    events: set[str],
    match: Labels,
    related: Labels,
    block: NotifyBlock,
    *,
    overdue: bool = False,
) -> AutomationCore:
    from prefect.automations import AutomationCore, EventTrigger, Posture
    from prefect.events.actions import CallWebhook, SendNotification

    payload, subject, body = (
        (OVERDUE_PAYLOAD, OVERDUE_SUBJECT, OVERDUE_BODY) if overdue
        else (WEBHOOK_PAYLOAD, SUBJECT, BODY)
    )  # fmt: skip
    action: CallWebhook | SendNotification = (
        CallWebhook(block_document_id=block.id, payload=payload)
        if block.is_webhook
        else SendNotification(block_document_id=block.id, subject=subject, body=body)
    )
    trigger = EventTrigger(
        expect=events,
        match=match,
        match_related=related,
        posture=Posture.Reactive,
        threshold=1,
        within=timedelta(0),
    )
    return AutomationCore(
        name=name, description=description, enabled=True, trigger=trigger, actions=[action]
    )


def _ensure(client: SyncPrefectClient, automation: AutomationCore) -> str:
    """Create the automation, or update the one of its name to it."""
    existing = client.read_automations_by_name(automation.name)
    if not existing:
        client.create_automation(automation)
        return "created"
    first, *extra = existing
    client.update_automation(first.id, automation)
    for duplicate in extra:
        client.delete_automation(duplicate.id)
    return "updated"
