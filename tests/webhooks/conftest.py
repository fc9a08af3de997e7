"""Fixtures of the webhook tests: a fresh organization on the served sandbox whose client records
every request it sends, and a receiver on a loopback port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from emissions_etl.webhooks import WebhookReceiver
from tests.sandbox_fixture import SandboxServer
from tests.webhooks.support import Tenant, new_tenant

WEBHOOK_ENV = (
    "EMISSIONS_WEBHOOK_URL",
    "EMISSIONS_WEBHOOK_LISTEN",
    "EMISSIONS_WEBHOOK_SECRET",
    "EMISSIONS_WEBHOOK_SECRET_FILE",
    "EMISSIONS_WEBHOOK_FALLBACK_AFTER",
    "EMISSIONS_WEBHOOK_MAX_BODY_BYTES",
    "EMISSIONS_WAREHOUSE",
)


@pytest.fixture(autouse=True)
def _no_webhook_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings come from the test alone, never from the shell that runs it."""
    for name in WEBHOOK_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def tenant(sandbox: SandboxServer, request: pytest.FixtureRequest) -> Iterator[Tenant]:
    """A fresh organization (admin key) with a facility; its endpoints are deleted at the end."""
    with new_tenant(sandbox, request.node.name) as tenant:
        yield tenant


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver("127.0.0.1:0") as receiver:
        yield receiver
