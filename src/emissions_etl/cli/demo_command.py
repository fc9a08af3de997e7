"""``emissions-etl demo``: a sandbox, the nightly flow over the sample inbox and what landed
(``cli.demo`` runs it), its options made into one typed object at the edge (``DemoCommand``;
registered by ``cli.main``). Its exit codes: ``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from emissions_etl.cli.consolidation_option import ConsolidationOption
from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.terminal import fail, out

WorkdirOption = Annotated[
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
]
InboxOption = Annotated[
    Path | None,
    typer.Option(
        envvar="EMISSIONS_DEMO_INBOX",
        show_envvar=True,
        metavar="DIR",
        help="Folder of files to load (default: the sample inbox installed with "
        "emissions-etl; sample_data/inbox in a checkout).",
    ),
]


@dataclass(frozen=True)
class DemoCommand:
    """What ``emissions-etl demo`` was given, in the order ``--help`` lists it."""

    workdir: WorkdirOption = Path("demo-output")
    inbox: InboxOption = None
    consolidation: ConsolidationOption = None


@options_command(DemoCommand)
def demo_command(command: DemoCommand) -> None:
    """Start a sandbox, run the nightly flow over the sample inbox, and print what landed: from
    any folder, with nothing but the installed package."""
    from emissions_etl.cli.consolidation_option import consolidation_approach
    from emissions_etl.cli.demo import run_demo
    from emissions_etl.errors import ConfigurationError, EmissionsEtlError, InputError

    try:
        approach = consolidation_approach(command.consolidation)
    except (ConfigurationError, ValueError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    try:
        run_demo(workdir=command.workdir, inbox=command.inbox, console=out,
                 consolidation=approach)  # fmt: skip
    except (InputError, ConfigurationError) as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_FAILED) from None
