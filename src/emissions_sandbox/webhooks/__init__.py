"""Webhook endpoints of the v2 interface and the signed delivery of their events.

The app factory mounts `routes.router`, runs the worker through `start_delivery_worker` /
`stop_delivery_worker`, and reports finished ingest jobs through `enqueue_event`.
"""

from __future__ import annotations

from emissions_sandbox.webhooks.delivery import (
    enqueue_event,
    start_delivery_worker,
    stop_delivery_worker,
)
from emissions_sandbox.webhooks.store import SCHEMA_SQL

__all__ = ["SCHEMA_SQL", "enqueue_event", "start_delivery_worker", "stop_delivery_worker"]
