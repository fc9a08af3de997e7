"""``open_job_completion``: the one call the loader makes to learn how jobs will finish."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from emissions_etl.client import EmissionsClient
from emissions_etl.webhooks.completion import JobCompletion, PollingCompletion, WebhookCompletion
from emissions_etl.webhooks.receiver import WebhookReceiver
from emissions_etl.webhooks.registration import ensure_endpoint
from emissions_etl.webhooks.secret_store import SecretStore
from emissions_etl.webhooks.settings import WebhookSettings
from emissions_etl.webhooks.verification import EventVerifier

logger = logging.getLogger("emissions_etl.webhooks")


@contextmanager
def open_job_completion(
    client: EmissionsClient, settings: WebhookSettings | None = None
) -> Iterator[JobCompletion]:
    """Webhook completion when ``EMISSIONS_WEBHOOK_URL`` is set, else polling.

    With a URL: the receiver binds first (a taken port fails before the service is touched),
    the endpoint is registered or reused, then events are taken until the block ends, when the
    receiver stops. ConfigurationError when the port cannot be bound or the service refuses the
    registration.
    """
    settings = settings if settings is not None else WebhookSettings()
    if not settings.url:
        yield PollingCompletion(client)
        return
    receiver = WebhookReceiver(settings.listen, max_body_bytes=settings.max_body_bytes)
    try:
        endpoint = ensure_endpoint(
            client,
            settings.url,
            SecretStore(settings.secret_path()),
            supplied_secret=settings.secret,
        )
        completion = WebhookCompletion(client, fallback_after=settings.fallback_after)
        receiver.arm(EventVerifier(endpoint.secret), completion.job_finished)
        receiver.start()
        logger.info(
            "ingest jobs finish by webhook: endpoint %s, receiver on %s",
            endpoint.id,
            receiver.local_url,
        )
        yield completion
    finally:
        receiver.stop()
