"""Signing secrets of the endpoints we created, kept for the next run in a 0600 JSON file.

The service shows an endpoint's secret only in the create response (interface: Webhook
endpoint), so losing it means deleting and recreating the endpoint. The file maps endpoint id to
``{url, secret}``; it is written whole to a temporary file created 0600 and renamed over the old
one, so a crash leaves the previous version and nothing is ever readable by others. Two loads
may share the file (one warehouse, or one EMISSIONS_WEBHOOK_SECRET_FILE): each change is read,
made and written under an exclusive ``flock`` on ``<file>.lock``, so neither loses the other's.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import SecretStr

from emissions_etl.errors import ConfigurationError
from emissions_etl.json_values import JsonObject
from emissions_etl.scrubbing import keep_secret

logger = logging.getLogger("emissions_etl.webhooks")

_FORMAT_VERSION = 1


class SecretStore:
    """Endpoint id → signing secret, in one file. Every secret read or kept here is scrubbed
    from what the program shows or stores from then on (``scrubbing.keep_secret``), as the
    secret given in the settings is."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def get(self, endpoint_id: str) -> SecretStr | None:
        entry = self._read().get(endpoint_id)
        secret = entry.get("secret") if isinstance(entry, dict) else None
        if not (isinstance(secret, str) and secret):
            return None
        keep_secret(secret)
        return SecretStr(secret)

    def put(self, endpoint_id: str, url: str, secret: SecretStr) -> None:
        keep_secret(secret)
        with self._changing():
            endpoints = self._read()
            endpoints[endpoint_id] = {"url": url, "secret": secret.get_secret_value()}
            self._write(endpoints)

    def forget(self, endpoint_id: str) -> None:
        with self._changing():
            endpoints = self._read()
            if endpoints.pop(endpoint_id, None) is not None:
                self._write(endpoints)

    @contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold ``<file>.lock`` exclusively while the file is read, changed and written."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise ConfigurationError(
                f"cannot keep the webhook secret in {self.path}: {exc.strerror or exc}"
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _read(self) -> JsonObject:
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return {}
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            logger.warning("%s was readable by others: permissions reset to 0600", self.path)
            os.chmod(self.path, 0o600)
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            # Unreadable: its secrets are lost; registration recreates the endpoint.
            logger.warning("%s cannot be read (%s): ignored", self.path, type(exc).__name__)
            return {}
        endpoints = document.get("endpoints") if isinstance(document, dict) else None
        return dict(endpoints) if isinstance(endpoints, dict) else {}

    def _write(self, endpoints: JsonObject) -> None:
        document = {"version": _FORMAT_VERSION, "endpoints": endpoints}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.unlink(missing_ok=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                json.dump(document, file, indent=2)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError as exc:
            temporary.unlink(missing_ok=True)
            raise ConfigurationError(
                f"cannot keep the webhook secret in {self.path}: {exc.strerror or exc}"
            ) from exc
