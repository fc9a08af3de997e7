"""The report page: headline, charts and tables in one self-contained HTML document.

plotly.js is inlined once in the head (only when the page has a chart) and a Content Security
Policy forbids the page any network request, so it opens the same on a laptop on a train.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from emissions_etl import __version__
from emissions_etl.report import charts, numbers, tables
from emissions_etl.report.cards import card, empty
from emissions_etl.report.coverage_section import coverage_section
from emissions_etl.report.headline import activity_card, total_card
from emissions_etl.report.inventory_section import inventory_sections
from emissions_etl.report.queries import LAST_RUNS, TOP_RECORDS, ReportData
from emissions_etl.report.style import PAGE_CSS
from emissions_etl.report.tables import outcome_badge, text
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
    """The page: a "nothing loaded yet" note for an empty warehouse, else every section."""
    if data.is_empty:
        body = _nothing_loaded()
        chart_count = 0
    else:
        sections, chart_count = _sections(data)
        body = _headline(data) + sections
    script = f"<script>{charts.plotly_bundle()}</script>\n" if chart_count else ""
    stamp = numbers.instant(generated_at)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">
<meta name="generator" content="emissions-etl {text(__version__)}">
<title>{TITLE} \u00b7 {text(warehouse_name)}</title>
<style>{PAGE_CSS}</style>
{script}</head>
<body>
<header class="page-head">
<h1>{TITLE}</h1>
<p class="meta">warehouse <code>{text(warehouse_name)}</code> \u00b7 generated
<time id="generated-at" datetime="{generated_at.isoformat()}">{stamp}</time></p>
</header>
<main>
{body}
</main>
<footer>emissions-etl {text(__version__)} \u00b7 co2e as the service calculated it, for the
records it holds now \u00b7 timestamps in UTC</footer>
</body>
</html>
"""
    return RenderedPage(page, chart_count)


def _nothing_loaded() -> str:
    return (
        '<section class="card nothing" id="nothing-loaded"><h2>Nothing is loaded yet</h2>'
        "<p>This warehouse holds no records, load runs or rejects. Load files with "
        "<code>emissions-etl load FILE</code> (or the nightly flow), then run "
        "<code>emissions-etl report</code> again.</p></section>"
    )


def _headline(data: ReportData) -> str:
    h = data.headline
    last_run = ""
    if not data.last_runs.empty:
        run = data.last_runs.iloc[0]
        last_run = (
            f"last {text(numbers.instant(run['started_at']))} {outcome_badge(run['outcome'])}"
        )
    stats = [
        total_card(data),
        activity_card(data),
        (
            "records",
            "Records",
            numbers.count(h["records"]),
            f"{numbers.count(h['calculated'])} calculated \u00b7 {numbers.count(h['errors'])} "
            f"error \u00b7 {numbers.count(h['pending'])} pending" + _aggregates_note(h),
        ),
        (
            "date-range",
            "Activity dates",
            f"{numbers.day(h['first_date'])} \u2192 {numbers.day(h['last_date'])}",
            f"{numbers.count(h['resources'])} resource(s)",
        ),
        ("runs", "Load runs", numbers.count(data.runs), last_run),
        (
            "open-rejects",
            "Rejected cells",
            numbers.count(data.open_rejects),
            "in the latest run of each file",
        ),
    ]
    cards = "\n".join(
        f'<div class="stat" id="{key}"><div class="label">{label}</div>'
        f'<div class="value{" range" if key == "date-range" else ""}">{value}</div>'
        f'<div class="sub">{sub}</div></div>'
        for key, label, value, sub in stats
    )
    return f'<section class="headline" id="headline">\n{cards}\n</section>\n'


def _aggregates_note(headline: pd.Series) -> str:
    """The aggregate resources carry sums of other records' co2e: say they are left out of
    every figure, so the total is not read as an undercount."""
    aggregates = int(headline["aggregates"])
    if not aggregates:
        return ""
    return (
        f'<br><span title="{aggregates_in_words().capitalize()}: their co2e is the sum of other '
        f"records' co2e\">{aggregates:,} aggregate records not added</span>"
    )


def _sections(data: ReportData) -> tuple[str, int]:
    """Every section after the headline, and how many charts they hold."""
    parts = [
        inventory_sections(data.inventory, data.inventory_note, data.restatement),
        (coverage_section(data.coverage, data.coverage_note), 0),
        _co2e_sections(data),
        _runs_section(data),
        _rejects_sections(data),
    ]
    return "".join(html for html, _ in parts), sum(count for _, count in parts)


def _co2e_sections(data: ReportData) -> tuple[str, int]:
    """co2e by month, by facility, by source file, and the largest records."""
    if data.by_facility.empty:
        return card("co2e", "", empty("No record has a calculated co2e yet.")), 0
    unit, divisor = numbers.chart_unit(data.co2e_kg)
    undated = int(data.headline["undated"])
    month_hint = "Stacked by resource, by the records' activity month." + (
        f" Records without an activity date ({undated:,}) are not shown." if undated else ""
    )
    if data.by_month.empty:
        by_month, month_charts = empty("No record with co2e has an activity date."), 0
    else:
        by_month, month_charts = charts.month_chart(data.by_month, unit, divisor), 1
    html = (
        card("co2e by month and resource", month_hint, by_month, section_id="by-month")
        + '<div class="grid">\n'
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
        + "</div>\n"
        + card(
            "Largest records",
            f"The {TOP_RECORDS} records with the most co2e, and the row they came from.",
            tables.records_table(data.top_records, unit, divisor),
            section_id="top-records",
        )
    )
    return html, month_charts + 2


def _runs_section(data: ReportData) -> tuple[str, int]:
    """The last runs as a table coloured by outcome, after a count of every outcome."""
    if data.last_runs.empty:
        return card("Last runs", "", empty("No load run yet.")), 0
    unit, divisor = numbers.chart_unit(data.co2e_kg)
    body = _outcome_badges(data) + tables.runs_table(data.last_runs, unit, divisor)
    hint = f"The {LAST_RUNS} most recent load runs, newest first."
    return card("Last runs", hint, body, section_id="last-runs"), 0


def _rejects_sections(data: ReportData) -> tuple[str, int]:
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


def _outcome_badges(data: ReportData) -> str:
    badges = " ".join(
        outcome_badge(row["outcome"], int(row["runs"]))
        for row in data.run_outcomes.to_dict("records")
    )
    return f'<p class="badges" id="run-outcomes">All runs: {badges}</p>'
