"""``open_job_completion``: the one call the loader makes to learn how jobs will finish."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from emissions_etl.client import EmissionsClient
from emissions_etl.errors import ApiError
from emissions_etl.webhooks.binding import BoundReceiver, bind_receiver
from emissions_etl.webhooks.completion import JobCompletion, PollingCompletion, WebhookCompletion
from emissions_etl.webhooks.notices import Notices, Notify, logger, shown_url
from emissions_etl.webhooks.registration import RegisteredEndpoint, ensure_endpoint
from emissions_etl.webhooks.secret_store import SecretStore
from emissions_etl.webhooks.settings import WebhookSettings
from emissions_etl.webhooks.verification import EventVerifier


@contextmanager
def open_job_completion(
    client: EmissionsClient,
    settings: WebhookSettings | None = None,
    *,
    notify: Notify | None = None,
) -> Iterator[JobCompletion]:
    """Webhook completion when ``EMISSIONS_WEBHOOK_URL`` is set, else polling.

    With a URL: the receiver binds first (``binding``: a port taken by another load gives a
    free port when the URL follows it, else this load polls), the endpoint is registered or
    reused, then events are taken until the block ends, when the receiver stops and a stand-in
    endpoint is deleted. ConfigurationError when the address cannot be bound or the service
    refuses the registration. What happens is said through ``notify`` (``notices``).
    """
    settings = settings if settings is not None else WebhookSettings()
    notices = Notices(notify)
    bound = bind_receiver(settings, notices) if settings.url else None
    if bound is None:
        yield PollingCompletion(client)
        return
    store = SecretStore(settings.secret_path())
    endpoint: RegisteredEndpoint | None = None
    try:
        endpoint = ensure_endpoint(
            client,
            bound.url,
            store,
            # A secret given by hand belongs to the configured URL's endpoint, not a stand-in.
            supplied_secret=None if bound.stand_in else settings.secret,
        )
        completion = WebhookCompletion(
            client, fallback_after=settings.fallback_after, notify=notices
        )
        bound.receiver.arm(EventVerifier(endpoint.secret), completion.job_finished)
        bound.receiver.start()
        how = "registered" if endpoint.created else "reused"
        how += " (re-enabled)" if endpoint.reenabled else ""
        notices(
            f"webhook: endpoint {endpoint.id} {how} for {shown_url(bound.url)}; ingest jobs "
            f"finish by its events (receiver on {bound.receiver.local_url})"
        )
        yield completion
    finally:
        bound.receiver.stop()
        if bound.stand_in and endpoint is not None:
            _retire(client, store, endpoint, bound, notices)


def _retire(
    client: EmissionsClient,
    store: SecretStore,
    endpoint: RegisteredEndpoint,
    bound: BoundReceiver,
    notices: Notices,
) -> None:
    """Delete a stand-in endpoint: its port is closed with this load. A failure is told, not
    raised (the load's outcome stands); the service disables it after 5 failed deliveries."""
    try:
        client.delete_webhook_endpoint(endpoint.id)
    except ApiError as error:
        logger.warning("webhook endpoint %s could not be deleted: %s", endpoint.id, error)
        return
    store.forget(endpoint.id)
    notices(f"webhook: endpoint {endpoint.id} for {shown_url(bound.url)} deleted with its port")
