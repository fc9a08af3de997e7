"""Register, or reuse, the webhook endpoint that sends ``ingest_job.finished`` to our URL.

Reuse means an endpoint with the same URL whose signing secret we know: from the secret file
(written when we created it) or from ``EMISSIONS_WEBHOOK_SECRET`` (an endpoint registered by
hand). A disabled one is re-enabled (the service disables an endpoint after 5 failed
deliveries in a row, interface: Events rule 4). Any other endpoint with the same URL is deleted:
its deliveries would reach our receiver signed with a secret we cannot check. When no secret is
known, the endpoint is created afresh and its secret, returned only then, is stored at once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import SecretStr

from emissions_etl.errors import ConfigurationError, PermissionDeniedError, ValidationFailedError
from emissions_etl.json_values import JsonObject
from emissions_etl.webhooks.secret_store import SecretStore
from emissions_etl.webhooks.verification import INGEST_JOB_FINISHED

logger = logging.getLogger("emissions_etl.webhooks")

DESCRIPTION = "emissions-etl: ingest jobs finished"


class WebhookEndpointsApi(Protocol):
    """The endpoint operations of ``EmissionsClient`` that registration uses."""

    def iter_webhook_endpoints(self) -> Iterator[JsonObject]: ...

    def create_webhook_endpoint(
        self,
        url: str,
        event_types: Sequence[str],
        description: str | None = None,
        enabled: bool = True,
    ) -> JsonObject: ...

    def update_webhook_endpoint(self, endpoint_id: str, **fields: object) -> JsonObject: ...

    def delete_webhook_endpoint(self, endpoint_id: str) -> None: ...


@dataclass(frozen=True)
class RegisteredEndpoint:
    """The endpoint events come from, and the secret they are signed with (never shown)."""

    id: str
    secret: SecretStr
    created: bool = False
    reenabled: bool = False


def ensure_endpoint(
    client: WebhookEndpointsApi,
    url: str,
    store: SecretStore,
    *,
    supplied_secret: SecretStr | None = None,
) -> RegisteredEndpoint:
    """The enabled endpoint for ``url`` subscribed to ``ingest_job.finished``, with its secret.

    Raises ConfigurationError when the service refuses: a key that is not an organization
    admin's (403) or a URL it does not accept (422: not https, not public, credentials).
    """
    try:
        return _ensure(client, url, store, supplied_secret)
    except (PermissionDeniedError, ValidationFailedError) as exc:
        # The URL stays out of the message: people put tokens in webhook paths.
        raise ConfigurationError(
            f"cannot register EMISSIONS_WEBHOOK_URL with the service: {exc}"
        ) from exc


def _ensure(
    client: WebhookEndpointsApi,
    url: str,
    store: SecretStore,
    supplied_secret: SecretStr | None,
) -> RegisteredEndpoint:
    same_url = sorted(
        (endpoint for endpoint in client.iter_webhook_endpoints() if endpoint.get("url") == url),
        key=lambda e: (bool(e.get("enabled")), str(e.get("created_at") or "")),
        reverse=True,  # enabled first, then the newest
    )
    chosen, secret = _first_with_secret(same_url, store, supplied_secret)
    for endpoint in same_url:
        if endpoint is not chosen:
            _delete(client, store, str(endpoint["id"]))
    if chosen is None or secret is None:
        if supplied_secret is not None:
            logger.warning(
                "EMISSIONS_WEBHOOK_SECRET belongs to no endpoint with EMISSIONS_WEBHOOK_URL: "
                "a new endpoint is created and its own secret kept in %s",
                store.path,
            )
        return _create(client, url, store)
    return _reuse(client, chosen, secret)


def _first_with_secret(
    endpoints: list[JsonObject], store: SecretStore, supplied: SecretStr | None
) -> tuple[JsonObject | None, SecretStr | None]:
    # A stored secret is certain (we saw it at creation); the supplied one is the user's word.
    for endpoint in endpoints:
        secret = store.get(str(endpoint["id"]))
        if secret is not None:
            return endpoint, secret
    if supplied is not None and endpoints:
        return endpoints[0], supplied
    return None, None


def _reuse(
    client: WebhookEndpointsApi, endpoint: JsonObject, secret: SecretStr
) -> RegisteredEndpoint:
    endpoint_id = str(endpoint["id"])
    changes: dict[str, bool | list[str]] = {}
    if not endpoint.get("enabled"):
        changes["enabled"] = True
    given = endpoint.get("event_types")
    event_types = [str(name) for name in given] if isinstance(given, list) else []
    if INGEST_JOB_FINISHED not in event_types:
        changes["event_types"] = [*event_types, INGEST_JOB_FINISHED]
    if changes:
        client.update_webhook_endpoint(endpoint_id, **changes)
        logger.info("webhook endpoint %s updated: %s", endpoint_id, ", ".join(sorted(changes)))
    return RegisteredEndpoint(endpoint_id, secret, reenabled="enabled" in changes)


def _create(client: WebhookEndpointsApi, url: str, store: SecretStore) -> RegisteredEndpoint:
    created = client.create_webhook_endpoint(url, [INGEST_JOB_FINISHED], description=DESCRIPTION)
    endpoint_id = str(created["id"])
    secret = SecretStr(str(created["secret"]))
    try:
        store.put(endpoint_id, url, secret)
    except ConfigurationError:
        client.delete_webhook_endpoint(endpoint_id)  # its secret would be lost with this run
        raise
    logger.info("webhook endpoint %s created; its secret is kept in %s", endpoint_id, store.path)
    return RegisteredEndpoint(endpoint_id, secret, created=True)


def _delete(client: WebhookEndpointsApi, store: SecretStore, endpoint_id: str) -> None:
    client.delete_webhook_endpoint(endpoint_id)
    store.forget(endpoint_id)
    logger.info("webhook endpoint %s deleted: same URL as the one kept", endpoint_id)
