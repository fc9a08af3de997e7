"""The report's coverage: a heat map of what was expected, entity by entity and month by month,
coloured by what arrived, what is missing and what is overdue, with the gaps first.

Every value from the warehouse goes through ``text()``.
"""

from __future__ import annotations

import datetime as dt

from emissions_etl.coverage import LEGEND, Coverage, matrix, months_of
from emissions_etl.coverage.matrix import MISSING, NOT_EXPECTED, OVERDUE, RECEIVED
from emissions_etl.report import numbers
from emissions_etl.report.cards import card, empty
from emissions_etl.report.tables import resource_cell, text

#: Rows the heat map shows (the entities with gaps first); ``emissions-etl coverage`` has all.
MAX_ROWS = 40
#: A mark's cell class and what it means.
CELLS = {
    RECEIVED: ("cov-received", "received"),
    OVERDUE: ("cov-overdue", "missing, overdue"),
    MISSING: ("cov-missing", "missing, not yet due"),
    NOT_EXPECTED: ("cov-none", "not expected"),
}


def coverage_section(coverage: Coverage | None, note: str = "") -> str:
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
    shown = rows[:MAX_ROWS]
    head = "".join(f'<th class="num">{month:%m}</th>' for month in months)
    body = "\n".join(
        f"<tr><td>{resource_cell(row.resource)}</td><td>{text(row.entity)}</td>"
        + "".join(_cell(mark, month) for mark, month in zip(row.marks, months, strict=True))
        + "</tr>"
        for row in shown
    )
    more = "" if len(rows) == len(shown) else (
        f'<p class="hint">{len(rows) - len(shown):,} more entities, with fewer gaps: '
        "<code>emissions-etl coverage</code> lists them all.</p>"
    )  # fmt: skip
    table = (
        '<div class="table-wrap"><table class="coverage"><thead><tr><th>resource</th>'
        f"<th>entity</th>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table></div>{more}"
    )
    return card(title, _hint(coverage), table, section_id="coverage")


def _cell(mark: str, month: dt.date) -> str:
    name, meaning = CELLS[mark]
    return f'<td class="cov {name}" title="{month:%Y-%m}: {meaning}">{mark}</td>'


def _hint(coverage: Coverage) -> str:
    when = coverage.year if coverage.year is not None else "every year"
    missing, overdue = len(coverage.gaps), len(coverage.overdue)
    estimated = numbers.decimal(coverage.estimated_kg / 1000, 1)
    return (
        f'Expected data of <strong id="coverage-year">{text(when)}</strong> as of '
        f"{text(f'{coverage.as_of:%Y-%m-%d}')}, entity by entity (a vehicle, a facility with "
        "wastes, an employee) or of the organization, month by month: "
        f"{text(LEGEND)}. <span id=\"coverage-counts\">{numbers.count(len(coverage.rows))} "
        f"expected, {numbers.count(missing)} missing ({numbers.count(overdue)} overdue)"
        f"</span>; the missing ones are estimated at {estimated} t co2e (in the inventory only "
        "with <code>--with-estimates</code>)."
    )
