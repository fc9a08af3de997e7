"""The automations prefect-setup makes for alerting: on which runs, through which block."""

from __future__ import annotations

import uuid

import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.alerts import (
    FAILED_AUTOMATION,
    PARTIAL_AUTOMATION,
    WEBHOOK_PAYLOAD,
    ensure_alerts,
    find_block,
)

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
