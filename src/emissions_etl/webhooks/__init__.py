"""Finish ingest jobs by the service's signed webhook instead of polling them.

The loader calls ``open_job_completion(client, settings, notify=...)`` and, inside the block,
``completion.wait(job_id)`` for each ingest job; it gets the finished job either way.

Settings (environment, ``emissions-etl load --webhook-*`` options, or ``WebhookSettings(...)``)
    ``EMISSIONS_WEBHOOK_URL``           the public URL the service calls; unset = poll as before;
                                        ``{port}`` in it is replaced by the receiver's port
    ``EMISSIONS_WEBHOOK_LISTEN``        host:port the receiver binds, default ``127.0.0.1:8787``
    ``EMISSIONS_WEBHOOK_SECRET``        the ``whsec_`` secret of an endpoint you registered yourself
    ``EMISSIONS_WEBHOOK_SECRET_FILE``   where secrets of endpoints we create are kept (0600);
                                        default ``<EMISSIONS_WAREHOUSE>.webhook-secret.json``
    ``EMISSIONS_WEBHOOK_FALLBACK_AFTER`` seconds to wait for the event before polling, default 30
    ``EMISSIONS_WEBHOOK_MAX_BODY_BYTES`` larger deliveries get 413 unread, default 65536

Registration
    The load reuses an endpoint with the same URL whose secret it knows (secret file first, then
    ``EMISSIONS_WEBHOOK_SECRET``), re-enabling it if the service disabled it, and otherwise
    creates one for ``ingest_job.finished``. The secret, shown by the service only at creation,
    goes straight to the secret file; when it is lost the endpoint is deleted and recreated.
    Managing endpoints needs an organization admin's API key. Secrets are ``SecretStr`` and are
    never logged.

Exposing the receiver
    It speaks plain HTTP and listens on loopback by default. Put it behind a reverse proxy that
    terminates TLS (the service calls https URLs on public hosts only) and forwards POSTs to
    ``EMISSIONS_WEBHOOK_LISTEN``, e.g. nginx ``location /emissions-webhook { proxy_pass
    http://127.0.0.1:8787; client_max_body_size 64k; }``. Any path is accepted; only POST is.
    The proxy must pass the body and the ``webhook-*`` headers untouched.

Several loads on one machine (``binding``)
    The first load binds the port. A second one finds it taken: when the URL follows the port
    (``{port}`` in it, for a proxy rule such as nginx ``location ~ ^/emissions/([0-9]+)$ {
    proxy_pass http://127.0.0.1:$1; }``, or its own port is the listen port, the service
    calling the receiver directly), it binds a free port on the same host and registers a
    stand-in endpoint for the URL with that port, deleted when it ends. When the URL reaches one
    fixed port (a proxy or tunnel forwarding to 8787 only), the second load polls its ingest
    jobs and says so. Either way both loads finish.

What a load says (``notices``)
    One line when the endpoint is registered or reused (with the receiver's address), one when
    the port is taken, one per ingest job finished by its event or polled after the wait: at
    INFO on the ``emissions_etl.webhooks`` logger and to ``notify``. ``emissions-etl load``
    prints them on stderr; the flows log them through the run logger.

What is verified, in this order, before anything is acted upon
    1. the declared body size (``Content-Length`` required; over the limit → 413, unread);
    2. the Standard Webhooks signature (HMAC-SHA256 of ``webhook-id.webhook-timestamp.body`` on
       the raw bytes, with the ``standardwebhooks`` library) and the timestamp within ±5 minutes
       → otherwise 401, nothing recorded;
    3. the ``webhook-id`` not seen before (the service delivers at least once) → a duplicate
       gets 204 and is ignored;
    4. the event type: ``ingest_job.finished`` finishes the job in its ``data``; ``webhook.test``
       and unknown types are acknowledged only.
    A job whose event never comes (endpoint disabled, proxy down) is polled after
    ``EMISSIONS_WEBHOOK_FALLBACK_AFTER`` seconds, so a load never depends on the webhook.

Floor: with ``profiles``, ``inventory`` and ``connection``, below the load engine. May import
resources, organizations, settings, client, warehouse, domain, sources and errors; never the
packages beside it, nor the load engine or anything above.
"""

from __future__ import annotations

from emissions_etl.webhooks.completion import JobCompletion, PollingCompletion, WebhookCompletion
from emissions_etl.webhooks.context import open_job_completion
from emissions_etl.webhooks.receiver import WebhookReceiver
from emissions_etl.webhooks.registration import RegisteredEndpoint, ensure_endpoint
from emissions_etl.webhooks.secret_store import SecretStore
from emissions_etl.webhooks.settings import WebhookSettings
from emissions_etl.webhooks.verification import EventVerifier, VerifiedEvent

__all__ = [
    "EventVerifier",
    "JobCompletion",
    "PollingCompletion",
    "RegisteredEndpoint",
    "SecretStore",
    "VerifiedEvent",
    "WebhookCompletion",
    "WebhookReceiver",
    "WebhookSettings",
    "ensure_endpoint",
    "open_job_completion",
]
