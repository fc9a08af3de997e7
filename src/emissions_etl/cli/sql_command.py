"""``emissions-etl sql``: read-only SQL over the warehouse for analysts (registered by
``cli.main``): the DuckDB file opened read-only, or the DuckLake attached read-only, as plain
DuckDB would; the rows are fetched and printed a chunk at a time, so a result of any size
prints (the table format shows the first ``TABLE_ROWS``). Its exit codes:
``exit_codes.COMMAND_EXITS``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from emissions_etl.cli.exit_codes import EXIT_FAILED, EXIT_UNUSABLE
from emissions_etl.cli.options_object import options_command
from emissions_etl.cli.terminal import fail, out
from emissions_etl.cli.warehouse_options import WarehouseOptions

if TYPE_CHECKING:
    import pandas as pd


#: Rows the table format shows (people read a screen, not a million rows).
TABLE_ROWS = 1_000


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


QueryArgument = Annotated[str, typer.Argument(help='The query, e.g. "SELECT * FROM emissions".')]
FormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--format",
        help="table (for people), csv (with a header), or json (one object per row, keyed "
        "by column name, one row per line).",
    ),
]


@dataclass(frozen=True)
class SqlCommand:
    """What ``emissions-etl sql`` was given, in the order ``--help`` lists it."""

    query: QueryArgument
    warehouse: WarehouseOptions = WarehouseOptions()
    output: FormatOption = OutputFormat.table


@options_command(SqlCommand)
def sql_command(command: SqlCommand) -> None:
    """Run a read-only query over the warehouse (the file, or the lake) and print its rows."""
    from emissions_etl.errors import EmissionsEtlError, WarehouseMemoryError

    try:
        chunks = command.warehouse.settings().open_warehouse().stream(command.query)
        first = next(chunks)  # the query runs here: its errors before any output
        if command.output is OutputFormat.csv:
            _print_csv(first, chunks)
        elif command.output is OutputFormat.json:
            _print_json(first, chunks)
        else:
            _print_table(first, chunks)
    except WarehouseMemoryError as error:
        raise fail(str(error), EXIT_FAILED) from None
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None


def _print_csv(first: pd.DataFrame, chunks: Iterator[pd.DataFrame]) -> None:
    """The rows as csv, a chunk at a time (a result of any size, never whole in memory)."""
    import sys

    first.to_csv(sys.stdout, index=False)
    for chunk in chunks:
        chunk.to_csv(sys.stdout, index=False, header=False)


def _print_json(first: pd.DataFrame, chunks: Iterator[pd.DataFrame]) -> None:
    """One JSON object a row, keyed by column name, a chunk at a time."""
    import sys

    import orjson

    for frame in itertools.chain([first], chunks):
        for row in frame.astype(object).where(frame.notna(), None).to_dict("records"):
            sys.stdout.write(orjson.dumps(row, default=str).decode() + "\n")


def _print_table(first: pd.DataFrame, chunks: Iterator[pd.DataFrame]) -> None:
    """A table for people: its first ``TABLE_ROWS`` rows, and how many more there are."""
    from rich.table import Table

    table = Table(*[str(column) for column in first.columns])
    shown = 0
    total = 0
    for frame in itertools.chain([first], chunks):
        total += len(frame)
        room = frame.head(max(TABLE_ROWS - shown, 0))
        for row in room.astype(object).where(room.notna(), None).itertuples(index=False):
            table.add_row(*("" if value is None else str(value) for value in row))
        shown += len(room)
    out.print(table)
    more = (
        f" ({total - shown:,} more not shown: --format csv prints them all)"
        if total > shown
        else ""
    )
    out.print(f"{total:,} row(s){more}", highlight=False)
