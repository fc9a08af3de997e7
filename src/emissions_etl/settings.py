"""Connection and storage settings, read once at the edge (CLI, flows) and passed down.

Environment variables are the public contract: ``EMISSIONS_API_URL``, ``EMISSIONS_API_KEY``,
``EMISSIONS_ORGANIZATION_ID``, ``EMISSIONS_CA_FILE``, ``EMISSIONS_WAREHOUSE`` (and
``EMISSIONS_WAREHOUSE_DATA`` for a DuckLake's data files),
``EMISSIONS_LIMITS_FILE``, ``EMISSIONS_SHARED_LIMITS`` and ``EMISSIONS_CONSOLIDATION`` (the GHG
inventory's consolidation approach); for Prefect deployments also ``EMISSIONS_INBOX`` and
``EMISSIONS_PROJECT_DIR`` (read when a run starts).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from emissions_etl.client import DEFAULT_LIMITS_FILE
from emissions_etl.errors import ConfigurationError
from emissions_etl.scrubbing import keep_secret

if TYPE_CHECKING:
    from emissions_etl.warehouse import Warehouse

DEFAULT_WAREHOUSE = Path("warehouse.duckdb")


class Settings(BaseSettings):
    """Where the service is, who we are to it, and where the warehouse lives."""

    model_config = SettingsConfigDict(env_prefix="EMISSIONS_", extra="ignore")

    def __init__(self, **values: Any) -> None:
        """Read the environment; a value it cannot use is one ConfigurationError naming it."""
        try:
            super().__init__(**values)
        except ValidationError as error:
            raise _invalid_environment(error) from None
        keep_secret(self.api_key)  # scrubbed from every text shown or stored from now on

    api_url: str | None = Field(default=None, description="Base URL of the service")
    api_key: SecretStr | None = Field(default=None, description="API key (x-api-key)")
    organization_id: str | None = Field(default=None, description="x-organization-id")
    ca_file: Path | None = Field(default=None, description="CA bundle to verify the service's TLS")
    warehouse: str = Field(
        default=str(DEFAULT_WAREHOUSE),
        description="DuckDB file, or a DuckLake: ducklake:postgres:<libpq conninfo> (several "
        "writers at once) or ducklake:<catalog file>",
    )
    warehouse_data: str | None = Field(
        default=None,
        description="Folder (or s3:// URL) of a DuckLake warehouse's data files",
    )
    limits_file: Path = Field(
        default=DEFAULT_LIMITS_FILE,
        description="SQLite file through which every process using one API key on this machine "
        "shares the service's rate and concurrency limits",
    )
    shared_limits: Literal["machine", "prefect"] = Field(
        default="machine",
        description="How processes using one API key share the service's limits: machine, "
        "through the limits file; prefect, also across machines through the Prefect server's "
        "global concurrency limits (`emissions-etl prefect-setup` creates them)",
    )
    inbox: str | None = Field(
        default=None,
        description="Folder the nightly flow loads: a local path or an s3://, gs://, az:// URL",
    )
    organizations: Path | None = Field(
        default=None,
        description="TOML file of the organizations to load, each with its own key "
        "(emissions_etl.organizations)",
    )
    project_dir: Path | None = Field(
        default=None, description="Folder holding flows/, where deployment runs start"
    )
    sector_map: Path | None = Field(
        default=None, description="CSV of material group -> sector extending profiles' table"
    )
    default_country: str | None = Field(
        default=None, description="ISO country code for exports without a country column"
    )
    consolidation: Literal["operational_control", "financial_control", "equity_share"] = Field(
        default="operational_control",
        description="GHG Protocol consolidation approach of the inventory (Corporate Standard, "
        "chapter 3): which leased vehicles are the company's own (Scope 1 and 2) and which are "
        "Scope 3 category 8",
    )

    @field_validator("warehouse", "inbox", mode="before")
    @classmethod
    def _location_as_text(cls, value: object) -> object:
        """A path given in code is a location like any other (a lake's, a bucket's, is not a
        path)."""
        return str(value) if isinstance(value, Path) else value

    def open_warehouse(self, *, say: Callable[[str], None] | None = None) -> Warehouse:
        """The configured warehouse, written for the configured organization; ``say`` receives
        what its writer says while another load holds it."""
        from emissions_etl.warehouse import Warehouse

        return Warehouse(
            self.warehouse,
            data_path=self.warehouse_data,
            organization_id=self.organization_id,
            say=say,
        )

    def require_api(self) -> tuple[str, SecretStr, str]:
        """The three values a load needs, or a ConfigurationError naming what is missing."""
        missing = [
            f"EMISSIONS_{name.upper()}"
            for name in ("api_url", "api_key", "organization_id")
            if not getattr(self, name)
        ]
        if missing:
            raise ConfigurationError(f"missing setting(s): {', '.join(missing)}")
        return str(self.api_url), self.api_key or SecretStr(""), str(self.organization_id)


def _invalid_environment(error: ValidationError) -> ConfigurationError:
    """One line naming each unusable value by its variable; the API key's is never shown."""
    problems = []
    for entry in error.errors():
        field = str(entry["loc"][0]) if entry["loc"] else ""
        shown = "" if field == "api_key" else f" (got {entry.get('input')!r})"
        problems.append(f"EMISSIONS_{field.upper()}: {entry['msg']}{shown}")
    return ConfigurationError(f"invalid setting(s): {'; '.join(problems)}")
