"""``emissions-etl``: validate files offline, load them, run the demo, report from the warehouse.

Every failure ends as one line on stderr and an exit code, never a traceback:
0 done; 1 some rows rejected; 2 a file or setting cannot be used; 3 the service or the
warehouse failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from emissions_etl import __version__
from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError, StrictModeError
from emissions_etl.pipeline import (
    LoadOptions,
    LoadSummary,
    ProgressCallback,
    load_file,
    validate_file,
)
from emissions_etl.rejects import write_annotated_workbook, write_rejects_json
from emissions_etl.resources import resource_spec
from emissions_etl.settings import Settings

app = typer.Typer(
    name="emissions-etl",
    help="Load activity data from spreadsheets and ERP exports into the emissions service.",
    no_args_is_help=True,
    add_completion=False,
)
out = Console()
err = Console(stderr=True)

EXIT_OK, EXIT_REJECTS, EXIT_UNUSABLE, EXIT_FAILED = 0, 1, 2, 3

ResourceOption = Annotated[str, typer.Option("--resource", help="Resource the file holds.")]
SheetOption = Annotated[
    str | None, typer.Option("--sheet", help="Only this sheet (default: every sheet).")
]
RejectsOption = Annotated[
    Path | None,
    typer.Option("--rejects", help="Write rejects to OUT.json, or an annotated copy to OUT.xlsx."),
]


def fail(message: str, code: int) -> typer.Exit:
    """Print one line on stderr and return the Exit to raise."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def write_rejects(source: Path, rejects: pd.DataFrame, target: Path) -> None:
    """Rejects as JSON, or as an annotated copy of the workbook, by the target's suffix."""
    if target.suffix.lower() == ".xlsx":
        write_annotated_workbook(source, rejects, target)
    else:
        write_rejects_json(rejects, target)
    out.print(f"rejects written to {target}")


@app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="xlsx or csv file to check.")],
    resource: ResourceOption = "wastes",
    sheet: SheetOption = None,
    rejects: RejectsOption = None,
) -> None:
    """Check a file offline: exit 0 when every row is valid, 1 when some are rejected."""
    try:
        spec = resource_spec(resource)
        result = validate_file(file, spec=spec, options=LoadOptions(sheet=sheet))
    except (InputError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    bad_rows = result.rejects[["file", "sheet", "row"]].drop_duplicates().shape[0]
    out.print(
        f"{file.name}: {result.rows_read} rows read, {result.rows_valid} valid, {bad_rows} rejected"
    )
    if not result.rejects.empty:
        _print_rejects(result.rejects)
        if rejects:
            write_rejects(file, result.rejects, rejects)
        raise typer.Exit(EXIT_REJECTS)


@app.command()
def load(
    files: Annotated[list[Path], typer.Argument(help="xlsx or csv files to load.")],
    resource: ResourceOption = "wastes",
    sheet: SheetOption = None,
    strict: Annotated[bool, typer.Option(help="Load nothing if any row is rejected.")] = False,
    dry_run: Annotated[bool, typer.Option(help="Ask the service to validate only.")] = False,
    rejects: RejectsOption = None,
    warehouse: Annotated[
        Path | None, typer.Option(help="DuckDB file (default: $EMISSIONS_WAREHOUSE).")
    ] = None,
) -> None:
    """Load files into the service (settings from EMISSIONS_* variables) and the warehouse."""
    from emissions_etl.connection import open_client
    from emissions_etl.warehouse import Warehouse

    try:
        spec = resource_spec(resource)
        settings = Settings()
        if warehouse:
            settings = settings.model_copy(update={"warehouse": warehouse})
        options = LoadOptions(sheet=sheet, strict=strict, dry_run=dry_run)
        summaries: list[LoadSummary] = []
        with open_client(settings) as client, _progress() as progress:
            for file in files:
                task = progress.add_task(f"loading {file.name}", total=None)
                summaries.append(
                    load_file(
                        file,
                        api=client,
                        warehouse=Warehouse(settings.warehouse),
                        spec=spec,
                        options=options,
                        progress=_advance(progress, task),
                    )
                )
                progress.update(
                    task, completed=summaries[-1].rows_read, total=summaries[-1].rows_read
                )
    except StrictModeError as error:
        raise fail(str(error), EXIT_REJECTS) from None
    except (InputError, ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
    _print_summaries(summaries)
    with_rejects = [s for s in summaries if not s.rejects.empty]
    if rejects and with_rejects:
        _write_load_rejects(with_rejects, rejects)
    if with_rejects:
        raise typer.Exit(EXIT_REJECTS)


def _write_load_rejects(summaries: list[LoadSummary], target: Path) -> None:
    """One JSON file for every file's rejects; an annotated workbook per file for ``.xlsx``."""
    if target.suffix.lower() != ".xlsx":
        write_rejects_json(pd.concat([s.rejects for s in summaries], ignore_index=True), target)
        out.print(f"rejects written to {target}")
        return
    for summary in summaries:
        source = Path(summary.source)
        one = target if len(summaries) == 1 else target.with_stem(f"{target.stem}-{source.stem}")
        write_rejects(source, summary.rejects, one)


@app.command()
def demo(
    workdir: Annotated[Path, typer.Option(help="Where the demo keeps its files.")] = Path(
        "demo-output"
    ),
    inbox: Annotated[Path, typer.Option(help="Folder of files to load.")] = Path(
        "sample_data/inbox"
    ),
) -> None:
    """Start a sandbox, run the nightly flow over the sample inbox, and print what landed."""
    from emissions_etl.demo import run_demo

    try:
        run_demo(workdir=workdir, inbox=inbox, console=out)
    except (InputError, ConfigurationError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None


@app.command()
def version() -> None:
    """Print the version."""
    out.print(__version__)


def _advance(progress: Progress, task: TaskID) -> ProgressCallback:
    def advance(_stage: str, rows: int) -> None:
        progress.advance(task, rows)

    return advance


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,} rows"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def _print_rejects(rejects: pd.DataFrame, limit: int = 20) -> None:
    table = Table("file", "sheet", "row", "column", "value", "code", "message", title="Rejects")
    for row in rejects.head(limit).itertuples(index=False):
        table.add_row(*(str(value) for value in row))
    out.print(table)
    if len(rejects) > limit:
        out.print(f"... and {len(rejects) - limit} more (use --rejects OUT.json for all)")


def _print_summaries(summaries: list[LoadSummary]) -> None:
    table = Table("file", "outcome", "read", "rejected", "unchanged", "sent", "loaded", "co2e kg")
    for s in summaries:
        table.add_row(
            Path(s.source).name,
            s.outcome,
            *(str(n) for n in (s.rows_read, s.rows_rejected, s.rows_unchanged, s.rows_sent)),
            str(s.rows_loaded),
            f"{s.co2e_kg:,.1f}",
        )
    out.print(table)


# Last, and cheap to import: prefect_setup imports Prefect only inside its functions.
from emissions_etl.prefect_setup import prefect_setup_command  # noqa: E402

app.command("prefect-setup")(prefect_setup_command)

# The HTML report; its command imports plotly only when it runs.
from emissions_etl.report.command import report_command  # noqa: E402

app.command("report")(report_command)
