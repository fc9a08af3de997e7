"""The options of the commands that read files (``validate``, ``load``): the resource, the
sheets, the rejects file, the export profile and its tables, the data set."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.file_arguments import ANYWHERE
from emissions_etl.cli.terminal import warn

if TYPE_CHECKING:
    from emissions_etl.loading.file_loads import Planned

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


def warn_sheet_on_csv(planned: Sequence[Planned], sheets: list[str] | None) -> None:
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
