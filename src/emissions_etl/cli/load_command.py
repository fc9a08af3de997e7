"""``emissions-etl load``: its options made into one typed object at the edge
(``LoadCommand``), the settings, the load options and the webhook's settings made from it once,
then the load with its progress and its summary (registered by ``cli.main``). Its exit codes:
``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_REJECTS, EXIT_UNUSABLE
from emissions_etl.cli.file_arguments import ANYWHERE, output_path, plan_inputs
from emissions_etl.cli.file_options import (
    DefaultCountryOption,
    ProfileOption,
    RejectsOption,
    ResourceOption,
    SectorMapOption,
    SheetOption,
    SourceOption,
    warn_sheet_on_csv,
)
from emissions_etl.cli.limit_options import LimitsFileOption, SharedLimitsOption
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.organization_options import OrganizationOption, OrganizationsOption
from emissions_etl.cli.table_options import (
    AttachOption,
    FromSqlOption,
    KeyOption,
    SourcesOption,
    planned_tables,
)
from emissions_etl.cli.terminal import fail
from emissions_etl.cli.warehouse_options import WarehouseOptions
from emissions_etl.cli.webhook_options import WebhookOptions

if TYPE_CHECKING:
    from emissions_etl.loading.file_loads import FileOutcome, Planned
    from emissions_etl.loading.options import LoadOptions
    from emissions_etl.settings import Settings
    from emissions_etl.storage import AnyPath

FilesArgument = Annotated[
    list[str] | None,
    typer.Argument(help=f"xlsx or csv files to load, or folders of them ({ANYWHERE})."),
]
StrictOption = Annotated[bool, typer.Option(help="Load nothing if any row is rejected.")]
DryRunOption = Annotated[
    bool, typer.Option(help="Validate, resolve and ask the service to check; write nothing.")
]
MirrorOption = Annotated[
    bool,
    typer.Option(
        help="The file is the whole truth for its source: delete the records of rows it no "
        "longer has (in the service and the warehouse). Refused when rows are rejected or "
        "when it would delete more than 20 % of the source; with --dry-run, lists them."
    ),
]
AllowMassDeleteOption = Annotated[
    bool, typer.Option(help="Let --mirror delete more than 20 % of the source's records.")
]


@dataclass(frozen=True)
class LoadCommand:
    """What ``emissions-etl load`` was given, in the order ``--help`` lists it."""

    files: FilesArgument = None
    resource: ResourceOption = None
    sheet: SheetOption = None
    strict: StrictOption = False
    dry_run: DryRunOption = False
    rejects: RejectsOption = None
    warehouse: WarehouseOptions = WarehouseOptions()
    profile: ProfileOption = None
    sector_map: SectorMapOption = None
    default_country: DefaultCountryOption = None
    limits_file: LimitsFileOption = None
    shared_limits: SharedLimitsOption = None
    source: SourceOption = None
    organizations: OrganizationsOption = None
    organization: OrganizationOption = None
    mirror: MirrorOption = False
    allow_mass_delete: AllowMassDeleteOption = False
    webhooks: WebhookOptions = WebhookOptions()
    from_sql: FromSqlOption = None
    key: KeyOption = None
    attach: AttachOption = None
    sources: SourcesOption = None

    def settings(self) -> Settings:
        """The settings: these options over the EMISSIONS_* environment, and with
        ``--organization`` that organization's key and id (from the organizations file)."""
        from emissions_etl.organizations import settings_of
        from emissions_etl.settings import Settings

        given = {
            **self.warehouse.given(),
            "limits_file": self.limits_file,
            "shared_limits": self.shared_limits.value if self.shared_limits else None,
            "organizations": self.organizations,
        }
        settings = Settings(**{name: value for name, value in given.items() if value is not None})
        return settings_of(self.organization, settings) if self.organization else settings

    def load_options(self) -> LoadOptions:
        """How each file (or table source) loads."""
        from emissions_etl.cli.profiles_command import profile_options
        from emissions_etl.loading.options import LoadOptions

        return LoadOptions(
            strict=self.strict, dry_run=self.dry_run, source=self.source, mirror=self.mirror,
            allow_mass_delete=self.allow_mass_delete,
            **profile_options(self.profile, self.sector_map, self.default_country),
        )  # fmt: skip

    def planned(self) -> list[Planned]:
        """The table sources the options name, else the files (and sheets) to load."""
        from emissions_etl.cli.profiles_command import profile_resource

        resource = self.resource or profile_resource(self.profile)
        tables = planned_tables(
            self.files, from_sql=self.from_sql, resource=resource, key=self.key,
            attach=self.attach, source=self.source, sources=self.sources,
            organization=self.organization,
        )  # fmt: skip
        if not tables and not self.files:
            raise ValueError("give files or folders to load, or --from-sql QUERY")
        if tables:
            return list(tables)
        planned: list[Planned] = list(plan_inputs(self.files or [], resource, self.sheet,
                                                  self.profile))  # fmt: skip
        warn_sheet_on_csv(planned, self.sheet)
        return planned


@options_command(LoadCommand)
def load_command(command: LoadCommand) -> None:
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
    from emissions_etl.cli.terminal import print_load_report

    target, outcomes = _loaded(command)
    rejected = print_load_report(outcomes, target)
    refused = [o for o in outcomes if o.outcome == "failed"]  # sheets it could not tell apart
    for outcome in refused:
        fail(str(outcome.error), EXIT_UNUSABLE)
    if refused:
        raise typer.Exit(EXIT_UNUSABLE)
    if rejected:
        raise typer.Exit(EXIT_REJECTS)


def _loaded(command: LoadCommand) -> tuple[AnyPath | None, list[FileOutcome]]:
    """The rejects file and the load of what ``command`` names; its failures as one line and
    their exit code."""
    from emissions_etl.cli.terminal import check_rejects_target, load_files, write_rejects
    from emissions_etl.errors import (
        ConfigurationError,
        EmissionsEtlError,
        InputError,
        StrictModeError,
    )
    from emissions_etl.loading.table_loads import PlannedTable

    target: AnyPath | None = None
    planned: list[Planned] = []
    try:
        target = output_path(command.rejects)
        check_rejects_target(target)
        planned = command.planned()
        settings = command.settings()
        options, webhooks = command.load_options(), command.webhooks.settings(settings.warehouse)
        return target, load_files(planned, settings, options, webhooks)
    except StrictModeError as error:
        if target is not None and error.rejects is not None:
            first = str(error.rejects["file"].iloc[0])
            tables = any(isinstance(entry, PlannedTable) for entry in planned)
            write_rejects({first if tables else Path(first): error.rejects}, target)
        raise fail(str(error), EXIT_REJECTS) from None
    except (InputError, ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
