"""``emissions-etl report``: the warehouse as one HTML page (registered by ``cli.py``).

Imports nothing heavy at module level: the CLI imports this module on every start, and plotly
is loaded only when a report is actually written. Its exit codes: ``exit_codes.COMMAND_EXITS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.coverage_options import AsOfOption, DueDayOption, WithEstimatesOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE
from emissions_etl.cli.inventory_command import BaseYearOption, YearOption
from emissions_etl.cli.organization_options import OrganizationsOption
from emissions_etl.cli.quick_exit import fail_now, one_line
from emissions_etl.cli.warehouse_options import (
    WarehouseDataOption,
    WarehouseMemoryOption,
    WarehouseOption,
    WarehouseTempOption,
    WarehouseThreadsOption,
    warehouse_settings,
)

if TYPE_CHECKING:
    from emissions_etl.report import ReportSummary


def report_command(
    ctx: typer.Context,
    out: Annotated[
        str, typer.Option("--out", help=f"HTML file to write, replaced whole ({ANYWHERE}).")
    ],
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    warehouse_threads: WarehouseThreadsOption = None,
    consolidation: ConsolidationOption = None,
    organization: Annotated[
        str | None,
        typer.Option(
            "--organization",
            envvar="EMISSIONS_REPORT_ORGANIZATION",
            show_envvar=True,
            help="Report this organization alone (its name in the organizations file, or its "
            "id); default: every organization the warehouse holds.",
        ),
    ] = None,
    organizations: OrganizationsOption = None,
    year: YearOption = None,
    base_year: BaseYearOption = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="ID",
            help="Add the restatement of the inventory filed as ID (file-inventory): each line "
            "as filed and now, and the records changed since.",
        ),
    ] = None,
    with_estimates: WithEstimatesOption = False,
    as_of: AsOfOption = None,
    due_day: DueDayOption = None,
) -> None:
    """Write one self-contained HTML page: the GHG inventory, its coverage (a heat map of the
    months expected by entity), co2e by month, facility and source, runs, rejects."""
    from pydantic import ValidationError

    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.coverage_options import as_of_date
    from emissions_etl.cli.inventory_command import base_year_of, reading_year
    from emissions_etl.cli.organization_options import organization_id
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError
    from emissions_etl.report import write_report
    from emissions_etl.settings import Settings
    from emissions_etl.storage import as_path, written

    try:
        approach = consolidation_approach(consolidation)
        given = warehouse_settings(
            warehouse, warehouse_data, warehouse_memory, warehouse_temp, warehouse_threads
        )
        source = Settings(**given).open_warehouse()
        with written(as_path(out)) as local:
            summary = write_report(
                source, local, consolidation=approach,
                organization=organization_id(organization, organizations),
                year=reading_year(year), base_year=base_year_of(ctx, base_year, year),
                against=against, with_estimates=with_estimates, as_of=as_of_date(as_of),
                due_day=due_day,
            )  # fmt: skip
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
            f"{out}: {headline(summary)}; {summary.records:,} records, {summary.runs:,} runs, "
            f"{summary.open_rejects:,} open rejects ({summary.bytes / 1_000_000:.1f} MB)"
        )


def headline(summary: ReportSummary) -> str:
    """The inventory's one total, then every activity record's co2e under its own name."""
    period = summary.year if summary.year is not None else "every year"
    total = (
        "no inventory (the page says why)" if summary.total_co2e_kg is None
        else f"total GHG emissions {summary.total_co2e_kg / 1000:,.1f} t co2e "
        f"({summary.approach}, {period})"
    )  # fmt: skip
    return f"{total}, all activity co2e {summary.activity_co2e_kg / 1000:,.1f} t"
