"""The `emissions-sandbox` command line contract."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.sandbox_fixture import SANDBOX_BIN, serve, stop
from tests.sandbox_fixture import run_cli_process as run_cli

pytestmark = pytest.mark.timeout(60)


def test_init_is_idempotent(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert run_cli("init", "--db", str(db))["status"] == "ready"
    assert run_cli("init", "--db", str(db))["status"] == "ready"


def test_create_org_prints_credentials_of_its_admin(tmp_path: Path) -> None:
    out = run_cli("create-org", "--db", str(tmp_path / "s.db"))
    assert set(out) == {"organization_id", "user_id", "email", "password", "api_key"}
    assert out["api_key"].startswith("sk_live_")


def test_create_facility_prints_the_facility(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    org = run_cli("create-org", "--db", db)["organization_id"]
    facility = run_cli("create-facility", "--db", db, "--org", org, "--name", "Plant")
    assert (facility["name"], facility["country"], facility["type"]) == ("Plant", "ES", "office")


def test_plain_http_is_refused_on_a_non_loopback_host(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(SANDBOX_BIN), "serve", "--db", str(tmp_path / "s.db"), "--host", "0.0.0.0", "--http"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "loopback" in done.stderr


def test_serve_help_shows_every_option_whole_at_80_columns() -> None:
    done = subprocess.run(
        [str(SANDBOX_BIN), "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "80"},
    )

    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout  # nothing cut short
    assert "--allow-private-webhooks" in done.stdout
    words = " ".join(done.stdout.split())  # the help text, whatever the wrapping
    assert "webhook endpoints may use loopback and private addresses" in words
    assert "The real service calls public https URLs only." in words


def test_serve_leaves_no_key_on_disk_while_it_serves_nor_after_sigterm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    db = tmp_path / "s.db"
    run_cli("init", "--db", str(db))

    with serve(db, tmp_path / "ca.pem") as served:
        assert served.base_url.startswith("https://")
        assert list(temp.rglob("*")) == []  # read into the SSL context, then removed
        stop(served.process)  # SIGTERM, as a service manager stops it
        assert served.process.returncode is not None

    assert list(temp.rglob("*")) == []
