"""A served sandbox for tests: provision a database through the CLI, run `emissions-sandbox serve`
as a real process on loopback (HTTPS with its own CA), and make clients for it."""

from __future__ import annotations

import json
import os
import select
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

SANDBOX_BIN = Path(sys.executable).parent / "emissions-sandbox"
STARTUP_TIMEOUT = 30.0


@dataclass(frozen=True)
class UserCredentials:
    user_id: str
    email: str
    password: str = field(repr=False)
    api_key: str = field(repr=False)


@dataclass(frozen=True)
class OrgCredentials:
    """An organization and its admin user."""

    organization_id: str
    user_id: str
    email: str
    password: str = field(repr=False)
    api_key: str = field(repr=False)


@dataclass(frozen=True)
class SandboxServer:
    base_url: str
    ca_file: Path
    db_path: Path
    org: OrgCredentials
    other_org: OrgCredentials
    member: UserCredentials  # a non-admin member of `org`

    def client(self, org: OrgCredentials | None = None, **headers: str) -> httpx.Client:
        """A client verifying the sandbox's CA, authenticated as `org`'s admin (new scheme)."""
        return sandbox_client(self.base_url, self.ca_file, org or self.org, **headers)


def sandbox_client(
    base_url: str, ca_file: Path, org: OrgCredentials | None = None, **headers: str
) -> httpx.Client:
    auth = {"x-api-key": org.api_key, "x-organization-id": org.organization_id} if org else {}
    return httpx.Client(
        base_url=base_url, verify=tls_context(ca_file), headers={**auth, **headers}, timeout=30
    )


def tls_context(ca_file: Path) -> ssl.SSLContext:
    """Trusts only the sandbox's own CA."""
    return ssl.create_default_context(cafile=str(ca_file))


def run_cli(*args: str) -> dict[str, Any]:
    """Run an `emissions-sandbox` provisioning command (``init``, ``create-org``...) and parse its
    one JSON line: through the command's own code, in this process (a process of its own spends
    0.5 s of CPU importing it, and the suite makes hundreds of organizations); the executable
    itself is ``run_cli_process``'s, which ``tests/sandbox/test_cli.py`` holds to its contract."""
    from typer.testing import CliRunner

    from emissions_sandbox.cli import app

    with _IN_PROCESS:  # the runner swaps sys.stdout: one command at a time
        done = CliRunner().invoke(app, list(args), catch_exceptions=False)
    if done.exit_code != 0:
        command = ["emissions-sandbox", *args]
        raise subprocess.CalledProcessError(done.exit_code, command, done.output)
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def run_cli_process(*args: str) -> dict[str, Any]:
    """Run the `emissions-sandbox` executable and parse its one JSON line."""
    done = subprocess.run(
        [str(SANDBOX_BIN), *args], capture_output=True, text=True, check=True, timeout=60
    )
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


_IN_PROCESS = threading.Lock()


def create_org(db_path: Path, name: str = "Org", parent: str | None = None) -> OrgCredentials:
    extra = ["--parent", parent] if parent else []
    return OrgCredentials(**run_cli("create-org", "--db", str(db_path), "--name", name, *extra))


def create_user(db_path: Path, org_id: str, role: str = "member") -> UserCredentials:
    out = run_cli("create-user", "--db", str(db_path), "--org", org_id, "--role", role)
    return UserCredentials(**out)


@dataclass
class ServedProcess:
    base_url: str
    process: subprocess.Popen[str]


@contextmanager
def serve(
    db_path: Path, ca_file: Path, *, calc_delay: float = 0.0, extra: tuple[str, ...] = ()
) -> Iterator[ServedProcess]:
    """Start `emissions-sandbox serve --port 0`, wait for its URL line, stop it at the end."""
    log = (db_path.parent / f"serve-{time.monotonic_ns()}.log").open("w")
    process = subprocess.Popen(
        [
            str(SANDBOX_BIN),
            "serve",
            "--db",
            str(db_path),
            "--port",
            "0",
            "--ca-file",
            str(ca_file),
            "--calc-delay",
            str(calc_delay),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        yield ServedProcess(_read_url(process), process)
    finally:
        stop(process)
        log.close()


def _read_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], STARTUP_TIMEOUT)
    line = process.stdout.readline().strip() if ready else ""
    if not line.startswith(("https://", "http://")):
        stop(process)
        raise RuntimeError(f"sandbox did not start (exit code {process.returncode})")
    return line


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@contextmanager
def provisioned_sandbox(
    workdir: Path, *, calc_delay: float = 0.0, extra: tuple[str, ...] = ()
) -> Iterator[SandboxServer]:
    """A fresh database with two organizations and a member, served until the block ends."""
    db_path = workdir / "sandbox.db"
    run_cli("init", "--db", str(db_path))
    org = create_org(db_path, "Main org")
    other = create_org(db_path, "Other org")
    member = create_user(db_path, org.organization_id, "member")
    ca_file = workdir / "ca.pem"
    with serve(db_path, ca_file, calc_delay=calc_delay, extra=extra) as served:
        yield SandboxServer(served.base_url, ca_file, db_path, org, other, member)
