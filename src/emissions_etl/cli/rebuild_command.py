"""``emissions-etl rebuild-warehouse``: the warehouse rebuilt from what the service holds
(registered by ``cli.main``): for a lost or new warehouse file, a second worker's, or one that
drifted from the service. Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.limit_options import LimitsFileOption, SharedLimitsOption
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.terminal import fail, out
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.loading.rebuild import RebuiltResource
    from emissions_etl.settings import Settings
    from emissions_etl.warehouse import WarehouseTarget


@dataclass(frozen=True)
class RebuildCommand:
    """What ``emissions-etl rebuild-warehouse`` was given, in the order ``--help`` lists it."""

    warehouse: WarehouseOptions = WarehouseOptions()
    limits_file: LimitsFileOption = None
    shared_limits: SharedLimitsOption = None

    def settings(self) -> Settings:
        """The settings: these options over the EMISSIONS_* environment."""
        from emissions_etl.settings import Settings

        given = {
            **self.warehouse.given(),
            "limits_file": self.limits_file,
            "shared_limits": self.shared_limits.value if self.shared_limits else None,
        }
        return Settings(**{name: value for name, value in given.items() if value is not None})


@options_command(RebuildCommand)
def rebuild_command(command: RebuildCommand) -> None:
    """Rebuild the warehouse's records, co2e and row mapping from the service (settings from
    EMISSIONS_* variables); list the records it cannot tie to a row (no key the service keeps:
    the next load of their source finds them by content)."""
    from rich.table import Table

    from emissions_etl.errors import ConfigurationError, EmissionsEtlError

    try:
        rebuilt, target = _rebuilt(command)
    except ConfigurationError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
    table = Table("resource", "records in the service", "mapped to rows", "not identified")
    for entry in rebuilt:
        table.add_row(
            entry.resource, f"{entry.records:,}", f"{entry.identified:,}", f"{entry.unidentified:,}"
        )
    out.print(table)
    unidentified = [entry for entry in rebuilt if entry.unidentified]
    for entry in unidentified:
        out.print(
            f"{entry.resource}: {entry.unidentified:,} record(s) keep no key in the service; "
            "landed with their co2e, and found by content when their source is next loaded",
            highlight=False,
        )
    out.print(f"warehouse {target} rebuilt from the service", highlight=False)


def _rebuilt(command: RebuildCommand) -> tuple[list[RebuiltResource], WarehouseTarget]:
    """The warehouse ``command`` names rebuilt from the service (its progress drawn): what was
    rebuilt, resource by resource, and where."""
    from emissions_etl.cli.progress_display import shown_work
    from emissions_etl.cli.terminal import err, say
    from emissions_etl.connection import open_client
    from emissions_etl.loading.rebuild import rebuild_warehouse

    settings = command.settings()
    with open_client(settings) as client, shown_work(err, say) as progress:
        rebuilt_warehouse = settings.open_warehouse()
        return rebuild_warehouse(client, rebuilt_warehouse, progress), rebuilt_warehouse.target
