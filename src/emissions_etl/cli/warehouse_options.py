"""Command-line options naming the warehouse and how DuckDB runs it (the settings
``warehouse``, ``warehouse_data``, ``warehouse_memory``, ``warehouse_temp`` and
``warehouse_threads``), for every command that reads or writes it."""

from __future__ import annotations

from typing import Annotated

import typer

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


def warehouse_settings(
    warehouse: str | None = None,
    warehouse_data: str | None = None,
    warehouse_memory: str | None = None,
    warehouse_temp: str | None = None,
    warehouse_threads: int | None = None,
) -> dict[str, str | int]:
    """The warehouse options given on the command line, as ``Settings`` fields (an option
    not given leaves its ``EMISSIONS_*`` variable, or the default, in force)."""
    given: dict[str, str | int | None] = {
        "warehouse": warehouse,
        "warehouse_data": warehouse_data,
        "warehouse_memory": warehouse_memory,
        "warehouse_temp": warehouse_temp,
        "warehouse_threads": warehouse_threads,
    }
    return {name: value for name, value in given.items() if value is not None}
