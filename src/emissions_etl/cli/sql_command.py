"""``emissions-etl sql``: read-only SQL over the warehouse for analysts (registered by
``cli.main``): the DuckDB file opened read-only, or the DuckLake attached read-only, as plain
DuckDB would. Exit codes: 0 printed, 2 the query or the warehouse cannot be used."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from emissions_etl.cli.terminal import EXIT_UNUSABLE, fail, out
from emissions_etl.cli.warehouse_options import WarehouseDataOption, WarehouseOption


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def sql_command(
    query: Annotated[str, typer.Argument(help="The query, e.g. \"SELECT * FROM emissions\".")],
    warehouse: WarehouseOption = None,
    warehouse_data: WarehouseDataOption = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="table (for people), csv (with a header), or json (one object per row, keyed "
            "by column name, one row per line).",
        ),
    ] = OutputFormat.table,
) -> None:
    """Run a read-only query over the warehouse (the file, or the lake) and print its rows."""
    import sys

    import orjson

    from emissions_etl.errors import EmissionsEtlError
    from emissions_etl.settings import Settings

    given = {"warehouse": warehouse, "warehouse_data": warehouse_data}
    try:
        settings = Settings(**{name: value for name, value in given.items() if value is not None})
        frame = settings.open_warehouse().query(query)
    except EmissionsEtlError as error:
        raise fail(str(error), EXIT_UNUSABLE) from None
    if output is OutputFormat.csv:
        frame.to_csv(sys.stdout, index=False)
    elif output is OutputFormat.json:
        for row in frame.astype(object).where(frame.notna(), None).to_dict("records"):
            sys.stdout.write(orjson.dumps(row, default=str).decode() + "\n")
    else:
        _print_table(frame)


def _print_table(frame: object) -> None:
    import pandas as pd
    from rich.table import Table

    assert isinstance(frame, pd.DataFrame)
    table = Table(*[str(column) for column in frame.columns])
    for row in frame.astype(object).where(frame.notna(), None).itertuples(index=False):
        table.add_row(*("" if value is None else str(value) for value in row))
    out.print(table)
    out.print(f"{len(frame):,} row(s)", highlight=False)
