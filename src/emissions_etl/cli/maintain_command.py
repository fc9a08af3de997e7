"""``emissions-etl maintain-warehouse``: the upkeep that keeps a warehouse fast as the nights
add up (registered by ``cli.main``; ``warehouse._upkeep`` does the work). Imports nothing heavy
at module level. Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.settings import Settings
    from emissions_etl.warehouse import Upkeep

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


@dataclass(frozen=True)
class MaintainCommand:
    """What ``emissions-etl maintain-warehouse`` was given, in the order ``--help`` lists it."""

    retention: RetentionOption = None
    warehouse: WarehouseOptions = WarehouseOptions()

    def settings(self) -> Settings:
        """The settings: these options over the EMISSIONS_* environment."""
        from emissions_etl.settings import Settings

        given: dict[str, object] = {**self.warehouse.given()}
        if self.retention is not None:
            given["warehouse_retention_days"] = self.retention
        return Settings(**given)


@options_command(MaintainCommand)
def maintain_command(command: MaintainCommand) -> None:
    """Keep the warehouse fast: on a DuckLake, flush inlined rows to files, merge small files,
    expire snapshots older than the retention and delete the files no snapshot needs (safe
    while loads run); on a DuckDB file, a checkpoint. Prints what it did."""
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError

    try:
        upkeep = _maintained(command.settings())
    except (ConfigurationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    for line in upkeep.lines():
        typer.echo(f"  {line}")


def _maintained(settings: Settings) -> Upkeep:
    """The warehouse ``settings`` name, maintained (its progress drawn); what was done. Exits 2
    when there is no warehouse there yet."""
    from emissions_etl.cli.progress_display import shown_work
    from emissions_etl.cli.terminal import err, say

    source = settings.open_warehouse(say=typer.echo)
    if not source.target.exists:
        fail_now(f"{source.target}: no warehouse here yet (nothing has been loaded)", EXIT_UNUSABLE)
    kept = f" (snapshots kept {settings.warehouse_retention_days} days)" if source.is_lake else ""
    typer.echo(f"maintaining {source.target}{kept}")
    with shown_work(err, say) as progress:
        return source.maintain(retention_days=settings.warehouse_retention_days, step=progress)
