"""The report's HTML tables: last runs (coloured by outcome), latest rejects, largest records.

Every value from the warehouse goes through ``text()`` (HTML-escaped, missing as a dash);
only markup built here is left unescaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

import pandas as pd

from emissions_etl.report import numbers
from emissions_etl.report.colours import outcome_colour, resource_colour, resource_label

#: Long messages and errors are cut to this many characters in a cell (the title keeps all).
MAX_CELL_CHARS = 160


def text(value: Any) -> str:
    """A data value as escaped HTML text."""
    return numbers.MISSING if numbers.is_missing(value) else html.escape(str(value))


def file_cell(path: Any) -> str:
    """The file name, with the path as written in a tooltip."""
    if numbers.is_missing(path):
        return numbers.MISSING
    name = PurePosixPath(str(path).replace("\\", "/")).name or str(path)
    return f'<span title="{text(path)}">{text(name)}</span>'


def long_text_cell(value: Any) -> str:
    """Text cut to MAX_CELL_CHARS, the whole of it in a tooltip."""
    if numbers.is_missing(value):
        return numbers.MISSING
    value = str(value)
    if len(value) <= MAX_CELL_CHARS:
        return text(value)
    return f'<span title="{text(value)}">{text(value[: MAX_CELL_CHARS - 1])}\u2026</span>'


def resource_cell(resource: Any) -> str:
    """The resource's name after a dot of its chart colour."""
    if numbers.is_missing(resource):
        return numbers.MISSING
    colour = resource_colour(str(resource))
    return (
        f'<span class="dot" style="background:{colour}"></span>'
        f"{text(resource_label(str(resource)))}"
    )


def outcome_badge(outcome: Any, count: int | None = None) -> str:
    """A run outcome as a coloured badge (``dry_run`` reads ``dry run``)."""
    name = "unknown" if numbers.is_missing(outcome) else str(outcome)
    label = text(name.replace("_", " "))
    prefix = f"{count:,} " if count is not None else ""
    return (
        f'<span class="badge" data-outcome="{text(name)}" '
        f'style="background:{outcome_colour(name)}">{prefix}{label}</span>'
    )


def runs_table(last_runs: pd.DataFrame, unit: str, divisor: float) -> str:
    """The latest load runs, newest first, each row edged in its outcome's colour."""
    rows = []
    for run in last_runs.to_dict("records"):
        co2e, held = (
            run[name] / divisor if not numbers.is_missing(run.get(name)) else None
            for name in ("co2e_kg", "co2e_in_service_kg")
        )
        rows.append(
            (
                f' style="border-left-color:{outcome_colour(str(run["outcome"]))}"',
                [
                    f'<span class="when">{numbers.instant(run["started_at"], zone=False)}</span>',
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


def rejects_table(latest_rejects: pd.DataFrame) -> str:
    """The most recent rejected cells: where they are, what they held, what to fix."""
    rows = [
        (
            "",
            [
                file_cell(reject["file"]),
                text(reject["sheet"]),
                numbers.count(reject["row"]),
                text(reject["column"]),
                long_text_cell(reject["value"]),
                f"<code>{text(reject['code'])}</code>",
                long_text_cell(reject["message"]),
            ],
        )
        for reject in latest_rejects.to_dict("records")
    ]
    headers = ["file", "sheet", "row", "column", "value", "code", "message"]
    return data_table("rejects", headers, rows, numeric_from=2, numeric_to=2)


def records_table(top_records: pd.DataFrame, unit: str, divisor: float) -> str:
    """The records with the largest co2e, with the source row to look at."""
    rows = [
        (
            "",
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
    rows: Sequence[tuple[str, Sequence[str]]],
    *,
    numeric_from: int,
    numeric_to: int,
) -> str:
    """A table whose columns ``numeric_from..numeric_to`` are right-aligned numbers.

    Cells arrive as HTML already escaped; formatted numbers hold only digits, separators and
    a dash. A row's attributes (if any) start with a space.
    """

    def cell(tag: str, index: int, content: str) -> str:
        numeric = numeric_from <= index <= numeric_to
        return f"<{tag}{' class=num' if numeric else ''}>{content}</{tag}>"

    head = "".join(cell("th", i, text(h)) for i, h in enumerate(headers))
    body = "\n".join(
        f"<tr{attributes}>{''.join(cell('td', i, c) for i, c in enumerate(cells))}</tr>"
        for attributes, cells in rows
    )
    return (
        f'<div class="table-wrap"><table class="{name}">'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table></div>"
    )
