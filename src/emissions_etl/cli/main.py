"""``emissions-etl``: validate files offline, load them, write templates, run the demo, report.

Every failure ends as one line on stderr and an exit code, never a traceback:
0 done; 1 some rows rejected; 2 a file or setting cannot be used; 3 the service or the
warehouse failed. Heavy libraries (pandas, Pandera, httpx, Prefect) are imported inside the
commands, so ``--help`` and ``--version`` answer at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_REJECTS, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE, output_path, plan_inputs
from emissions_etl.cli.limit_options import LimitsFileOption, SharedLimitsOption
from emissions_etl.cli.organization_options import OrganizationOption, OrganizationsOption
from emissions_etl.cli.scrubbed_output import scrub_output
from emissions_etl.cli.table_options import (
    AttachOption,
    FromSqlOption,
    KeyOption,
    SourcesOption,
    planned_tables,
)
from emissions_etl.cli.terminal import fail, out, warn
from emissions_etl.cli.warehouse_options import (
    WarehouseDataOption,
    WarehouseMemoryOption,
    WarehouseOption,
    WarehouseTempOption,
    WarehouseThreadsOption,
    warehouse_settings,
)
from emissions_etl.cli.webhook_options import (
    WebhookFallbackOption,
    WebhookListenOption,
    WebhookMaxBodyOption,
    WebhookSecretFileOption,
    WebhookSecretOption,
    WebhookUrlOption,
    webhook_settings,
)

if TYPE_CHECKING:
    import pandas as pd

    from emissions_etl.loading.file_loads import Planned
    from emissions_etl.loading.file_plan import PlannedFile
    from emissions_etl.loading.pipeline import LoadOptions, ValidationSummary
    from emissions_etl.storage import AnyPath

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

ResourceOption = Annotated[
    str | None,
    typer.Option(
        "--resource",
        help="Resource the file holds, every sheet whose header fits it (see `emissions-etl "
        "resources`); default: the file's folder name, else each sheet's (or the csv's) own, "
        "recognised from its name and header.",
    ),
]
SheetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--sheet",
        help="Only this sheet; repeat it for several (default: every sheet, each to its "
        "resource; sheets that fit none are named and skipped).",
    ),
]
RejectsOption = Annotated[
    str | None,
    typer.Option(
        "--rejects",
        help=f"Write rejects to OUT.json, or an annotated copy to OUT.xlsx ({ANYWHERE}).",
    ),
]
ProfileOption = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="Export profile the file is in (see `emissions-etl profiles`); default: recognised "
        "from the header when it does not have the resource's own columns.",
    ),
]
SectorMapOption = Annotated[
    Path | None,
    typer.Option(
        "--sector-map",
        envvar="EMISSIONS_SECTOR_MAP",
        show_envvar=True,
        help="CSV of material group -> sector (NAICS code or name) extending the profiles' table.",
    ),
]
DefaultCountryOption = Annotated[
    str | None,
    typer.Option(
        "--default-country",
        envvar="EMISSIONS_DEFAULT_COUNTRY",
        show_envvar=True,
        help="ISO country code for rows of exports without a country (e.g. ES).",
    ),
]


SourceOption = Annotated[
    str | None,
    typer.Option(
        "--source",
        envvar="EMISSIONS_SOURCE",
        show_envvar=True,
        help="The data set the files are versions of (a travel agency's export, a fuel card's "
        "statements): rows without a key are identified by their content within it, so a new "
        "version under another file name adds only its new rows (default: each file's name).",
    ),
]


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


@app.command()
def validate(
    file: Annotated[
        str | None,
        typer.Argument(help=f"xlsx or csv file to check, or a folder of them ({ANYWHERE})."),
    ] = None,
    resource: ResourceOption = None,
    sheet: SheetOption = None,
    rejects: RejectsOption = None,
    profile: ProfileOption = None,
    sector_map: SectorMapOption = None,
    default_country: DefaultCountryOption = None,
    source: SourceOption = None,
    from_sql: FromSqlOption = None,
    key: KeyOption = None,
    attach: AttachOption = None,
    sources: SourcesOption = None,
) -> None:
    """Check a file offline: exit 0 when every row is valid, 1 when some are rejected, 2 when
    the file, or a sheet of it, cannot be used. A workbook is reported sheet by sheet; a folder
    file by file, as the nightly reads its inbox. With --from-sql (or --sources), the rows of
    a query, each named by its key."""
    import pandas as pd

    from emissions_etl.cli.profiles_command import profile_options, profile_resource
    from emissions_etl.cli.terminal import (
        check_rejects_target,
        print_rejects,
        validate_tables,
        write_rejects,
    )
    from emissions_etl.errors import ConfigurationError, InputError
    from emissions_etl.loading.pipeline import LoadOptions

    try:
        target = output_path(rejects)
        check_rejects_target(target)
        tables = planned_tables(
            [file] if file else None, from_sql=from_sql,
            resource=resource or profile_resource(profile), key=key, attach=attach,
            source=source, sources=sources,
        )  # fmt: skip
        options = LoadOptions(source=source, **profile_options(profile, sector_map,
                                                               default_country))  # fmt: skip
        if tables:
            validate_tables(tables, options, target)
            return
        if not file:
            raise ValueError("give a file or folder to check, or --from-sql QUERY")
        planned = plan_inputs([file], resource or profile_resource(profile), sheet, profile)
        _warn_sheet_on_csv(planned, sheet)
    except (InputError, ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    unusable, rejects_by_file = _validate_planned(planned, options)
    found = list(rejects_by_file.values())
    all_rejects = pd.concat(found, ignore_index=True) if found else None
    if target is not None and all_rejects is not None:
        write_rejects(rejects_by_file, target)
    if all_rejects is not None and not all_rejects.empty:
        print_rejects(all_rejects)
    for problem in unusable:
        fail(problem, EXIT_UNUSABLE)
    if unusable:
        raise typer.Exit(EXIT_UNUSABLE)
    if all_rejects is not None and not all_rejects.empty:
        raise typer.Exit(EXIT_REJECTS)


def _validate_planned(
    planned: Sequence[PlannedFile], options: LoadOptions
) -> tuple[list[str], dict[AnyPath | str, pd.DataFrame]]:
    """Each planned file validated (its progress drawn), its lines printed, file by file:
    the problems of what could not be used, one line each, and each file's rejects."""
    import pandas as pd

    from emissions_etl.cli.progress_display import shown_progress
    from emissions_etl.cli.terminal import err, print_validation, say
    from emissions_etl.errors import InputError
    from emissions_etl.loading.pipeline import validate_file
    from emissions_etl.loading.progress import PlannedTotals

    unusable: list[str] = []
    rejects_by_file: dict[AnyPath | str, pd.DataFrame] = {}
    with shown_progress(PlannedTotals(planned), err, say, sends=False) as progress:
        for path in dict.fromkeys(entry.path for entry in planned):
            entries = [entry for entry in planned if entry.path == path]
            results: dict[int, ValidationSummary] = {}
            problems = []
            for index, entry in enumerate(entries):
                if entry.spec is None:
                    continue
                try:
                    result = validate_file(path, spec=entry.spec, progress=progress(entry.label),
                                           options=options.for_sheets(entry.sheets))  # fmt: skip
                except (InputError, ValueError) as error:
                    problems.append(f"{entry.label}: {error}" if entry.shown_sheets else str(error))
                    continue
                if result.rows_read == 0:
                    problems.append(f"{entry.where}: no data rows under the header")
                else:
                    results[index] = result
            unusable += print_validation(entries, results) + problems
            if results:
                found = [result.rejects for result in results.values()]
                rejects_by_file[path] = pd.concat(found, ignore_index=True)
    return unusable, rejects_by_file


@app.command()
def load(
    files: Annotated[
        list[str] | None,
        typer.Argument(help=f"xlsx or csv files to load, or folders of them ({ANYWHERE})."),
    ] = None,
    resource: ResourceOption = None,
    sheet: SheetOption = None,
    strict: Annotated[bool, typer.Option(help="Load nothing if any row is rejected.")] = False,
    dry_run: Annotated[
        bool, typer.Option(help="Validate, resolve and ask the service to check; write nothing.")
    ] = False,
    rejects: RejectsOption = None,
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    warehouse_memory: WarehouseMemoryOption = None,
    warehouse_temp: WarehouseTempOption = None,
    warehouse_threads: WarehouseThreadsOption = None,
    profile: ProfileOption = None,
    sector_map: SectorMapOption = None,
    default_country: DefaultCountryOption = None,
    limits_file: LimitsFileOption = None,
    shared_limits: SharedLimitsOption = None,
    source: SourceOption = None,
    organizations: OrganizationsOption = None,
    organization: OrganizationOption = None,
    mirror: Annotated[
        bool,
        typer.Option(
            help="The file is the whole truth for its source: delete the records of rows it no "
            "longer has (in the service and the warehouse). Refused when rows are rejected or "
            "when it would delete more than 20 % of the source; with --dry-run, lists them."
        ),
    ] = False,
    allow_mass_delete: Annotated[
        bool, typer.Option(help="Let --mirror delete more than 20 % of the source's records.")
    ] = False,
    webhook_url: WebhookUrlOption = None,
    webhook_listen: WebhookListenOption = None,
    webhook_secret: WebhookSecretOption = None,
    webhook_secret_file: WebhookSecretFileOption = None,
    webhook_fallback_after: WebhookFallbackOption = None,
    webhook_max_body_bytes: WebhookMaxBodyOption = None,
    from_sql: FromSqlOption = None,
    key: KeyOption = None,
    attach: AttachOption = None,
    sources: SourcesOption = None,
) -> None:
    """Load files into the service (settings from EMISSIONS_* variables) and the warehouse.

    Files load parents first (facilities before wastes, vehicles before consumptions, ...); a
    folder loads as the nightly loads its inbox (inbox/<resource>/ names its files' resource).
    A row is found again by its key or its content within its source, in the warehouse and
    else among the records the service holds: nothing is created twice.

    With a webhook URL, a line says when its endpoint is registered or reused and when each
    ingest job finishes by its event (or by polling after the wait). A group loads for one of
    its organizations with --organization NAME (its key and id from the organizations file).

    With --from-sql QUERY --resource NAME --key COL (or --sources FILE), the rows of a query
    load instead: identified by source and key, unchanged rows are not sent, changed ones
    update their record, and --mirror deletes the records of keys the query no longer returns;
    --dry-run says what would be created, updated and deleted and changes nothing.
    """
    from emissions_etl.cli.profiles_command import profile_options, profile_resource
    from emissions_etl.cli.terminal import check_rejects_target, load_files, print_load_report
    from emissions_etl.errors import (
        ConfigurationError,
        EmissionsEtlError,
        InputError,
        StrictModeError,
    )

    target, tables = None, []
    try:
        target = output_path(rejects)
        check_rejects_target(target)
        tables = planned_tables(
            files, from_sql=from_sql, resource=resource or profile_resource(profile),
            key=key, attach=attach, source=source, sources=sources, organization=organization,
        )  # fmt: skip
        if not tables and not files:
            raise ValueError("give files or folders to load, or --from-sql QUERY")
        planned: list[Planned] = list(tables) or list(
            plan_inputs(files or [], resource or profile_resource(profile), sheet, profile)
        )
        _warn_sheet_on_csv(planned, sheet)
        given = {
            **warehouse_settings(
                warehouse, warehouse_data, warehouse_memory, warehouse_temp, warehouse_threads
            ),
            "limits_file": limits_file,
            "shared_limits": shared_limits.value if shared_limits else None,
            "organizations": organizations,
        }
        webhooks = webhook_settings(
            webhook_url=webhook_url, webhook_listen=webhook_listen,
            webhook_secret=webhook_secret, webhook_secret_file=webhook_secret_file,
            webhook_fallback_after=webhook_fallback_after,
            webhook_max_body_bytes=webhook_max_body_bytes,
        )  # fmt: skip
        summaries = load_files(
            planned, strict=strict, dry_run=dry_run,
            settings={name: value for name, value in given.items() if value is not None},
            extra_options={
                **profile_options(profile, sector_map, default_country),
                "source": source, "mirror": mirror, "allow_mass_delete": allow_mass_delete,
            },
            webhooks=webhooks, organization=organization,
        )  # fmt: skip
    except StrictModeError as error:
        if target is not None and error.rejects is not None:
            from emissions_etl.cli.terminal import write_rejects

            first = str(error.rejects["file"].iloc[0])
            write_rejects({first if tables else Path(first): error.rejects}, target)
        raise fail(str(error), EXIT_REJECTS) from None
    except (InputError, ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
    rejected = print_load_report(summaries, target)
    refused = [o for o in summaries if o.outcome == "failed"]  # sheets it could not tell apart
    for outcome in refused:
        fail(str(outcome.error), EXIT_UNUSABLE)
    if refused:
        raise typer.Exit(EXIT_UNUSABLE)
    if rejected:
        raise typer.Exit(EXIT_REJECTS)


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


def _warn_sheet_on_csv(planned: Sequence[Planned], sheets: list[str] | None) -> None:
    """--sheet names a workbook's sheets: a csv or an HTML table (by content) has none, nor
    does a query."""
    if not sheets:
        return
    from emissions_etl.loading.file_plan import PlannedFile
    from emissions_etl.sources import SourceFormat, source_format

    named = " ".join(f"--sheet {sheet!r}" for sheet in sheets)
    if any(not isinstance(entry, PlannedFile) for entry in planned):
        warn(f"a query has no sheets: {named} is ignored")
    files = [entry for entry in planned if isinstance(entry, PlannedFile)]
    for file in dict.fromkeys(entry.path for entry in files):
        kind = source_format(file)
        if not kind.is_workbook:
            what = "an HTML table" if kind is SourceFormat.HTML else "a csv file"
            warn(f"{file.name} is {what}: it has no sheets, {named} is ignored")


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
