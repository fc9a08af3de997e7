"""The webhook package's background thread, in the shape ``extensions`` expects."""

from __future__ import annotations

from emissions_sandbox.webhooks.delivery import start_delivery_worker as start
from emissions_sandbox.webhooks.delivery import stop_delivery_worker as stop

__all__ = ["start", "stop"]
