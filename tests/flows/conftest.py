"""Prefect servers for the flow tests: starting one costs 15-20 s on this machine.

``prefect_server``: the test harness, one for the whole session. ``real_prefect_server``:
``prefect server start`` as a subprocess (with its UI), for the tests that need its scheduler,
automations and workers: one for the session, which the modules that use it share.
``WebhookReceiver``: a local HTTP server that keeps what is posted to it, standing for a team's
chat or alerting endpoint.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[None]:
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield


@dataclass(frozen=True)
class RealPrefectServer:
    """`prefect server start` on loopback, with its own PREFECT_HOME (SQLite) and log file."""

    api_url: str
    home: Path
    log: Path
    started_in: float  # seconds from launch until /api/health answered

    def subprocess_env(self) -> dict[str, str]:
        """The environment for prefect CLI processes aimed at this server (no EMISSIONS_*
        but a worker's own DuckDB threads, which no Prefect variable holds); its workers ask
        for runs every second (10 s by default: up to 10 s lost per run)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
        if "EMISSIONS_WAREHOUSE_THREADS" in os.environ:
            env["EMISSIONS_WAREHOUSE_THREADS"] = os.environ["EMISSIONS_WAREHOUSE_THREADS"]
        return {
            **env,
            "PREFECT_API_URL": self.api_url,
            "PREFECT_HOME": str(self.home),
            "PREFECT_WORKER_QUERY_SECONDS": "1",
        }

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="session")
def _prefect_server_process(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[RealPrefectServer]:
    """``prefect server start`` (scheduler loop shortened to 2 s), once for the worker's session:
    the real-server modules share an ``xdist_group``, so they share one server (15-30 s of CPU
    to start each time)."""
    with prefect_server_process(tmp_path_factory.mktemp("prefect-server")) as server:
        yield server


@contextlib.contextmanager
def prefect_server_process(workdir: Path) -> Iterator[RealPrefectServer]:
    """``prefect server start`` on a free port of loopback, its home and log in ``workdir``,
    until the block ends (the tests' fixture, and the benchmarks that need a real server)."""
    home, log = workdir / "home", workdir / "server.log"
    port = _free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")},
        "PREFECT_HOME": str(home),
        "PREFECT_API_URL": api_url,
        "PREFECT_SERVER_SERVICES_SCHEDULER_LOOP_SECONDS": "2",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    command = [PREFECT_BIN, "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("w") as out:
        launched = time.monotonic()
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        _wait_for_health(api_url, process, log)
        yield RealPrefectServer(api_url, home, log, time.monotonic() - launched)
    finally:
        stop_process_group(process)


@pytest.fixture(scope="module")
def real_prefect_server(
    _prefect_server_process: RealPrefectServer,
) -> Iterator[RealPrefectServer]:
    """The session's real server, whose scheduler runs, for this module: the process's
    PREFECT_API_URL and PREFECT_HOME point at it while the module runs, in Prefect's settings and
    in the environment that subprocesses inherit."""
    from prefect.settings import PREFECT_API_URL, PREFECT_HOME, temporary_settings

    server = _prefect_server_process
    with (
        pytest.MonkeyPatch.context() as patch,
        temporary_settings(
            updates={PREFECT_API_URL: server.api_url, PREFECT_HOME: str(server.home)}
        ),
    ):
        patch.setenv("PREFECT_API_URL", server.api_url)
        patch.setenv("PREFECT_HOME", str(server.home))
        yield server


PREFECT_BIN = str(Path(sys.executable).with_name("prefect"))
SERVER_START_TIMEOUT = 180.0  # 15-20 s when the machine is idle, 55 s seen when it was not


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_health(api_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"prefect server exited ({process.returncode}):\n{tail}")
        try:
            if httpx.get(f"{api_url}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"prefect server not healthy after {SERVER_START_TIMEOUT:.0f} s")


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process and its children (started with start_new_session), then SIGKILL."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


@dataclass
class WebhookReceiver:
    """What was posted to ``url``: each body, parsed as JSON when it is."""

    url: str
    received: list[Any] = field(default_factory=list)

    def wait_for(self, predicate: Any, timeout: float) -> list[Any]:
        """The bodies received once one satisfies ``predicate`` (or all of them at the end)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(predicate(body) for body in list(self.received)):
                break
            time.sleep(0.5)
        return list(self.received)


@pytest.fixture(scope="module")
def webhook_receiver() -> Iterator[WebhookReceiver]:
    """An HTTP endpoint on loopback that answers 204 to every POST and keeps its body."""
    receiver = WebhookReceiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                receiver.received.append(json.loads(body))
            except ValueError:
                receiver.received.append(body.decode(errors="replace"))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/alerts"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
