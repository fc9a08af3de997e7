"""Webhook settings, read once at the edge like ``emissions_etl.settings.Settings``.

Environment variables are the contract: ``EMISSIONS_WEBHOOK_URL`` (switches webhooks on),
``EMISSIONS_WEBHOOK_LISTEN``, ``EMISSIONS_WEBHOOK_SECRET``, ``EMISSIONS_WEBHOOK_SECRET_FILE``,
``EMISSIONS_WEBHOOK_FALLBACK_AFTER``, ``EMISSIONS_WEBHOOK_MAX_BODY_BYTES``; the default secret
file sits beside ``EMISSIONS_WAREHOUSE``.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from emissions_etl.scrubbing import keep_secret
from emissions_etl.settings import DEFAULT_WAREHOUSE
from emissions_etl.warehouse._target import WarehouseTarget

DEFAULT_LISTEN = "127.0.0.1:8787"
SECRET_FILE_SUFFIX = ".webhook-secret.json"


class WebhookSettings(BaseSettings):
    """Where the service calls us, where we listen, and where the signing secret is kept."""

    model_config = SettingsConfigDict(
        env_prefix="EMISSIONS_WEBHOOK_", extra="ignore", populate_by_name=True
    )

    url: str | None = Field(
        default=None, description="Public URL the service calls; unset means poll ingest jobs"
    )
    listen: str = Field(
        default=DEFAULT_LISTEN, description="host:port the receiver binds (behind the proxy)"
    )
    secret: SecretStr | None = Field(
        default=None, description="Signing secret of an endpoint registered outside this tool"
    )
    secret_file: Path | None = Field(
        default=None, description="Where created endpoints' secrets are kept (0600)"
    )
    fallback_after: float = Field(
        default=30.0, ge=0, description="Seconds to wait for the event before polling the job"
    )
    max_body_bytes: int = Field(default=64 * 1024, gt=0, description="Larger bodies get 413")
    # The warehouse setting of the pipeline (no prefix): the secret file lives beside it (for
    # a lake with a PostgreSQL catalog, in the user's cache folder).
    warehouse: str | Path = Field(default=DEFAULT_WAREHOUSE, validation_alias="EMISSIONS_WAREHOUSE")

    def model_post_init(self, context: object, /) -> None:
        keep_secret(self.secret)  # scrubbed from every text shown or stored from now on

    def secret_path(self) -> Path:
        """``EMISSIONS_WEBHOOK_SECRET_FILE``, else ``<warehouse>.webhook-secret.json``."""
        if self.secret_file is not None:
            return self.secret_file
        beside = WarehouseTarget.of(self.warehouse).local_path
        return beside.with_name(beside.name + SECRET_FILE_SUFFIX)
