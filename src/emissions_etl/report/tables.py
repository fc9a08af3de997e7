"""The report's HTML tables: last runs (coloured by outcome), latest rejects, largest records.

The cells are values (escaped by the templates' autoescape, missing as a dash) or ``Markup``
the macros of ``blocks.html.j2`` made (a file's name with its path in a tooltip, a resource's
dot, an outcome's badge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

import pandas as pd
from markupsafe import Markup

from emissions_etl.report import numbers
from emissions_etl.report.colours import outcome_colour, resource_colour, resource_label
from emissions_etl.report.templating import blocks

#: Long messages and errors are cut to this many characters in a cell (the title keeps all).
MAX_CELL_CHARS = 160

#: A cell: a value shown as text, or Markup a macro made.
Cell = str | Markup


@dataclass(frozen=True)
class Row:
    """A table row: its cells, a class, and the colour of its left edge (none when empty)."""

    cells: Sequence[Cell]
    css_class: str = ""
    edge: str = ""


def text(value: object) -> str:
    """A data value as text (the templates escape it), missing as a dash."""
    return numbers.MISSING if numbers.is_missing(value) else str(value)


def file_cell(path: object) -> Cell:
    """The file name, with the path as written in a tooltip."""
    if numbers.is_missing(path):
        return numbers.MISSING
    name = PurePosixPath(str(path).replace("\\", "/")).name or str(path)
    return blocks.titled(name, str(path))


def long_text_cell(value: object) -> Cell:
    """Text cut to MAX_CELL_CHARS, the whole of it in a tooltip."""
    if numbers.is_missing(value):
        return numbers.MISSING
    whole = str(value)
    if len(whole) <= MAX_CELL_CHARS:
        return whole
    return blocks.titled(whole[: MAX_CELL_CHARS - 1] + "\u2026", whole)


def resource_cell(resource: object) -> Cell:
    """The resource's name after a dot of its chart colour."""
    if numbers.is_missing(resource):
        return numbers.MISSING
    return blocks.resource(resource_label(str(resource)), resource_colour(str(resource)))


def outcome_badge(outcome: object, count: int | None = None) -> Markup:
    """A run outcome as a coloured badge (``dry_run`` reads ``dry run``)."""
    name = "unknown" if numbers.is_missing(outcome) else str(outcome)
    prefix = f"{count:,} " if count is not None else ""
    return blocks.badge(name, name.replace("_", " "), outcome_colour(name), prefix)


def runs_table(last_runs: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """The latest load runs, newest first, each row edged in its outcome's colour."""
    rows = []
    for run in last_runs.to_dict("records"):
        co2e, held = (
            run[name] / divisor if not numbers.is_missing(run.get(name)) else None
            for name in ("co2e_kg", "co2e_in_service_kg")
        )
        rows.append(
            Row(
                edge=outcome_colour(str(run["outcome"])),
                cells=[
                    blocks.when(numbers.instant(run["started_at"], zone=False)),
                    resource_cell(run["resource"]),
                    file_cell(run["source"]),
                    outcome_badge(run["outcome"]),
                    numbers.decimal(run["duration_s"], 1),
                    numbers.count(run["rows_read"]),
                    numbers.count(run["rows_rejected"]),
                    numbers.count(run["rows_unchanged"]),
                    numbers.count(run["rows_loaded"]),
                    numbers.count(run["rows_failed"]),
                    numbers.decimal(co2e, 2),
                    numbers.decimal(held, 2),
                    long_text_cell(run["error"]),
                ],
            )
        )
    # The figures and names of the runs' own summaries (loading.figures): co2e loaded by the
    # run, and the co2e the file's records hold now (on its latest run); none for resources
    # whose co2e sums other records'.
    headers = ["started (UTC)", "resource", "file", "outcome", "seconds", "read", "rejected",
               "unchanged", "loaded", "failed", f"co2e loaded ({unit})",
               f"co2e in the service ({unit})", "error"]  # fmt: skip
    return data_table("runs", headers, rows, numeric_from=4, numeric_to=11)


def rejects_table(latest_rejects: pd.DataFrame) -> Markup:
    """The most recent rejected cells: where they are, what they held, what to fix."""
    rows = [
        Row(
            [
                file_cell(reject["file"]),
                text(reject["sheet"]),
                numbers.count(reject["row"]),
                text(reject["column"]),
                long_text_cell(reject["value"]),
                blocks.code(text(reject["code"])),
                long_text_cell(reject["message"]),
            ],
        )
        for reject in latest_rejects.to_dict("records")
    ]
    headers = ["file", "sheet", "row", "column", "value", "code", "message"]
    return data_table("rejects", headers, rows, numeric_from=2, numeric_to=2)


def records_table(top_records: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """The records with the largest co2e, with the source row to look at."""
    rows = [
        Row(
            [
                resource_cell(record["resource"]),
                file_cell(record["source_file"]),
                text(record["source_sheet"]),
                numbers.count(record["source_row"]),
                text(record["source_key"]),
                text(record["facility"]),
                text(numbers.day(record["activity_date"])),
                numbers.decimal(record["co2e_kg"] / divisor, 2),
            ],
        )
        for record in top_records.to_dict("records")
    ]
    headers = ["resource", "file", "sheet", "row", "source key", "facility", "activity date",
               f"co2e ({unit})"]  # fmt: skip
    return data_table("records", headers, rows, numeric_from=7, numeric_to=7)


def data_table(
    name: str,
    headers: Sequence[str],
    rows: Sequence[Row],
    *,
    numeric_from: int,
    numeric_to: int,
) -> Markup:
    """A table whose columns ``numeric_from..numeric_to`` are right-aligned numbers."""
    return blocks.data_table(name, headers, rows, numeric_from, numeric_to)
