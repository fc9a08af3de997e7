"""Command-line options of the inventory's coverage, for ``coverage`` and ``report``: the date
it is read as of, the day a month's data is due, the expectations file (the settings
``due_day`` and ``expectations``), and ``--with-estimates`` for the commands that write the
inventory (``inventory``, ``file-inventory``, ``report``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="DATE",
        help="Read the coverage as of this day (YYYY-MM-DD): the months ended by then are "
        "expected, those past their due day overdue (default: today, UTC).",
    ),
]
DueDayOption = Annotated[
    int | None,
    typer.Option(
        "--due-day",
        envvar="EMISSIONS_DUE_DAY",
        show_envvar=True,
        min=1,
        max=31,
        metavar="N",
        help='A month\'s data is due on day N of the next month ("March by 10 April"; the last '
        "day of a shorter month); default: the expectations file's due_day, else 10.",
    ),
]
ExpectationsOption = Annotated[
    Path | None,
    typer.Option(
        "--expectations",
        envvar="EMISSIONS_EXPECTATIONS",
        show_envvar=True,
        metavar="FILE.toml",
        help="TOML file of what is expected beyond the defaults, per resource and entity "
        "(cadence, from, until, expected, estimate; due_day): stored in the warehouse for the "
        "organization, so the view coverage and the nightly read it too.",
    ),
]
WithEstimatesOption = Annotated[
    bool,
    typer.Option(
        "--with-estimates",
        help="Add the estimates of missing months (the warehouse's coverage, as of --as-of "
        "where the command takes it, else today) to their lines, under a column 'estimated "
        "(t)', with the share of each line estimated (estimated (%)).",
    ),
]


def as_of_date(text: str | None) -> dt.date | None:
    """The day ``--as-of`` gives (None when not given); ValueError for anything but a date."""
    if text is None or not text.strip():
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--as-of {text}: give a day such as 2026-04-10") from None
