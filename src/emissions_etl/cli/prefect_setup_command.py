"""The ``emissions-etl prefect-setup`` command: options only at import time, so the CLI starts
fast; the work is ``prefect_setup.setup_prefect``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.limit_options import SharedLimitsOption
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.warehouse_options import WarehouseDataOption, WarehouseOption

if TYPE_CHECKING:
    from emissions_etl.settings import Settings


ApiUrlOption = Annotated[
    str | None, typer.Option(help="Service base URL (default: $EMISSIONS_API_URL).")
]

ApiKeyOption = Annotated[
    str | None,
    typer.Option(help="API key (default: $EMISSIONS_API_KEY, preferred); never printed."),
]

OrganizationIdOption = Annotated[
    str | None, typer.Option(help="Organization id (default: $EMISSIONS_ORGANIZATION_ID).")
]

CaFileOption = Annotated[
    Path | None, typer.Option(help="CA bundle of the service (default: $EMISSIONS_CA_FILE).")
]

InboxOption = Annotated[
    str | None,
    typer.Option(
        help="Nightly inbox folder, a local path or an s3://, gs://, az:// URL (default: "
        "$EMISSIONS_INBOX)."
    ),
]

InboxQueueOption = Annotated[
    str | None,
    typer.Option(
        envvar="EMISSIONS_INBOX_QUEUE",
        show_envvar=True,
        help="URL of an SQS queue the inbox's bucket sends its S3 event notifications to "
        "(s3:ObjectCreated:*): the watcher of arrivals reads it instead of listing the "
        "inbox each minute, for an inbox of many objects. Writes the variable "
        "emissions_inbox_queue.",
    ),
]

OrganizationsOption = Annotated[
    Path | None,
    typer.Option(
        envvar="EMISSIONS_ORGANIZATIONS",
        show_envvar=True,
        help="TOML file of the organizations to load, each with its own key: writes the "
        "variable emissions_organizations and one Secret block emissions-api-key-<name> "
        "each; the nightly then runs once per organization.",
    ),
]

SourcesOption = Annotated[
    Path | None,
    typer.Option(
        envvar="EMISSIONS_SOURCES",
        show_envvar=True,
        help="TOML file of table sources the nightly syncs after its inbox: writes the "
        "variable emissions_sources (never a password: one a URI holds goes to the Secret "
        "block emissions-source-<source>-<database>).",
    ),
]

ProjectDirOption = Annotated[
    Path | None,
    typer.Option(
        envvar="EMISSIONS_PROJECT_DIR",
        show_envvar=True,
        help="A checkout to deploy from: its flows/prefect.yaml, and the folder relative "
        "paths are taken from (default: here, or the checkout emissions-etl is installed "
        "from; neither: the deployments the installed package carries).",
    ),
]

DeployOption = Annotated[
    bool,
    typer.Option(help="Deploy every deployment of prefect.yaml (module-path entrypoints)."),
]

ArrivalsOption = Annotated[
    bool,
    typer.Option(
        "--arrivals/--no-arrivals",
        envvar="EMISSIONS_ARRIVALS",
        show_envvar=True,
        help="With an inbox configured, also deploy arrivals: watch-inbox looks at the "
        "inbox every minute and load-arrival loads each file that lands, once per content; "
        "--no-arrivals leaves them out (and removes them), the nightly loads the inbox.",
    ),
]

NotifyOption = Annotated[
    str | None,
    typer.Option(
        envvar="EMISSIONS_NOTIFY",
        show_envvar=True,
        help="Block to notify through when a run of the deployments fails, as "
        "<type>/<name> (custom-webhook/ops-alerts, slack-webhook/team, webhook/ops): "
        "creates or updates the automation 'emissions-etl: a run failed'.",
    ),
]

NotifyPartialOption = Annotated[
    bool | None,
    typer.Option(
        "--notify-partial/--no-notify-partial",
        envvar="EMISSIONS_NOTIFY_PARTIAL",
        show_envvar=True,
        help="Also notify when a run completes with rejected or failed rows (tag partial); "
        "--no-notify-partial removes that automation. Needs --notify.",
    ),
]

NotifyOverdueOption = Annotated[
    bool | None,
    typer.Option(
        "--notify-overdue/--no-notify-overdue",
        envvar="EMISSIONS_NOTIFY_OVERDUE",
        show_envvar=True,
        help="Also notify when a nightly finds data overdue: a gap of the inventory's "
        "coverage past its due date (tag overdue); --no-notify-overdue removes that "
        "automation. Needs --notify.",
    ),
]


@dataclass(frozen=True)
class PrefectSetupCommand:
    """What ``emissions-etl prefect-setup`` was given, in the order ``--help`` lists it."""

    api_url: ApiUrlOption = None
    api_key: ApiKeyOption = None
    organization_id: OrganizationIdOption = None
    ca_file: CaFileOption = None
    warehouse: WarehouseOption = None
    warehouse_data: WarehouseDataOption = None
    inbox: InboxOption = None
    inbox_queue: InboxQueueOption = None
    shared_limits: SharedLimitsOption = None
    organizations: OrganizationsOption = None
    sources: SourcesOption = None
    project_dir: ProjectDirOption = None
    deploy: DeployOption = True
    arrivals: ArrivalsOption = True
    notify: NotifyOption = None
    notify_partial: NotifyPartialOption = None
    notify_overdue: NotifyOverdueOption = None

    def settings(self) -> Settings:
        """The settings: these options over the EMISSIONS_* environment."""
        from emissions_etl.settings import Settings

        given = {
            "api_url": self.api_url, "api_key": self.api_key,
            "organization_id": self.organization_id, "ca_file": self.ca_file,
            "warehouse": self.warehouse, "warehouse_data": self.warehouse_data,
            "inbox": self.inbox, "inbox_queue": self.inbox_queue,
            "shared_limits": self.shared_limits.value if self.shared_limits else None,
            "organizations": self.organizations, "sources": self.sources,
            "project_dir": self.project_dir,
        }  # fmt: skip
        return Settings(**{name: value for name, value in given.items() if value is not None})

    def check_notify(self) -> None:
        """ConfigurationError for an alert of partial or overdue runs without a block."""
        from emissions_etl.errors import ConfigurationError

        for asked, option in ((self.notify_partial, "--notify-partial"),
                              (self.notify_overdue, "--notify-overdue")):  # fmt: skip
            if asked is not None and not self.notify:
                raise ConfigurationError(f"{option} needs --notify BLOCK to send through")


@options_command(PrefectSetupCommand)
def prefect_setup_command(command: PrefectSetupCommand) -> None:
    """Work pool, Secret block, variables, the service's limits and the warehouse's turns on
    the Prefect server in PREFECT_API_URL, then deploy, then (--notify) the alerts.

    Paths are stored as given: a relative one is resolved from the project folder at run time.
    """
    from rich.console import Console

    from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
    from emissions_etl.cli.terminal import fail
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError
    from emissions_etl.orchestration.setup import setup_prefect
    from emissions_etl.orchestration.steps import project_directory

    console = Console()
    try:
        command.check_notify()
        settings = command.settings()
        setup_prefect(
            settings,
            project_dir=project_directory(settings),
            deploy=command.deploy,
            arrivals=command.arrivals,
            notify=command.notify,
            notify_partial=command.notify_partial,
            notify_overdue=command.notify_overdue,
            say=lambda line: console.print(line, highlight=False, markup=False, soft_wrap=True),
        )
    except ConfigurationError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
