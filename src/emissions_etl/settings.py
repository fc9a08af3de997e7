"""Connection and storage settings, read once at the edge (CLI, flows) and passed down.

Environment variables are the public contract: ``EMISSIONS_API_URL``, ``EMISSIONS_API_KEY``,
``EMISSIONS_ORGANIZATION_ID``, ``EMISSIONS_CA_FILE``, ``EMISSIONS_WAREHOUSE`` (and
``EMISSIONS_WAREHOUSE_DATA`` for a DuckLake's data files; ``EMISSIONS_WAREHOUSE_MEMORY``,
``EMISSIONS_WAREHOUSE_TEMP`` and ``EMISSIONS_WAREHOUSE_THREADS`` for DuckDB's memory limit, spill
folder and threads,
``EMISSIONS_WAREHOUSE_RETENTION_DAYS`` for how long a lake keeps its snapshots),
``EMISSIONS_LIMITS_FILE``, ``EMISSIONS_SHARED_LIMITS`` and ``EMISSIONS_CONSOLIDATION`` (the GHG
inventory's consolidation approach), ``EMISSIONS_EXPECTATIONS`` and ``EMISSIONS_DUE_DAY`` (what its
coverage expects, and when a month's data is due); for Prefect deployments also
``EMISSIONS_INBOX``, ``EMISSIONS_SOURCES`` (the table sources) and ``EMISSIONS_PROJECT_DIR``
(read when a run starts).
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
#: Days a lake keeps the snapshots it replaced (``maintain-warehouse``): a month of nights, so
#: last month's figures can be read again as they were at its close, and a month of replaced
#: data files at most on disk. Filed inventories keep theirs for ever (``filed_inventories``).
DEFAULT_RETENTION_DAYS = 30


class Settings(BaseSettings):
    """Where the service is, who we are to it, and where the warehouse lives."""

    model_config = SettingsConfigDict(env_prefix="EMISSIONS_", extra="ignore")

    # Any: BaseSettings.__init__'s own **values, passed on whole to it (fields and _env_file...)
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
    warehouse_memory: str | None = Field(
        default=None,
        description="DuckDB's memory limit: a size (2GB, 512MiB) or a share of the machine's "
        "memory (10%); default: an eighth of it. What does not fit spills to the temp folder",
    )
    warehouse_temp: str | None = Field(
        default=None,
        description="Folder DuckDB spills to (default: beside the warehouse file, a lake's "
        "catalog file or its data folder)",
    )
    warehouse_threads: int | None = Field(
        default=None,
        ge=1,
        description="Threads DuckDB runs a statement on (default: one per core); 1 where several "
        "loads run at once on few cores",
    )
    warehouse_retention_days: int = Field(
        default=DEFAULT_RETENTION_DAYS,
        ge=0,
        description="Days a lake keeps the snapshots it replaced (maintain-warehouse); 0: the "
        "current one only",
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
    inbox_queue: str | None = Field(
        default=None,
        description="URL of an SQS queue the inbox's bucket sends its S3 event notifications "
        "to (s3:ObjectCreated:*): the watcher of arrivals reads it instead of listing the "
        "inbox, for an inbox of many objects",
    )
    organizations: Path | None = Field(
        default=None,
        description="TOML file of the organizations to load, each with its own key "
        "(emissions_etl.organizations)",
    )
    sources: Path | None = Field(
        default=None,
        description="TOML file of table sources the nightly syncs after its inbox: name, "
        "resource, query, key, databases to attach (emissions_etl.tables.sources_file)",
    )
    project_dir: Path | None = Field(
        default=None,
        description="Folder deployment runs start in and take relative paths from: a checkout, "
        "or any folder of a worker that has the package installed",
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

    expectations: Path | None = Field(
        default=None,
        description="TOML file of what the inventory's coverage expects beyond the defaults, "
        "per resource and entity (emissions_etl.coverage.expectations); stored in the warehouse "
        "when given",
    )
    due_day: int | None = Field(
        default=None,
        ge=1,
        le=31,
        description="A month's data is due on this day of the next month (default: the "
        "expectations file's due_day, else 10)",
    )

    @field_validator("warehouse", "inbox", mode="before")
    @classmethod
    def _location_as_text(cls, value: object) -> object:
        """A path given in code is a location like any other (a lake's, a bucket's, is not a
        path)."""
        return str(value) if isinstance(value, Path) else value

    @field_validator("warehouse_memory")
    @classmethod
    def _memory_size(cls, value: str | None) -> str | None:
        """A size DuckDB can take (checked here, so a typo fails before a load starts)."""
        if value is not None:
            from emissions_etl.warehouse import parse_memory

            parse_memory(value)
        return value

    def open_warehouse(self, *, say: Callable[[str], None] | None = None) -> Warehouse:
        """The configured warehouse, written for the configured organization; ``say`` receives
        what its writer says while another load holds it."""
        from emissions_etl.warehouse import MemorySettings, Warehouse

        return Warehouse(
            self.warehouse,
            data_path=self.warehouse_data,
            organization_id=self.organization_id,
            say=say,
            memory=MemorySettings(
                limit=self.warehouse_memory,
                temp=self.warehouse_temp,
                threads=self.warehouse_threads,
            ),
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
