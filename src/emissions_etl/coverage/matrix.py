"""The coverage as a matrix a person reads at a glance: one row per resource and entity, one
column per month, one mark a cell (a quarter's or a year's mark in each of its months)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: A cell's mark, and what it means.
RECEIVED, OVERDUE, MISSING, NOT_EXPECTED = "●", "✗", "○", "·"
LEGEND = (
    f"{RECEIVED} received  {OVERDUE} missing, overdue  {MISSING} missing, not yet due  "
    f"{NOT_EXPECTED} not expected"
)
#: The months a period of each cadence spans.
MONTHS_OF = {"monthly": 1, "quarterly": 3, "yearly": 12}
#: How the organization's own row is named (its ``entity`` is empty).
ORGANIZATION_ROW = "(organization)"


@dataclass(frozen=True)
class MatrixRow:
    """A resource's entity and its mark for each month of the matrix."""

    resource: str
    entity: str
    marks: tuple[str, ...]


def months_of(rows: pd.DataFrame) -> list[dt.date]:
    """Every month from the first period's to the last one's end."""
    if rows.empty:
        return []
    spans = _spans(rows).values()
    first = min(months[0] for months in spans)
    last = max(months[-1] for months in spans)
    return _range(first, last)


def _spans(rows: pd.DataFrame) -> dict[tuple[object, str], list[dt.date]]:
    """The months of each (period, cadence) the rows hold: a few dozen, whatever the rows."""
    pairs = rows[["month", "cadence"]].drop_duplicates()
    return {
        (month, str(cadence)): period_months(pd.Timestamp(month).date(), str(cadence))
        for month, cadence in zip(pairs["month"], pairs["cadence"], strict=True)
    }


def matrix(rows: pd.DataFrame, months: Sequence[dt.date]) -> list[MatrixRow]:
    """One ``MatrixRow`` per resource and entity of ``rows``, in their order (the marks set
    as one array: a warehouse's thousands of entities at once)."""
    if rows.empty:
        return []
    index = {month: n for n, month in enumerate(months)}
    spans = {key: [index[m] for m in span if m in index] for key, span in _spans(rows).items()}
    received, overdue = rows["status"] == "received", rows["overdue"].astype(bool)
    cells = pd.DataFrame({
        "entity": rows.groupby(["resource", "entity"], sort=False).ngroup().to_numpy(),
        "cell": [spans[(m, str(c))] for m, c in zip(rows["month"], rows["cadence"], strict=True)],
        "mark": np.where(received, RECEIVED, np.where(overdue, OVERDUE, MISSING)),
    }).explode("cell").dropna(subset=["cell"])  # fmt: skip
    names = rows[["resource", "entity"]].drop_duplicates()
    grid = np.full((len(names), len(months)), NOT_EXPECTED, dtype=object)
    grid[cells["entity"].to_numpy(int), cells["cell"].to_numpy(int)] = cells["mark"].to_numpy()
    return [MatrixRow(str(resource), str(entity) or ORGANIZATION_ROW, tuple(marks))
            for (resource, entity), marks in zip(names.itertuples(index=False), grid,
                                                 strict=True)]  # fmt: skip


def matrix_text(rows: pd.DataFrame) -> list[str]:
    """The matrix as lines of text, its columns aligned: a heading, then one line per resource
    and entity (thousands of entities print at once, as one text)."""
    months = months_of(rows)
    one_year = len({month.year for month in months}) == 1
    heads = [f"{m:%m}" if one_year else f"{m:%y-%m}" for m in months]
    found = matrix(rows, months)
    resources = max([len("resource"), *(len(r.resource) for r in found)])
    entities = max([len("entity"), *(len(r.entity) for r in found)])
    cells = [max(len(head), 2) for head in heads]

    def line(resource: str, entity: str, marks: Sequence[str]) -> str:
        shown = " ".join(m.center(width) for m, width in zip(marks, cells, strict=True))
        return f"{resource.ljust(resources)}  {entity.ljust(entities)}  {shown}".rstrip()

    return [line("resource", "entity", heads), *(line(r.resource, r.entity, r.marks)
                                                 for r in found)]  # fmt: skip


def period_label(month: object, cadence: str) -> str:
    """``2026-03``, ``2026 Q2`` or ``2026``."""
    day = pd.Timestamp(month)  # type: ignore[arg-type]
    if cadence == "quarterly":
        return f"{day.year} Q{(day.month - 1) // 3 + 1}"
    if cadence == "yearly":
        return str(day.year)
    return day.strftime("%Y-%m")


def period_months(month: dt.date, cadence: str) -> list[dt.date]:
    """The months of the period of ``cadence`` that starts at ``month``."""
    return [shift_month(month, n) for n in range(MONTHS_OF.get(cadence, 1))]


def shift_month(day: dt.date, months: int) -> dt.date:
    """The first day of the month ``months`` after (before, when negative) ``day``'s."""
    total = day.year * 12 + day.month - 1 + months
    return dt.date(total // 12, total % 12 + 1, 1)


def _range(first: dt.date, last: dt.date) -> list[dt.date]:
    months = [first]
    while months[-1] < last:
        months.append(shift_month(months[-1], 1))
    return months
