"""``emissions-etl profiles [NAME]``: the export layouts a file may come in, and one in detail.

Cheap to import (the CLI registers it at start): the declarations are read when it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

from emissions_etl.cli.exit_codes import EXIT_UNUSABLE
from emissions_etl.cli.terminal import fail, out

if TYPE_CHECKING:
    from emissions_etl.profiles.inputs import ProfileInputs


class ProfileFields(TypedDict):
    """The ``LoadOptions`` fields the profile options make."""

    profile: str | None
    profile_inputs: ProfileInputs


def profiles_command(
    name: Annotated[
        str | None, typer.Argument(help="A profile to show in detail (its source layout).")
    ] = None,
) -> None:
    """List the export profiles (SAP, Concur, fuel cards, TMS...) and the resource each feeds."""
    from rich.table import Table
    from rich.text import Text

    from emissions_etl.profiles.catalog import all_profiles, profile_named
    from emissions_etl.resources import RESOURCES

    if name is None:
        table = Table("profile", "resource", "required source columns", "export", title="Profiles")
        for profile in all_profiles().values():
            resource = profile.resource
            if resource not in RESOURCES:
                resource += " (not available yet)"
            required = ", ".join(profile.source(key).headers[0] for key in profile.required)
            table.add_row(profile.name, resource, required, profile.description)
        out.print(table)
        return
    try:
        profile = profile_named(name)
    except ValueError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    out.print(Text.assemble((profile.name, "bold"), f" -> {profile.resource}: "
                            f"{profile.description}"))  # fmt: skip
    if profile.system:
        out.print(profile.system)
    layout = Table("source column (* required)", "also written", "meaning", "example")
    for source in profile.sources:
        first, *others = source.headers or (source.key,)
        layout.add_row(
            first + ("*" if source.required else ""), ", ".join(others), source.meaning,
            source.example,
        )  # fmt: skip
    out.print(layout)
    feeds = Table(f"{profile.resource} column", "fed by")
    for rule in profile.rules:
        if rule.value is not None:
            how = f"the value {rule.value!r}"
        else:
            how = " + ".join(profile.source(key).headers[0] for key in rule.sources)
        if rule.map:
            how += f" through table {rule.map}" + (f" (+ --{rule.extend.replace('_', '-')})"
                                                   if rule.extend else "")  # fmt: skip
        if rule.default_input:
            how += f"; else --{rule.default_input.replace('_', '-')}"
        elif rule.default is not None:
            how += f"; else {rule.default!r}"
        feeds.add_row(rule.column, how)
    out.print(feeds)


def profile_resource(name: str | None) -> str | None:
    """The resource of profile ``name`` (``--profile`` names the resource too); ValueError
    for an unknown profile."""
    if not name:
        return None
    from emissions_etl.profiles.catalog import profile_named

    return profile_named(name).resource


def profile_options(
    name: str | None, sector_map: Path | None, default_country: str | None
) -> ProfileFields:
    """The ``LoadOptions`` fields of the profile options (env values already folded in)."""
    from emissions_etl.profiles.inputs import ProfileInputs

    inputs = ProfileInputs(sector_map=sector_map, default_country=default_country)
    return {"profile": name, "profile_inputs": inputs}


__all__ = ["ProfileFields", "profile_options", "profile_resource", "profiles_command"]
