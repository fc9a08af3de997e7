"""Where the warehouse lives: a DuckDB file (the default: the demo and a single user need no
server) or a DuckLake, whose catalog sits in PostgreSQL (``ducklake:postgres:<libpq conninfo>``)
or in a file (``ducklake:<catalog file>``) and whose data files sit in a folder or object
storage (``EMISSIONS_WAREHOUSE_DATA``). A lake takes several writers at once, on several
machines; every analyst's DuckDB reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

LAKE_PREFIX = "ducklake:"
POSTGRES_PREFIX = "ducklake:postgres:"
_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


@dataclass(frozen=True)
class WarehouseTarget:
    """A warehouse location as a user writes it (``EMISSIONS_WAREHOUSE``, ``--warehouse``)."""

    location: str
    #: Where a lake's data files go (``EMISSIONS_WAREHOUSE_DATA``): a folder or an ``s3://``
    #: URL; None: beside a file catalog (``<catalog>.files/``).
    data_path: str | None = None
    #: A lake read as it was at this snapshot (read-only: a filed inventory reproduced);
    #: None: as it is now.
    snapshot: int | None = None

    @classmethod
    def of(
        cls, value: str | Path | WarehouseTarget, data_path: str | Path | None = None
    ) -> WarehouseTarget:
        """``value`` as a target (a target stays as it is, unless ``data_path`` is given)."""
        if isinstance(value, WarehouseTarget):
            if data_path is None:
                return value
            value = value.location
        return cls(str(value), None if data_path is None else str(data_path))

    def at_snapshot(self, snapshot: int) -> WarehouseTarget:
        """This lake as it was at ``snapshot`` (ValueError for a DuckDB file: it keeps none)."""
        if not self.is_lake:
            raise ValueError(f"{self}: a DuckDB file keeps no snapshots (a DuckLake does)")
        return replace(self, snapshot=int(snapshot))

    @property
    def is_lake(self) -> bool:
        return self.location.startswith(LAKE_PREFIX)

    @property
    def is_postgres(self) -> bool:
        return self.location.startswith(POSTGRES_PREFIX)

    @property
    def path(self) -> Path:
        """The DuckDB file; for a lake with a file catalog, that file. (A PostgreSQL catalog
        has none: ``local_path`` names where this machine keeps what belongs beside it.)"""
        if self.is_lake and not self.is_postgres:
            return Path(self.location[len(LAKE_PREFIX) :])
        return Path(self.location)

    @property
    def local_path(self) -> Path:
        """Where this machine keeps what belongs beside the warehouse (its report, a webhook
        secret): beside the file or catalog file; for a PostgreSQL catalog, in the user's
        cache folder."""
        if self.is_postgres:
            return Path.home() / ".cache" / "emissions-etl" / "lake"
        return self.path

    @property
    def exists(self) -> bool:
        """Whether there is a warehouse here to read (a server catalog is taken to be)."""
        return self.is_postgres or self.path.is_file()

    def lake_data_path(self) -> str | None:
        """The DATA_PATH of a lake's ATTACH: the setting, else beside a file catalog."""
        if self.data_path:
            return self.data_path.rstrip("/") + "/"
        if self.is_lake and not self.is_postgres:
            return f"{self.path}.files/"
        return None

    def __str__(self) -> str:
        """The location with any password in a conninfo masked: safe for logs and errors."""
        at = f" at snapshot {self.snapshot}" if self.snapshot is not None else ""
        return _PASSWORD.sub(r"\1***", self.location) + at

    @property
    def has_password(self) -> bool:
        """Whether the location holds a password (a conninfo's ``password=``)."""
        return _PASSWORD.search(self.location) is not None

    def without_password(self) -> str:
        """The location with a conninfo's password left out: what may be stored where others
        read it (a Prefect variable); libpq finds the password in ``PGPASSWORD`` or
        ``.pgpass`` on each machine instead."""
        return " ".join(_PASSWORD.sub("", self.location).split())


__all__ = ["LAKE_PREFIX", "POSTGRES_PREFIX", "WarehouseTarget"]
