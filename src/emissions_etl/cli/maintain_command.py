"""``emissions-etl maintain-warehouse``: the upkeep that keeps a warehouse fast as the nights
add up (registered by ``cli.main``; ``warehouse._upkeep`` does the work). Imports nothing heavy
at module level. Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from typing import Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import (
    WarehouseDataOption,
    WarehouseMemoryOption,
    WarehouseOption,
    WarehouseTempOption,
    WarehouseThreadsOption,
    warehouse_settings,
)

RetentionOption = Annotated[
    int | None,
    typer.Option(
        "--retention",
        envvar="EMISSIONS_WAREHOUSE_RETENTION_DAYS",
        show_envvar=True,
        min=0,
        metavar="DAYS",
        help="Days a lake keeps the snapshots it replaced, for time travel (default 30: a "
        "month of nights); 0 keeps the current snapshot only. The snapshots inventories were "
        "filed at (file-inventory; the table filed_inventories) are always kept.",
    ),
]


def maintain_command(
    retention: RetentionOption = None,
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    warehouse_threads: WarehouseThreadsOption = None,
) -> None:
    """Keep the warehouse fast: on a DuckLake, flush inlined rows to files, merge small files,
    expire snapshots older than the retention and delete the files no snapshot needs (safe
    while loads run); on a DuckDB file, a checkpoint. Prints what it did."""
    from emissions_etl.cli.progress_display import shown_work
    from emissions_etl.cli.terminal import err, say
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError
    from emissions_etl.settings import Settings

    given: dict[str, object] = {
        **warehouse_settings(
            warehouse, warehouse_data, warehouse_memory, warehouse_temp, warehouse_threads
        )
    }
    if retention is not None:
        given["warehouse_retention_days"] = retention
    try:
        settings = Settings(**given)
        source = settings.open_warehouse(say=typer.echo)
        if not source.target.exists:
            fail_now(
                f"{source.target}: no warehouse here yet (nothing has been loaded)", EXIT_UNUSABLE
            )
        typer.echo(
            f"maintaining {source.target}"
            + (
                f" (snapshots kept {settings.warehouse_retention_days} days)"
                if source.is_lake
                else ""
            )
        )
        with shown_work(err, say) as progress:
            upkeep = source.maintain(retention_days=settings.warehouse_retention_days,
                                     step=progress)  # fmt: skip
    except (ConfigurationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    for line in upkeep.lines():
        typer.echo(f"  {line}")
