"""Command-line options naming the warehouse (the settings ``warehouse`` and
``warehouse_data``), for every command that reads or writes it."""

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
