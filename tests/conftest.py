"""Shared fixtures: a served sandbox (real HTTPS on loopback) for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sandbox_fixture import SandboxServer, provisioned_sandbox

SERVE_FLAGS = ("--allow-private-webhooks", "--test-routes")


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """The session's sandbox: org (admin), other_org, and a member of org; calc_delay 0."""
    with provisioned_sandbox(tmp_path_factory.mktemp("sandbox"), extra=SERVE_FLAGS) as server:
        yield server


@pytest.fixture(scope="session")
def slow_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """A sandbox that sleeps 0.5 s per chunk, so `processing` can be observed."""
    with provisioned_sandbox(
        tmp_path_factory.mktemp("slow-sandbox"), calc_delay=0.5, extra=SERVE_FLAGS
    ) as server:
        yield server
