"""The automations prefect-setup makes for alerting: on which runs, through which block."""

from __future__ import annotations

import uuid

import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.alerts import (
    FAILED_AUTOMATION,
    OVERDUE_AUTOMATION,
    OVERDUE_PAYLOAD,
    PARTIAL_AUTOMATION,
    WEBHOOK_PAYLOAD,
    ensure_alerts,
    find_block,
)
from emissions_etl.orchestration.run_states import OVERDUE_EVENT

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]


def test_a_block_that_does_not_exist_is_one_error_saying_how_to_make_one(
    prefect_server: None,
) -> None:
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client, pytest.raises(ConfigurationError) as raised:
        find_block(client, "custom-webhook/nobody")

    assert "no block custom-webhook/nobody on the Prefect server" in str(raised.value)
    assert "<type>/<name>" in str(raised.value)


def test_a_webhook_block_is_called_with_a_json_body_and_partial_runs_are_matched_by_message(
    prefect_server: None,
) -> None:
    from prefect.blocks.webhook import Webhook
    from prefect.client.orchestration import get_client
    from prefect.events.actions import CallWebhook

    Webhook(url="http://127.0.0.1:9/alerts").save("ops-alerts", overwrite=True)
    deployment = uuid.uuid4()
    with get_client(sync_client=True) as client:
        block = find_block(client, "ops-alerts")  # by its name alone: only one has it
        made = ensure_alerts(client, block, [deployment], partial=True)
        again = ensure_alerts(client, block, [deployment], partial=False)
        [failed] = client.read_automations_by_name(FAILED_AUTOMATION)
        partial_left = client.read_automations_by_name(PARTIAL_AUTOMATION)

    assert str(block) == "webhook/ops-alerts"
    assert made == {FAILED_AUTOMATION: "created", PARTIAL_AUTOMATION: "created"}
    assert again == {FAILED_AUTOMATION: "updated", PARTIAL_AUTOMATION: "removed"}
    assert partial_left == []
    [action] = failed.actions
    assert isinstance(action, CallWebhook)
    assert action.payload == WEBHOOK_PAYLOAD
    assert failed.trigger.expect == {  # type: ignore[union-attr]
        "prefect.flow-run.Failed", "prefect.flow-run.Crashed", "prefect.flow-run.TimedOut"
    }


def test_runs_that_find_data_overdue_are_matched_by_their_event_and_can_be_removed(
    prefect_server: None,
) -> None:
    from prefect.blocks.notifications import CustomWebhookNotificationBlock
    from prefect.blocks.webhook import Webhook
    from prefect.client.orchestration import get_client
    from prefect.events.actions import CallWebhook, SendNotification

    Webhook(url="http://127.0.0.1:9/overdue").save("overdue-hook", overwrite=True)
    CustomWebhookNotificationBlock(name="n", url="http://127.0.0.1:9/n").save(
        "overdue-notes", overwrite=True
    )
    deployment = uuid.uuid4()
    with get_client(sync_client=True) as client:
        hook = find_block(client, "webhook/overdue-hook")
        notes = find_block(client, "custom-webhook/overdue-notes")
        made = ensure_alerts(client, hook, [deployment], partial=None, overdue=True)
        [by_hook] = client.read_automations_by_name(OVERDUE_AUTOMATION)
        ensure_alerts(client, notes, [deployment], partial=None, overdue=True)
        [by_notes] = client.read_automations_by_name(OVERDUE_AUTOMATION)
        removed = ensure_alerts(client, notes, [deployment], partial=None, overdue=False)
        left = client.read_automations_by_name(OVERDUE_AUTOMATION)

    assert made[OVERDUE_AUTOMATION] == "created"
    assert by_hook.trigger.expect == {OVERDUE_EVENT}  # type: ignore[union-attr]
    assert f"prefect.deployment.{deployment}" in str(by_hook.trigger.match_related)  # type: ignore[union-attr]
    assert by_hook.trigger.match.root == {  # type: ignore[union-attr]
        "prefect.resource.id": "emissions-etl.coverage.*"
    }
    [action] = by_hook.actions
    assert isinstance(action, CallWebhook)
    assert action.payload == OVERDUE_PAYLOAD
    assert "event.payload.message" in OVERDUE_PAYLOAD
    [note] = by_notes.actions
    assert isinstance(note, SendNotification)
    assert "found data overdue" in note.subject
    assert removed[OVERDUE_AUTOMATION] == "removed"
    assert left == []
