"""``emissions-etl``: validate files offline, load them, write templates, run the demo, report.

Every failure ends as one line on stderr and an exit code, never a traceback:
0 done; 1 some rows rejected; 2 a file or setting cannot be used; 3 the service or the
warehouse failed. Heavy libraries (pandas, Pandera, httpx, Prefect) are imported inside the
commands, so ``--help`` and ``--version`` answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.scrubbed_output import scrub_output
from emissions_etl.cli.terminal import fail, out

app = typer.Typer(
    name="emissions-etl",
    help="Load activity data from spreadsheets and ERP exports into the emissions service.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help, wrapped to the terminal: rich's tables cut long option and variable names
    # ("EMISSIONS_WEBHOOK_FALLBACK_…") at 80 columns.
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        version()
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Load activity data from spreadsheets and ERP exports into the emissions service."""
    scrub_output()  # no credential is ever printed, whoever prints it


# Check files or table sources offline: its options are one typed object
# (validate_command.ValidateCommand).
from emissions_etl.cli.validate_command import validate_command  # noqa: E402

app.command("validate")(validate_command)


# Load files or table sources: its options are one typed object (load_command.LoadCommand).
from emissions_etl.cli.load_command import load_command  # noqa: E402

app.command("load")(load_command)


@app.command()
def resources() -> None:
    """List the resources a file can hold, with their columns (required ones marked *)."""
    from emissions_etl.cli.terminal import print_resources
    from emissions_etl.resources import RESOURCES

    print_resources(RESOURCES.values())


@app.command()
def template(
    names: Annotated[
        list[str],
        typer.Argument(
            help="Resource names (see `emissions-etl resources`): one sheet each, in one workbook."
        ),
    ],
    out_file: Annotated[Path, typer.Option("--out", help="The workbook to write (.xlsx).")],
    with_service: Annotated[
        bool,
        typer.Option(
            help="Read the organization's facilities and reference lists from the service "
            "(EMISSIONS_* settings) for the dropdowns."
        ),
    ] = True,
) -> None:
    """Write a workbook a person can fill in: a sheet per resource named (headers, dropdowns),
    and an About sheet. Filled in, it loads as it is: each sheet to its resource."""
    from emissions_etl.errors import EmissionsEtlError
    from emissions_etl.resources import resource_spec
    from emissions_etl.templates import write_templates_for

    try:
        specs = [resource_spec(name) for name in names]
        written = write_templates_for(specs, out_file, with_service=with_service)
    except ValueError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
    out.print(f"template for {', '.join(spec.name for spec in specs)} written to {written}")


@app.command()
def demo(
    workdir: Annotated[
        Path,
        typer.Option(
            "--out",
            "--workdir",
            envvar="EMISSIONS_DEMO_OUT",
            show_envvar=True,
            metavar="DIR",
            help="Folder the demo writes everything to: the sandbox, the warehouse, the flow's "
            "log, the report (emptied first when it is a previous demo's; refused when it holds "
            "other files).",
        ),
    ] = Path("demo-output"),
    inbox: Annotated[
        Path | None,
        typer.Option(
            envvar="EMISSIONS_DEMO_INBOX",
            show_envvar=True,
            metavar="DIR",
            help="Folder of files to load (default: the sample inbox installed with "
            "emissions-etl; sample_data/inbox in a checkout).",
        ),
    ] = None,
    consolidation: ConsolidationOption = None,
) -> None:
    """Start a sandbox, run the nightly flow over the sample inbox, and print what landed: from
    any folder, with nothing but the installed package."""
    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.demo import run_demo
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    try:
        approach = consolidation_approach(consolidation)
    except (ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    try:
        run_demo(workdir=workdir, inbox=inbox, console=out, consolidation=approach)
    except (InputError, ConfigurationError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None


@app.command()
def version() -> None:
    """Print the version (same as --version)."""
    from emissions_etl import __version__

    out.print(f"emissions-etl {__version__}")


# Last, and cheap to import: prefect_setup imports Prefect only inside its functions.
from emissions_etl.cli.prefect_setup_command import prefect_setup_command  # noqa: E402

app.command("prefect-setup")(prefect_setup_command)

# The HTML report; its command imports plotly only when it runs.
from emissions_etl.cli.report_command import report_command  # noqa: E402

app.command("report")(report_command)

# The GHG inventory as xlsx or csv; its command imports pandas and openpyxl only when it runs.
from emissions_etl.cli.inventory_command import inventory_command  # noqa: E402

app.command("inventory")(inventory_command)

# An inventory filed with what reproduces it; pandas and DuckDB load only when it runs.
from emissions_etl.cli.file_inventory_command import file_inventory_command  # noqa: E402

app.command("file-inventory")(file_inventory_command)

# Is the inventory complete: the coverage of a year; DuckDB and rich load only when it runs.
from emissions_etl.cli.coverage_command import coverage_command  # noqa: E402

app.command("coverage")(coverage_command)

# Export profiles (SAP, Concur, fuel cards, TMS); the declarations are read when it runs.
from emissions_etl.cli.profiles_command import profiles_command  # noqa: E402

app.command("profiles")(profiles_command)

# The warehouse rebuilt from the service; the client and DuckDB load only when it runs.
from emissions_etl.cli.rebuild_command import rebuild_command  # noqa: E402

app.command("rebuild-warehouse")(rebuild_command)

# The warehouse's upkeep (a lake's files and snapshots); DuckDB loads only when it runs.
from emissions_etl.cli.maintain_command import maintain_command  # noqa: E402

app.command("maintain-warehouse")(maintain_command)

# Read-only SQL over the warehouse for analysts; DuckDB loads only when it runs.
from emissions_etl.cli.sql_command import sql_command  # noqa: E402

app.command("sql")(sql_command)
