"""Fixtures shared by the waste (v1, v2) and ingest-job tests: a client of the session's sandbox, a
facility and the paper/R3 waste factor, made once per module."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.sandbox_fixture import SandboxServer, provisioned_sandbox

from .waste_requests import new_facility, waste_ef_id

STRICT_BODY_LIMIT = 65_536


@pytest.fixture(scope="session")
def strict_sandbox_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """A sandbox served as in production (no --allow-private-webhooks, no test routes) with a
    64 KiB body limit (`--max-body-bytes`), so body-limit tests send small bodies. Shared by
    the body-limit and webhook URL policy tests."""
    extra = ("--max-body-bytes", str(STRICT_BODY_LIMIT))
    with provisioned_sandbox(tmp_path_factory.mktemp("strict-sandbox"), extra=extra) as server:
        yield server


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """The organization admin's client (new scheme)."""
    with sandbox.client() as c:
        yield c


@pytest.fixture(scope="module")
def facility(client: httpx.Client) -> str:
    return new_facility(client)


@pytest.fixture(scope="module")
def paper_r3(client: httpx.Client) -> str:
    """LER 20 01 01 (paper and cardboard) recycled (R3)."""
    return waste_ef_id(client, "200101", "R3")
