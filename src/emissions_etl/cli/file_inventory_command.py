"""``emissions-etl file-inventory``: record the inventory of a year as it is filed, with what
reproduces it exactly (registered by ``cli/main.py``). Its last line is the filed inventory's id
alone, for scripts: ``inventory --filed ID`` writes it again, ``inventory --against ID`` restates
it.

Its exit codes: ``exit_codes.COMMAND_EXITS``.
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.coverage_options import WithEstimatesOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.inventory_command import BaseYearOption, base_year_of, reading_year
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.organization_options import InventoryOrganizationOption, OrganizationsOption
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.inventory import FiledInventory

NoteOption = Annotated[
    str | None, typer.Option("--note", help="What the filing is (kept with it).")
]
ByOption = Annotated[
    str | None, typer.Option("--by", help="Who files it (default: the system user running this).")
]


FiledYearOption = Annotated[
    str, typer.Option("--year", metavar="YEAR", help="The reporting year filed.")
]


@dataclass(frozen=True)
class FileInventoryCommand:
    """What ``emissions-etl file-inventory`` was given, in the order ``--help`` lists it (and
    its context: where ``--base-year`` came from)."""

    ctx: typer.Context
    year: FiledYearOption
    base_year: BaseYearOption = None
    organization: InventoryOrganizationOption = None
    organizations: OrganizationsOption = None
    note: NoteOption = None
    by: ByOption = None
    warehouse: WarehouseOptions = WarehouseOptions()
    consolidation: ConsolidationOption = None
    with_estimates: WithEstimatesOption = False


@options_command(FileInventoryCommand)
def file_inventory_command(command: FileInventoryCommand) -> None:
    """File the GHG inventory of a year: its figures and lines, who filed it and when, and what
    reproduces it exactly (a DuckLake's snapshot, or a frozen copy of its records). Prints the
    filed inventory's id alone on the last line."""
    from pydantic import ValidationError

    from emissions_etl.cli.inventory_summary import filed_line
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    try:
        filed, frozen = _filed(command)
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    typer.echo(filed_line(filed, frozen))
    typer.echo(filed.filed_id)


def _filed(command: FileInventoryCommand) -> tuple[FiledInventory, int | None]:
    """The inventory ``command`` names, filed; and, without a lake's snapshot to reproduce it,
    the number of records frozen with it."""
    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.organization_options import organization_id
    from emissions_etl.inventory import Estimates, file_inventory

    reporting_year = reading_year(command.year)
    assert reporting_year is not None
    approach = consolidation_approach(command.consolidation)  # before the settings: names it
    source = command.warehouse.existing()
    filed, _ = file_inventory(
        source, year=reporting_year,
        base_year=base_year_of(command.ctx, command.base_year, command.year),
        approach=approach,
        organization=organization_id(command.organization, command.organizations),
        note=command.note, by=command.by or getpass.getuser(),
        estimates=Estimates() if command.with_estimates else None,
    )  # fmt: skip
    if filed.snapshot_id is not None:
        return filed, None
    counted = source.query(
        "SELECT count(*) AS n FROM filed_inventory_records WHERE filed_id = ?", [filed.filed_id]
    )
    return filed, int(counted["n"].iloc[0])
