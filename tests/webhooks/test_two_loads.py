"""Two webhook loads at once on one machine, as people run them: the second finds the receiver's
port taken, takes a free one (the URL follows the port on loopback) with an endpoint of its own,
deleted at its end; both finish every ingest job by its event and say so."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_process import start_etl
from tests.corpus.make_corpus import HEADER, csv_text, row
from tests.sandbox_fixture import SandboxServer
from tests.webhooks.support import Tenant, free_port, new_tenant

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
ROWS = 10_000  # two ingest jobs of 5,000 each per load: they overlap the other load's
#: One line per ingest job: finished by its event, or polled after the wait (the fallback).
JOB_LINE = re.compile(
    r"^webhook: (?:ingest job \S+ finished by its event|no event for ingest job \S+ within)", re.M
)


@pytest.fixture
def slow_tenant(slow_sandbox: SandboxServer, request: pytest.FixtureRequest) -> Iterator[Tenant]:
    """An organization on the sandbox that sleeps 0.5 s per chunk: the loads overlap."""
    with new_tenant(slow_sandbox, request.node.name) as tenant:
        yield tenant


def wastes_csv(path: Path, prefix: str) -> Path:
    rows = [row(n, facility="Plant", client_row_id=f"{prefix}-{n}") for n in range(1, ROWS + 1)]
    path.write_text(csv_text([HEADER, *rows]))
    return path


def test_two_webhook_loads_at_once_both_finish_their_jobs_by_their_events(
    slow_tenant: Tenant, slow_sandbox: SandboxServer, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")},
        "EMISSIONS_API_URL": slow_sandbox.base_url,
        "EMISSIONS_API_KEY": slow_tenant.org.api_key,
        "EMISSIONS_ORGANIZATION_ID": slow_tenant.org.organization_id,
        "EMISSIONS_CA_FILE": str(slow_sandbox.ca_file),
        "EMISSIONS_LIMITS_FILE": str(tmp_path / "limits.sqlite3"),
        # The service calls the receiver directly on loopback (serve --allow-private-webhooks).
        "EMISSIONS_WEBHOOK_URL": f"http://127.0.0.1:{port}/hook",
        "EMISSIONS_WEBHOOK_LISTEN": f"127.0.0.1:{port}",
        "COLUMNS": "200",
    }
    loads = {
        name: start_etl(
            ["load", str(wastes_csv(tmp_path / f"{name}.csv", name)), "--resource", "wastes",
             "--warehouse", str(tmp_path / f"{name}.duckdb")],
            env=env,
        )  # fmt: skip
        for name in ("a", "b")
    }
    outputs = {name: process.communicate(timeout=200) for name, process in loads.items()}

    for name, (stdout, stderr) in outputs.items():
        assert loads[name].returncode == 0, stdout + stderr
        assert "Traceback" not in stdout + stderr
        assert slow_tenant.org.api_key not in stdout + stderr
        assert re.search(rf"│ {name}\.csv\s+│ wastes\s+│ succeeded\s+│ 10,000 ", stdout), stdout
    stderrs = [stderr for _, stderr in outputs.values()]
    [second] = [text for text in stderrs if f"webhook: port {port} is taken" in text]
    [first] = [text for text in stderrs if text is not second]
    assert len(re.findall(rf"endpoint \S+ registered for http://127\.0\.0\.1:{port}/…", first)) == 1
    stand_in = re.search(r"this load listens on http://127\.0\.0\.1:(\d+) ", second)
    assert stand_in is not None, second
    other_port = stand_in.group(1)
    assert f"registered for http://127.0.0.1:{other_port}/…" in second
    assert f"for http://127.0.0.1:{other_port}/… deleted with its port" in second
    for text in (first, second):
        jobs = JOB_LINE.findall(text)
        assert len(jobs) == ROWS // 5_000, text
        # Loopback delivers at once: every job by its event, none waiting for the fallback.
        assert text.count("finished by its event: completed, 5,000 of 5,000") == len(jobs), text
    # The configured port's endpoint stays for the next load; the stand-in is gone.
    endpoints = list(slow_tenant.client.iter_webhook_endpoints())
    assert [endpoint["url"] for endpoint in endpoints] == [f"http://127.0.0.1:{port}/hook"]
