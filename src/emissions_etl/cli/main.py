"""``emissions-etl``: validate files offline, load them, write templates, run the demo, report.

Every failure ends as one line on stderr and an exit code, never a traceback:
0 done; 1 some rows rejected; 2 a file or setting cannot be used; 3 the service or the
warehouse failed. Heavy libraries (pandas, Pandera, httpx, Prefect) are imported inside the
commands, so ``--help`` and ``--version`` answer at once.
"""

from __future__ import annotations

from typing import Annotated

import typer

from emissions_etl.cli.scrubbed_output import scrub_output
from emissions_etl.cli.terminal import out

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


# A workbook to fill in: its options are one typed object (template_command.TemplateCommand).
from emissions_etl.cli.template_command import template_command  # noqa: E402

app.command("template")(template_command)


# The demo over the sample inbox: its options are one typed object (demo_command.DemoCommand).
from emissions_etl.cli.demo_command import demo_command  # noqa: E402

app.command("demo")(demo_command)


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
