"""Signing secrets and Standard Webhooks signature headers (scheme v1, HMAC-SHA256).

Follows the Standard Webhooks specification: the signed content is `id.timestamp.body`
and the key is the base64-decoded part of the `whsec_` secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"
_SECRET_BYTES = 32  # the specification asks for 24 to 64 random bytes


def new_signing_secret() -> str:
    """A fresh random secret, `whsec_` + base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(_SECRET_BYTES)).decode("ascii")


def signature_headers(secret: str, event_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers for one attempt."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed_content = f"{event_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed_content, hashlib.sha256).digest()
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": "v1," + base64.b64encode(digest).decode("ascii"),
    }
