"""``emissions-etl inventory``: the GHG inventory as a file the sustainability team pastes into
its report (registered by ``cli/main.py``).

Imports nothing heavy at module level (the CLI imports this module on every start). Exit codes as
the other commands': 0 written (also for a warehouse nothing is loaded in); 2 the output name,
the year, the approach, the organization (none named when the warehouse holds several, or one it
holds no record of) or the warehouse file cannot be used; 3 the warehouse cannot be read (a load
holds it, or it is not a DuckDB file).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

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

if TYPE_CHECKING:
    from emissions_etl.inventory import Inventory


def inventory_command(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="File to write: .xlsx (sheets by scope and category, by month, by facility) or "
            ".csv (the ESRS E1-6 table by scope and category); replaced whole.",
        ),
    ],
    year: Annotated[
        str | None,
        typer.Option(
            "--year", metavar="YEAR", help="Reporting year, by activity date (default: every year)."
        ),
    ] = None,
    organization: Annotated[
        str | None,
        typer.Option(
            "--organization",
            help="The organization whose inventory this is (its id, as EMISSIONS_ORGANIZATION_ID "
            "names it to loads); needed when the warehouse holds several.",
        ),
    ] = None,
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    consolidation: ConsolidationOption = None,
) -> None:
    """Write the GHG inventory: Scope 1, Scope 2, Scope 3 by category and the total (ESRS E1-6)."""
    from pydantic import ValidationError

    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError
    from emissions_etl.inventory import check_target, read_inventory, write_inventory_file
    from emissions_etl.settings import Settings

    given = warehouse_settings(warehouse, warehouse_data, warehouse_memory, warehouse_temp)
    try:
        check_target(out)
        reporting_year = _year(year)
        approach = consolidation_approach(consolidation)
        settings = Settings(**given)
        source = settings.open_warehouse()
        if not source.target.exists:
            raise InputError(str(source.target), "no warehouse here")
        inventory = read_inventory(
            source, approach=approach, year=reporting_year, organization=organization
        )
        write_inventory_file(inventory, out, warehouse=str(source.target))
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except OSError as error:
        fail_now(f"cannot write {out}: {error.strerror or error}", EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    typer.echo(_summary(out, inventory, str(source.target)))


def _year(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.strip().isdigit() or not 1900 <= int(text) <= 2100:
        raise ValueError(f"--year {text}: give a year such as 2026")
    return int(text)


def _summary(out: Path, inventory: Inventory, warehouse: str) -> str:
    """One line: the scopes, the total and what is outside it, in tonnes."""
    if inventory.is_empty:
        return f"{out}: no activity record in {warehouse} for these filters: every line is 0"

    def tonnes(kind: str) -> str:
        return f"{float(inventory.line(kind)['co2e_t']):,.1f} t"

    when = inventory.year if inventory.year is not None else "every year"
    outside = inventory.lines[inventory.lines["kind"] == "not_classified"]
    note = (
        f"; {int(outside['records'].sum()):,} record(s), {outside['co2e_t'].sum():,.1f} t, "
        "not in the total (reasons in the file)"
        if not outside.empty
        else ""
    )
    return (
        f"{out}: Scope 1 {tonnes('scope_1')}, Scope 2 {tonnes('scope_2_location')}, "
        f"Scope 3 {tonnes('scope_3')}, total {tonnes('total_location')} co2e "
        f"({inventory.approach}, {when}){note}"
    )
