"""``emissions-etl report``: the warehouse as one HTML page (registered by ``cli.py``).

Imports nothing heavy at module level: the CLI imports this module on every start, and plotly
is loaded only when a report is actually written. Its exit codes: ``exit_codes.COMMAND_EXITS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.coverage_options import AsOfOption, DueDayOption, WithEstimatesOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE
from emissions_etl.cli.inventory_command import BaseYearOption, YearOption
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.organization_options import OrganizationsOption
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    from emissions_etl.report import ReportSummary


OutOption = Annotated[
    str, typer.Option("--out", help=f"HTML file to write, replaced whole ({ANYWHERE}).")
]

OrganizationOption = Annotated[
    str | None,
    typer.Option(
        "--organization",
        envvar="EMISSIONS_REPORT_ORGANIZATION",
        show_envvar=True,
        help="Report this organization alone (its name in the organizations file, or its "
        "id); default: every organization the warehouse holds.",
    ),
]

AgainstOption = Annotated[
    str | None,
    typer.Option(
        "--against",
        metavar="ID",
        help="Add the restatement of the inventory filed as ID (file-inventory): each line "
        "as filed and now, and the records changed since.",
    ),
]


@dataclass(frozen=True)
class ReportCommand:
    """What ``emissions-etl report`` was given, in the order ``--help`` lists it (and its
    context: where ``--base-year`` came from)."""

    ctx: typer.Context
    out: OutOption
    warehouse: WarehouseOptions = WarehouseOptions()
    consolidation: ConsolidationOption = None
    organization: OrganizationOption = None
    organizations: OrganizationsOption = None
    year: YearOption = None
    base_year: BaseYearOption = None
    against: AgainstOption = None
    with_estimates: WithEstimatesOption = False
    as_of: AsOfOption = None
    due_day: DueDayOption = None


@options_command(ReportCommand)
def report_command(command: ReportCommand) -> None:
    """Write one self-contained HTML page: the GHG inventory, its coverage (a heat map of the
    months expected by entity), co2e by month, facility and source, runs, rejects."""
    from pydantic import ValidationError

    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    try:
        summary, where = _written(command)
    except (InputError, ConfigurationError, ValidationError, ValueError) as error:
        fail_now(one_line(error), EXIT_UNUSABLE)
    except OSError as error:
        fail_now(f"cannot write {command.out}: {error.strerror or error}", EXIT_UNUSABLE)
    except EmissionsEtlError as error:
        fail_now(one_line(error), EXIT_FAILED)
    if summary.empty:
        typer.echo(f"{command.out}: nothing is loaded in {where} yet (the page says so)")
    else:
        typer.echo(
            f"{command.out}: {headline(summary)}; {summary.records:,} records, "
            f"{summary.runs:,} runs, {summary.open_rejects:,} open rejects "
            f"({summary.bytes / 1_000_000:.1f} MB)"
        )


def _written(command: ReportCommand) -> tuple[ReportSummary, str]:
    """The page of the warehouse ``command`` names, written where it says; and the warehouse."""
    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.coverage_options import as_of_date
    from emissions_etl.cli.inventory_command import base_year_of, reading_year
    from emissions_etl.cli.organization_options import organization_id
    from emissions_etl.report import write_report
    from emissions_etl.storage import as_path, written

    approach = consolidation_approach(command.consolidation)
    source = command.warehouse.settings().open_warehouse()
    with written(as_path(command.out)) as local:
        summary = write_report(
            source, local, consolidation=approach,
            organization=organization_id(command.organization, command.organizations),
            year=reading_year(command.year),
            base_year=base_year_of(command.ctx, command.base_year, command.year),
            against=command.against, with_estimates=command.with_estimates,
            as_of=as_of_date(command.as_of), due_day=command.due_day,
        )  # fmt: skip
    return summary, str(source.target)


def headline(summary: ReportSummary) -> str:
    """The inventory's one total, then every activity record's co2e under its own name."""
    period = summary.year if summary.year is not None else "every year"
    total = (
        "no inventory (the page says why)" if summary.total_co2e_kg is None
        else f"total GHG emissions {summary.total_co2e_kg / 1000:,.1f} t co2e "
        f"({summary.approach}, {period})"
    )  # fmt: skip
    return f"{total}, all activity co2e {summary.activity_co2e_kg / 1000:,.1f} t"
