"""Command-line options naming organizations: the organizations file (the setting
``organizations``) and one organization, by its name in that file or by its id, in every command
that takes one (``organization_id`` resolves it, in one place)."""

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
        help="TOML file of the organizations, each with its name, organization_id and key "
        "(api_key_env or api_key), and optionally api_url, ca_file and inbox.",
    ),
]
OrganizationOption = Annotated[
    str | None,
    typer.Option(
        "--organization",
        envvar="EMISSIONS_ORGANIZATION",
        show_envvar=True,
        help="Load for this organization of the organizations file (its name or its id): its "
        "key, id and URL over the EMISSIONS_* settings.",
    ),
]
#: The organization whose inventory a command reads or files.
InventoryOrganizationOption = Annotated[
    str | None,
    typer.Option(
        "--organization",
        envvar="EMISSIONS_ORGANIZATION",
        show_envvar=True,
        help="The organization whose inventory this is: its name in the organizations file "
        "(--organizations), or its id; needed when the warehouse holds several.",
    ),
]


def organization_id(given: str | None, organizations: Path | None) -> str | None:
    """The id of the organization ``given`` names (its name in ``organizations``, the file
    given or EMISSIONS_ORGANIZATIONS, else its id); None when none is named."""
    from emissions_etl.organizations import organization_id_of
    from emissions_etl.settings import Settings

    if not given:
        return None
    return organization_id_of(given, organizations or Settings().organizations)
