"""``emissions-etl template``: a workbook a person fills in, a sheet per resource named, its
options made into one typed object at the edge (``TemplateCommand``; registered by
``cli.main``). Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.terminal import fail, out

if TYPE_CHECKING:
    from emissions_etl.resources import ResourceSpec

NamesArgument = Annotated[
    list[str],
    typer.Argument(
        help="Resource names (see `emissions-etl resources`): one sheet each, in one workbook."
    ),
]
OutFileOption = Annotated[Path, typer.Option("--out", help="The workbook to write (.xlsx).")]
WithServiceOption = Annotated[
    bool,
    typer.Option(
        help="Read the organization's facilities and reference lists from the service "
        "(EMISSIONS_* settings) for the dropdowns."
    ),
]


@dataclass(frozen=True)
class TemplateCommand:
    """What ``emissions-etl template`` was given, in the order ``--help`` lists it."""

    names: NamesArgument
    out_file: OutFileOption
    with_service: WithServiceOption = True

    def specs(self) -> list[ResourceSpec]:
        """The resources named, in their order; ValueError for a name no resource has."""
        from emissions_etl.resources import resource_spec

        return [resource_spec(name) for name in self.names]


@options_command(TemplateCommand)
def template_command(command: TemplateCommand) -> None:
    """Write a workbook a person can fill in: a sheet per resource named (headers, dropdowns),
    and an About sheet. Filled in, it loads as it is: each sheet to its resource."""
    from emissions_etl.errors import EmissionsEtlError
    from emissions_etl.templates import write_templates_for

    try:
        specs = command.specs()
        written = write_templates_for(specs, command.out_file, with_service=command.with_service)
    except ValueError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
    out.print(f"template for {', '.join(spec.name for spec in specs)} written to {written}")
