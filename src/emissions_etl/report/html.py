"""The report page: headline, charts and tables in one self-contained HTML document, from the
templates of ``templates/`` (``templating``: autoescape, the charts' data through ``|tojson``).

plotly.js is inlined once in the head (only when the page has a chart) and a Content Security
Policy forbids the page any network request, so it opens the same on a laptop on a train.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd
from markupsafe import Markup

from emissions_etl import __version__
from emissions_etl.report import charts, numbers, tables, templating
from emissions_etl.report.cards import card, empty
from emissions_etl.report.coverage_section import coverage_section
from emissions_etl.report.headline import activity_card, total_card
from emissions_etl.report.inventory_section import inventory_sections
from emissions_etl.report.queries import LAST_RUNS, TOP_RECORDS, ReportData
from emissions_etl.report.style import PAGE_CSS
from emissions_etl.report.tables import outcome_badge
from emissions_etl.report.templating import hints
from emissions_etl.resources import aggregates_in_words

TITLE = "Emissions report"
# Inline scripts and styles only; images as data: or blob: (plotly's PNG download).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:"
)


@dataclass(frozen=True)
class RenderedPage:
    """The page's HTML and how many plotly charts it holds."""

    html: str
    charts: int


def render(data: ReportData, *, warehouse_name: str, generated_at: dt.datetime) -> RenderedPage:
    """The page (``templates/page.html.j2``): a "nothing loaded yet" note for an empty
    warehouse, else the headline and every section."""
    sections, chart_count = (Markup(), 0) if data.is_empty else _sections(data)
    page = templating.render(
        "page.html.j2",
        title=TITLE,
        content_security_policy=CONTENT_SECURITY_POLICY,
        version=__version__,
        warehouse_name=warehouse_name,
        css=Markup(PAGE_CSS),  # the package's own stylesheet
        plotly=Markup(charts.plotly_bundle()) if chart_count else "",  # plotly.js, whole
        generated_at=generated_at,
        stamp=numbers.instant(generated_at),
        empty=data.is_empty,
        stats=[] if data.is_empty else _headline(data),
        sections=sections,
    )
    return RenderedPage(page, chart_count)


@dataclass(frozen=True)
class Stat:
    """A figure of the headline: its id, label, value and what it says below."""

    key: str
    label: str
    value: str | Markup
    sub: str | Markup


def _headline(data: ReportData) -> list[Stat]:
    h = data.headline
    last_run: str | Markup = ""
    if not data.last_runs.empty:
        run = data.last_runs.iloc[0]
        last_run = Markup("last {} {}").format(numbers.instant(run["started_at"]),
                                               outcome_badge(run["outcome"]))  # fmt: skip
    records = (
        f"{numbers.count(h['calculated'])} calculated \u00b7 {numbers.count(h['errors'])} "
        f"error \u00b7 {numbers.count(h['pending'])} pending"
    )
    return [
        Stat(*total_card(data)),
        Stat(*activity_card(data)),
        Stat("records", "Records", numbers.count(h["records"]),
             Markup("{}{}").format(records, _aggregates_note(h))),
        Stat("date-range", "Activity dates",
             f"{numbers.day(h['first_date'])} \u2192 {numbers.day(h['last_date'])}",
             f"{numbers.count(h['resources'])} resource(s)"),
        Stat("runs", "Load runs", numbers.count(data.runs), last_run),
        Stat("open-rejects", "Rejected cells", numbers.count(data.open_rejects),
             "in the latest run of each file"),
    ]  # fmt: skip


def _aggregates_note(headline: pd.Series) -> str | Markup:
    """The aggregate resources carry sums of other records' co2e: say they are left out of
    every figure, so the total is not read as an undercount."""
    aggregates = int(headline["aggregates"])
    if not aggregates:
        return ""
    return hints.aggregates_note(aggregates, aggregates_in_words().capitalize())


def _sections(data: ReportData) -> tuple[Markup, int]:
    """Every section after the headline, and how many charts they hold."""
    parts = [
        inventory_sections(data.inventory, data.inventory_note, data.restatement),
        (coverage_section(data.coverage, data.coverage_note), 0),
        _co2e_sections(data),
        _runs_section(data),
        _rejects_sections(data),
    ]
    return Markup("").join(html for html, _ in parts), sum(count for _, count in parts)


def _co2e_sections(data: ReportData) -> tuple[Markup, int]:
    """co2e by month, by facility, by source file, and the largest records."""
    if data.by_facility.empty:
        return card("co2e", "", empty("No record has a calculated co2e yet.")), 0
    unit, divisor = numbers.chart_unit(data.co2e_kg)
    undated = int(data.headline["undated"])
    month_hint = "Stacked by resource, by the records' activity month." + (
        f" Records without an activity date ({undated:,}) are not shown." if undated else ""
    )
    by_month: Markup
    if data.by_month.empty:
        by_month, month_charts = empty("No record with co2e has an activity date."), 0
    else:
        by_month, month_charts = charts.month_chart(data.by_month, unit, divisor), 1
    html = (
        card("co2e by month and resource", month_hint, by_month, section_id="by-month")
        + Markup('<div class="grid">\n')
        + card(
            "co2e by facility",
            "Largest first; the facility as the service or the source file names it.",
            charts.facility_chart(data.by_facility, unit, divisor),
            section_id="by-facility",
        )
        + card(
            "Top sources",
            "The source files whose records weigh most in co2e.",
            charts.sources_chart(data.top_sources, unit, divisor),
            section_id="top-sources",
        )
        + Markup("</div>\n")
        + card(
            "Largest records",
            f"The {TOP_RECORDS} records with the most co2e, and the row they came from.",
            tables.records_table(data.top_records, unit, divisor),
            section_id="top-records",
        )
    )
    return html, month_charts + 2


def _runs_section(data: ReportData) -> tuple[Markup, int]:
    """The last runs as a table coloured by outcome, after a count of every outcome."""
    if data.last_runs.empty:
        return card("Last runs", "", empty("No load run yet.")), 0
    unit, divisor = numbers.chart_unit(data.co2e_kg)
    body = _outcome_badges(data) + tables.runs_table(data.last_runs, unit, divisor)
    hint = f"The {LAST_RUNS} most recent load runs, newest first."
    return card("Last runs", hint, body, section_id="last-runs"), 0


def _rejects_sections(data: ReportData) -> tuple[Markup, int]:
    """Open rejects by code (a chart) and the latest of them (a table)."""
    if data.rejects_by_code.empty:
        message = "No open rejects: the latest run of every file was clean."
        return card("Rejects", "", empty(message)), 0
    shown = len(data.latest_rejects)
    total = int(data.latest_rejects["total"].iloc[0])
    html = card(
        "Rejects by code",
        "Rejected cells in the latest run of each file (earlier runs' rejects are history).",
        charts.rejects_chart(data.rejects_by_code),
        section_id="rejects-by-code",
    ) + card(
        "Latest rejects",
        f"The {shown} most recent of {total:,} rejected cells; "
        "the warehouse's rejects table has them all.",
        tables.rejects_table(data.latest_rejects),
        section_id="latest-rejects",
    )
    return html, 1


def _outcome_badges(data: ReportData) -> Markup:
    badges = [
        outcome_badge(row["outcome"], int(row["runs"]))
        for row in data.run_outcomes.to_dict("records")
    ]
    return hints.run_outcomes(badges)
