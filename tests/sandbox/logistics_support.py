"""Shared steps of the logistics tests: a fresh organization (counts start at zero) and a leg."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.sandbox_fixture import SandboxServer, create_org


def fresh_client(sandbox: SandboxServer, name: str = "Logistics") -> httpx.Client:
    """A client of a new organization with its own API key (own limit buckets, own counts)."""
    return sandbox.client(create_org(sandbox.db_path, name))


def leg(**fields: Any) -> dict[str, Any]:
    """A van leg of 100 km unless overridden."""
    return {"toc": "van_diesel", "distance_km": 100, "load": 500, **fields}


def wait_for_co2e(client: httpx.Client, movement_id: str, timeout: float = 10) -> dict[str, Any]:
    """Poll the v1 list filtered by movement_id (facts §4.2) until the worker has run."""
    deadline = time.monotonic() + timeout
    while True:
        items = client.get("/v1/logistics/requests", params={"movement_id": movement_id}).json()
        if items["items"] and items["items"][0]["status"] != "pending":
            return dict(items["items"][0])
        assert time.monotonic() < deadline, "the v2 leg was never calculated"
        time.sleep(0.1)
