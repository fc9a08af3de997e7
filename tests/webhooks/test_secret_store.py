"""The secret file: private, replaced whole, and forgiving of damage."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from pydantic import SecretStr

from emissions_etl.webhooks import SecretStore, WebhookSettings

SECRET = SecretStr("whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0")


def test_the_file_is_created_0600_whatever_the_umask(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets.json")
    previous = os.umask(0)
    try:
        store.put("e1", "https://x/hook", SECRET)
    finally:
        os.umask(previous)

    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.get("e1") == SECRET
    # No temporary left; the (empty) lock file that serialises changes stays.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secrets.json", "secrets.json.lock"]


def test_secrets_are_kept_per_endpoint_and_forgotten(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets.json")
    store.put("e1", "https://x/1", SECRET)
    store.put("e2", "https://x/2", SecretStr("whsec_b3RoZXI="))

    store.forget("e1")

    assert store.get("e1") is None
    assert store.get("e2") == SecretStr("whsec_b3RoZXI=")


def test_a_file_readable_by_others_is_made_private(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SecretStore(tmp_path / "secrets.json")
    store.put("e1", "https://x/1", SECRET)
    store.path.chmod(0o644)

    assert store.get("e1") == SECRET
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert "reset to 0600" in caplog.text


def test_a_damaged_file_counts_as_no_secret(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets.json")
    store.path.write_text("{not json")
    store.path.chmod(0o600)

    assert store.get("e1") is None
    store.put("e1", "https://x/1", SECRET)  # and is replaced by a good one
    assert store.get("e1") == SECRET


def test_the_default_file_sits_beside_the_warehouse(tmp_path: Path) -> None:
    settings = WebhookSettings(warehouse=str(tmp_path / "data" / "warehouse.duckdb"))

    assert settings.secret_path() == tmp_path / "data" / "warehouse.duckdb.webhook-secret.json"
    assert WebhookSettings(secret_file=tmp_path / "s.json").secret_path() == tmp_path / "s.json"


def test_two_processes_changing_the_file_at_once_lose_neither_change(tmp_path: Path) -> None:
    import multiprocessing

    path = tmp_path / "secrets.json"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_put_many, args=(path, name)) for name in ("a", "b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)

    store = SecretStore(path)
    assert all(store.get(f"{name}{n}") == SECRET for name in ("a", "b") for n in range(40))


def _put_many(path: Path, name: str) -> None:
    store = SecretStore(path)
    for n in range(40):
        store.put(f"{name}{n}", "https://x/hook", SECRET)


def test_a_secret_kept_or_read_here_is_scrubbed_from_what_is_shown(tmp_path: Path) -> None:
    from emissions_etl.scrubbing import scrub

    kept, earlier = "whsec_kept0aV7q2mZr8", "whsec_earlier3Jx9pLw4"
    SecretStore(tmp_path / "secrets.json").put("ep_1", "https://x.example/h", SecretStr(kept))
    endpoints = {"ep_2": {"url": "https://x.example/h", "secret": earlier}}
    (tmp_path / "earlier.json").write_text(  # a file an earlier run left
        json.dumps({"version": 1, "endpoints": endpoints})
    )
    os.chmod(tmp_path / "earlier.json", 0o600)

    assert SecretStore(tmp_path / "earlier.json").get("ep_2") == SecretStr(earlier)
    assert scrub(f"signed with {kept}; then {earlier}") == "signed with ***; then ***"
