"""The ``emissions-etl prefect-setup`` command: options only at import time, so the CLI starts
fast; the work is ``prefect_setup.setup_prefect``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from emissions_etl.cli.limit_options import SharedLimitsOption
from emissions_etl.cli.warehouse_options import WarehouseDataOption, WarehouseOption


def prefect_setup_command(
    api_url: Annotated[
        str | None, typer.Option(help="Service base URL (default: $EMISSIONS_API_URL).")
    ] = None,
    api_key: Annotated[
        str | None,
        typer.Option(help="API key (default: $EMISSIONS_API_KEY, preferred); never printed."),
    ] = None,
    organization_id: Annotated[
        str | None, typer.Option(help="Organization id (default: $EMISSIONS_ORGANIZATION_ID).")
    ] = None,
    ca_file: Annotated[
        Path | None, typer.Option(help="CA bundle of the service (default: $EMISSIONS_CA_FILE).")
    ] = None,
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    inbox: Annotated[
        str | None,
        typer.Option(
            help="Nightly inbox folder, a local path or an s3://, gs://, az:// URL (default: "
            "$EMISSIONS_INBOX)."
        ),
    ] = None,
    shared_limits: SharedLimitsOption = None,
    organizations: Annotated[
        Path | None,
        typer.Option(
            envvar="EMISSIONS_ORGANIZATIONS",
            show_envvar=True,
            help="TOML file of the organizations to load, each with its own key: writes the "
            "variable emissions_organizations and one Secret block emissions-api-key-<name> "
            "each; the nightly then runs once per organization.",
        ),
    ] = None,
    sources: Annotated[
        Path | None,
        typer.Option(
            envvar="EMISSIONS_SOURCES",
            show_envvar=True,
            help="TOML file of table sources the nightly syncs after its inbox: writes the "
            "variable emissions_sources (never a password: one a URI holds goes to the Secret "
            "block emissions-source-<source>-<database>).",
        ),
    ] = None,
    project_dir: Annotated[
        Path | None,
        typer.Option(
            envvar="EMISSIONS_PROJECT_DIR",
            show_envvar=True,
            help="A checkout to deploy from: its flows/prefect.yaml, and the folder relative "
            "paths are taken from (default: here, or the checkout emissions-etl is installed "
            "from; neither: the deployments the installed package carries).",
        ),
    ] = None,
    deploy: Annotated[
        bool,
        typer.Option(help="Deploy every deployment of prefect.yaml (module-path entrypoints)."),
    ] = True,
    notify: Annotated[
        str | None,
        typer.Option(
            envvar="EMISSIONS_NOTIFY",
            show_envvar=True,
            help="Block to notify through when a run of the deployments fails, as "
            "<type>/<name> (custom-webhook/ops-alerts, slack-webhook/team, webhook/ops): "
            "creates or updates the automation 'emissions-etl: a run failed'.",
        ),
    ] = None,
    notify_partial: Annotated[
        bool | None,
        typer.Option(
            "--notify-partial/--no-notify-partial",
            envvar="EMISSIONS_NOTIFY_PARTIAL",
            show_envvar=True,
            help="Also notify when a run completes with rejected or failed rows (tag partial); "
            "--no-notify-partial removes that automation. Needs --notify.",
        ),
    ] = None,
    notify_overdue: Annotated[
        bool | None,
        typer.Option(
            "--notify-overdue/--no-notify-overdue",
            envvar="EMISSIONS_NOTIFY_OVERDUE",
            show_envvar=True,
            help="Also notify when a nightly finds data overdue: a gap of the inventory's "
            "coverage past its due date (tag overdue); --no-notify-overdue removes that "
            "automation. Needs --notify.",
        ),
    ] = None,
) -> None:
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
    from emissions_etl.settings import Settings

    given: dict[str, Any] = {
        "api_url": api_url,
        "api_key": api_key,
        "organization_id": organization_id,
        "ca_file": ca_file,
        "warehouse": warehouse,
        "warehouse_data": warehouse_data,
        "inbox": inbox,
        "shared_limits": shared_limits.value if shared_limits else None,
        "organizations": organizations,
        "sources": sources,
        "project_dir": project_dir,
    }
    console = Console()
    try:
        for asked, option in ((notify_partial, "--notify-partial"),
                              (notify_overdue, "--notify-overdue")):  # fmt: skip
            if asked is not None and not notify:
                raise ConfigurationError(f"{option} needs --notify BLOCK to send through")
        settings = Settings(**{name: value for name, value in given.items() if value is not None})
        folder = project_directory(settings)
        setup_prefect(
            settings,
            project_dir=folder,
            deploy=deploy,
            notify=notify,
            notify_partial=notify_partial,
            notify_overdue=notify_overdue,
            say=lambda line: console.print(line, highlight=False, markup=False, soft_wrap=True),
        )
    except ConfigurationError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
