"""Command-line options for how processes using one API key share the service's limits (the
settings ``limits_file`` and ``shared_limits``), for ``load`` and ``prefect-setup``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class SharedLimits(StrEnum):
    """Values of ``--shared-limits`` (the setting ``Settings.shared_limits``)."""

    machine = "machine"
    prefect = "prefect"


LimitsFileOption = Annotated[
    Path | None,
    typer.Option(
        "--limits-file",
        envvar="EMISSIONS_LIMITS_FILE",
        show_envvar=True,
        help="SQLite file through which every process using the API key on this machine shares "
        "the service's limits (default: ~/.cache/emissions-etl/limits.sqlite3).",
    ),
]
SharedLimitsOption = Annotated[
    SharedLimits | None,
    typer.Option(
        "--shared-limits",
        envvar="EMISSIONS_SHARED_LIMITS",
        show_envvar=True,
        help="machine: processes on this machine share the limits (through --limits-file); "
        "prefect: workers on several machines too, through the Prefect server's global "
        "concurrency limits that prefect-setup creates (default: machine).",
    ),
]
