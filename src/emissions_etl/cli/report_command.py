"""``emissions-etl report``: the warehouse as one HTML page (registered by ``cli.py``).

Imports nothing heavy at module level: the CLI imports this module on every start, and plotly
is loaded only when a report is actually written. Exit codes as the CLI's: 0 written (also for
an empty warehouse), 2 no warehouse file, a setting it cannot use or the page cannot be written,
3 the warehouse cannot be read (a load holds it, or it is not a DuckDB file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.quick_exit import EXIT_FAILED, EXIT_UNUSABLE, fail_now, one_line
from emissions_etl.cli.warehouse_options import (
    WarehouseDataOption,
    WarehouseMemoryOption,
    WarehouseOption,
    WarehouseTempOption,
    warehouse_settings,
)


def report_command(
    out: Annotated[Path, typer.Option("--out", help="HTML file to write (replaced whole).")],
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    consolidation: ConsolidationOption = None,
    organization: Annotated[
        str | None,
        typer.Option(
            "--organization",
            envvar="EMISSIONS_REPORT_ORGANIZATION",
            show_envvar=True,
            help="Report this organization alone (its id); default: every organization the "
            "warehouse holds.",
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page: the GHG inventory, co2e by month, facility and source,
    runs, rejects."""
    from pydantic import ValidationError

    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError
    from emissions_etl.report import write_report
    from emissions_etl.settings import Settings

    try:
        approach = consolidation_approach(consolidation)
        given = warehouse_settings(warehouse, warehouse_data, warehouse_memory, warehouse_temp)
        source = Settings(**given).open_warehouse()
        summary = write_report(source, out, consolidation=approach, organization=organization)
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except OSError as error:
        fail_now(f"cannot write {out}: {error.strerror or error}", EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    if summary.empty:
        typer.echo(f"{out}: nothing is loaded in {source.target} yet (the page says so)")
    else:
        typer.echo(
            f"{out}: {summary.records:,} records, {summary.co2e_kg:,.1f} kg co2e, "
            f"{summary.runs:,} runs, {summary.open_rejects:,} open rejects "
            f"({summary.bytes / 1_000_000:.1f} MB)"
        )
