"""Command-line options naming the warehouse and how DuckDB runs it (the settings
``warehouse``, ``warehouse_data``, ``warehouse_memory``, ``warehouse_temp`` and
``warehouse_threads``), for every command that reads or writes it: ``WarehouseOptions``, the
five as one group a command's options object takes, and the settings they make."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from emissions_etl.settings import Settings
    from emissions_etl.warehouse import Warehouse

WarehouseOption = Annotated[
    str | None,
    typer.Option(
        "--warehouse",
        envvar="EMISSIONS_WAREHOUSE",
        show_envvar=True,
        help="The warehouse: a DuckDB file (default: warehouse.duckdb), or a DuckLake, "
        "ducklake:postgres:<libpq conninfo> (several writers at once) or ducklake:<catalog file>.",
    ),
]
WarehouseDataOption = Annotated[
    str | None,
    typer.Option(
        "--warehouse-data",
        envvar="EMISSIONS_WAREHOUSE_DATA",
        show_envvar=True,
        help="Folder (or s3:// URL) of a DuckLake warehouse's data files (default: beside a "
        "catalog file; required with a PostgreSQL catalog).",
    ),
]
WarehouseMemoryOption = Annotated[
    str | None,
    typer.Option(
        "--warehouse-memory",
        envvar="EMISSIONS_WAREHOUSE_MEMORY",
        show_envvar=True,
        help="DuckDB's memory limit: a size (2GB, 512MiB) or a share of this machine's memory "
        "(10%); default: an eighth of it. What does not fit spills to the temp folder.",
    ),
]
WarehouseTempOption = Annotated[
    str | None,
    typer.Option(
        "--warehouse-temp",
        envvar="EMISSIONS_WAREHOUSE_TEMP",
        show_envvar=True,
        help="Folder DuckDB spills to when a statement needs more than its memory limit "
        "(default: beside the warehouse file, a lake's catalog file or its data folder).",
    ),
]

WarehouseThreadsOption = Annotated[
    int | None,
    typer.Option(
        "--warehouse-threads",
        envvar="EMISSIONS_WAREHOUSE_THREADS",
        show_envvar=True,
        min=1,
        metavar="THREADS",
        help="Threads DuckDB runs a statement on (default: one per core). 1 where several loads "
        "run at once on few cores (a worker with --limit 2 on 2 cores): less CPU each.",
    ),
]


@dataclass(frozen=True)
class WarehouseOptions:
    """The warehouse options of a command, as one group: a command's options object names it
    where ``--help`` lists them (``options_object`` splices these fields there)."""

    warehouse: WarehouseOption = None
    warehouse_data: WarehouseDataOption = None
    warehouse_memory: WarehouseMemoryOption = None
    warehouse_temp: WarehouseTempOption = None
    warehouse_threads: WarehouseThreadsOption = None

    def given(self) -> dict[str, str | int]:
        """The options given on the command line, as ``Settings`` fields (an option not given
        leaves its ``EMISSIONS_*`` variable, or the default, in force)."""
        given: dict[str, str | int | None] = {
            "warehouse": self.warehouse,
            "warehouse_data": self.warehouse_data,
            "warehouse_memory": self.warehouse_memory,
            "warehouse_temp": self.warehouse_temp,
            "warehouse_threads": self.warehouse_threads,
        }
        return {name: value for name, value in given.items() if value is not None}

    def settings(self) -> Settings:
        """The settings: these options over the EMISSIONS_* environment."""
        from emissions_etl.settings import Settings

        return Settings(**self.given())

    def existing(self) -> Warehouse:
        """The warehouse these options or the EMISSIONS_* settings name; InputError if none is
        there."""
        from emissions_etl.errors import InputError

        source = self.settings().open_warehouse()
        if not source.target.exists:
            raise InputError(str(source.target), "no warehouse here")
        return source
