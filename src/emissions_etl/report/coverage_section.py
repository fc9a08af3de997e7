"""The report's coverage: a heat map of what was expected, entity by entity and month by month,
coloured by what arrived, what is missing and what is overdue, with the gaps first.

Every value from the warehouse is escaped by the templates (``hints.coverage_table``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from markupsafe import Markup

from emissions_etl.coverage import LEGEND, Coverage, matrix, months_of
from emissions_etl.coverage.matrix import MISSING, NOT_EXPECTED, OVERDUE, RECEIVED
from emissions_etl.report import numbers
from emissions_etl.report.cards import card, empty
from emissions_etl.report.tables import Cell, resource_cell, text
from emissions_etl.report.templating import blocks, hints

#: Rows the heat map shows (the entities with gaps first); ``emissions-etl coverage`` has all.
MAX_ROWS = 40
#: A mark's cell class and what it means.
CELLS = {
    RECEIVED: ("cov-received", "received"),
    OVERDUE: ("cov-overdue", "missing, overdue"),
    MISSING: ("cov-missing", "missing, not yet due"),
    NOT_EXPECTED: ("cov-none", "not expected"),
}


@dataclass(frozen=True)
class _MapRow:
    resource: Cell
    entity: str
    cells: list[Markup]


def coverage_section(coverage: Coverage | None, note: str = "") -> Markup:
    """The heat map of ``coverage``, or ``note``: why the page has none."""
    title = "Coverage"
    if coverage is None:
        return card(title, "", empty(note), section_id="coverage")
    if coverage.rows.empty:
        nothing = empty("Nothing is expected yet: no record of a resource with coverage is "
                        "dated in that year.")  # fmt: skip
        return card(title, _hint(coverage), nothing, section_id="coverage")
    months = months_of(coverage.rows)
    rows = sorted(
        matrix(coverage.rows, months),
        key=lambda row: (-row.marks.count(OVERDUE), -row.marks.count(MISSING)),
    )
    shown = [
        _MapRow(resource_cell(row.resource), text(row.entity),
                [_cell(mark, month) for mark, month in zip(row.marks, months, strict=True)])
        for row in rows[:MAX_ROWS]
    ]  # fmt: skip
    more = "" if len(rows) == len(shown) else hints.coverage_more(len(rows) - len(shown))
    table = hints.coverage_table(months, shown, more)
    return card(title, _hint(coverage), table, section_id="coverage")


def _cell(mark: str, month: dt.date) -> Markup:
    name, meaning = CELLS[mark]
    return blocks.coverage_cell(name, f"{month:%Y-%m}: {meaning}", mark)


def _hint(coverage: Coverage) -> Markup:
    when = coverage.year if coverage.year is not None else "every year"
    missing, overdue = len(coverage.gaps), len(coverage.overdue)
    estimated = numbers.decimal(coverage.estimated_kg / 1000, 1)
    return hints.coverage(text(when), f"{coverage.as_of:%Y-%m-%d}", LEGEND,
                          numbers.count(len(coverage.rows)), numbers.count(missing),
                          numbers.count(overdue), estimated)  # fmt: skip
