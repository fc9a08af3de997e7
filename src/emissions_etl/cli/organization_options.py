"""Command-line options for groups that load several organizations, each with its own key:
the organizations file (the setting ``organizations``) and the one organization to load."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

OrganizationsOption = Annotated[
    Path | None,
    typer.Option(
        "--organizations",
        envvar="EMISSIONS_ORGANIZATIONS",
        show_envvar=True,
        help="TOML file of the organizations to load, each with its name, organization_id and "
        "key (api_key_env or api_key), and optionally api_url, ca_file and inbox.",
    ),
]
OrganizationOption = Annotated[
    str | None,
    typer.Option(
        "--organization",
        envvar="EMISSIONS_ORGANIZATION",
        show_envvar=True,
        help="Load for this organization of the organizations file: its key, id and URL over "
        "the EMISSIONS_* settings.",
    ),
]
