"""``emissions-etl rebuild-warehouse``: the warehouse rebuilt from what the service holds
(registered by ``cli.main``): for a lost or new warehouse file, a second worker's, or one that
drifted from the service. Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.limit_options import LimitsFileOption, SharedLimitsOption
from emissions_etl.cli.terminal import fail, out
from emissions_etl.cli.warehouse_options import (
    WarehouseDataOption,
    WarehouseMemoryOption,
    WarehouseOption,
    WarehouseTempOption,
    WarehouseThreadsOption,
    warehouse_settings,
)


def rebuild_command(
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    warehouse_threads: WarehouseThreadsOption = None,
    limits_file: LimitsFileOption = None,
    shared_limits: SharedLimitsOption = None,
) -> None:
    """Rebuild the warehouse's records, co2e and row mapping from the service (settings from
    EMISSIONS_* variables); list the records it cannot tie to a row (no key the service keeps:
    the next load of their source finds them by content)."""
    from rich.table import Table

    from emissions_etl.cli.progress_display import shown_work
    from emissions_etl.cli.terminal import err, say
    from emissions_etl.connection import open_client
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError
    from emissions_etl.loading.rebuild import rebuild_warehouse
    from emissions_etl.settings import Settings

    given = {
        **warehouse_settings(
            warehouse, warehouse_data, warehouse_memory, warehouse_temp, warehouse_threads
        ),
        "limits_file": limits_file,
        "shared_limits": shared_limits.value if shared_limits else None,
    }
    try:
        settings = Settings(**{name: value for name, value in given.items() if value is not None})
        with open_client(settings) as client, shown_work(err, say) as progress:
            rebuilt_warehouse = settings.open_warehouse()
            rebuilt = rebuild_warehouse(client, rebuilt_warehouse, progress)
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
    out.print(f"warehouse {rebuilt_warehouse.target} rebuilt from the service", highlight=False)
