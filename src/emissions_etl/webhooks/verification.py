"""Standard Webhooks verification of one delivery, on the raw body bytes (etl-anchors §6).

The ``standardwebhooks`` reference library checks the ``webhook-signature`` (HMAC-SHA256 of
``id.timestamp.body`` keyed with the ``whsec_`` secret, constant-time compare) and the
``webhook-timestamp`` (±5 minutes, so a captured delivery cannot be replayed later). Nothing of
the body is trusted, or even parsed, before that succeeds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import SecretStr
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from emissions_etl.errors import ConfigurationError
from emissions_etl.json_values import JsonValue

#: The one subscribable event type (interface: Events); ``webhook.test`` is only acknowledged.
INGEST_JOB_FINISHED = "ingest_job.finished"


class DeliveryRejected(Exception):
    """A delivery that must not be acted upon; ``status`` is the HTTP answer to give."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class VerifiedEvent:
    """An event whose signature and timestamp were checked: ``{type, timestamp, data}``."""

    webhook_id: str
    type: str
    data: JsonValue
    api_version: str | None


class EventVerifier:
    """Verifies deliveries signed with one endpoint's secret."""

    def __init__(self, secret: SecretStr) -> None:
        # Webhook() rejects an empty or undecodable secret here, once, not per delivery.
        try:
            self._webhook = Webhook(secret.get_secret_value())
        except Exception as exc:  # the library raises several types; none may show the secret
            raise ConfigurationError("the webhook signing secret is not a whsec_ secret") from exc

    def verify(self, body: bytes, headers: Mapping[str, str]) -> VerifiedEvent:
        """The event, or DeliveryRejected: 401 for a bad or stale signature, 400 for bad JSON."""
        lowered = {name.lower(): value for name, value in headers.items()}
        try:
            self._webhook.verify(body, lowered, json_parse=False)
        except (WebhookVerificationError, ValueError) as exc:
            # ValueError covers what the library lets escape on malformed input: a signature
            # without a comma, invalid base64, a body that is not UTF-8.
            raise DeliveryRejected(401, f"signature not verified: {_reason(exc)}") from None
        try:
            payload = json.loads(body)
        except ValueError:
            raise DeliveryRejected(400, "body is not JSON") from None
        if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
            raise DeliveryRejected(400, "body is not an event {type, timestamp, data}")
        return VerifiedEvent(
            webhook_id=lowered["webhook-id"],
            type=payload["type"],
            data=payload.get("data"),
            api_version=payload.get("api_version"),
        )


def _reason(exc: Exception) -> str:
    if isinstance(exc, WebhookVerificationError):
        return str(exc)
    return "malformed signature headers or body"
