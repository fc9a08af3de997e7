"""The report's GHG inventory: the ESRS E1-6 table, the scopes by month, and data quality per
inventory line.

Tonnes with one decimal, as the disclosure prints them; every value from the warehouse is
escaped by the templates (the hints' prose is in ``templates/hints.html.j2``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pandas as pd
from markupsafe import Markup

from emissions_etl.inventory import Inventory, Restatement
from emissions_etl.inventory.esrs import MARKET_BASED_NOTE
from emissions_etl.inventory.restatement import CHANGES
from emissions_etl.inventory.table import ESTIMATED_HEADER, estimated_cells
from emissions_etl.report import charts, numbers
from emissions_etl.report.cards import card, empty
from emissions_etl.report.tables import Cell, Row, data_table, file_cell, resource_cell, text
from emissions_etl.report.templating import blocks, hints
from emissions_etl.resources import aggregates_in_words

#: Lines shown empty on purpose: their figure exists in the disclosure, not in the service.
_NOT_GIVEN = frozenset({"scope_2_market", "total_market"})
_COUNTS = ("records", "records_calculated", "records_pending", "records_error")
_RESTATED = ("filed (t)", "now (t)", "difference (t)")
#: Changed records the restatement's table shows; the inventory file lists them all.
CHANGES_SHOWN = 50


def inventory_sections(
    inventory: Inventory | None, note: str = "", restatement: Restatement | None = None
) -> tuple[Markup, int]:
    """The GHG inventory as ESRS E1-6 lays it out (its years side by side), its restatement
    against a filed one, its scopes by month, its data quality; or ``note``, why there is
    none."""
    title = "GHG inventory (ESRS E1-6)"
    if inventory is None:
        return card(title, "", empty(note), section_id="ghg-inventory"), 0
    approach = inventory.approach.replace("_", " ")
    hint = hints.inventory(approach, aggregates_in_words().capitalize(), _period(inventory),
                           _estimated_hint(inventory))  # fmt: skip
    table = esrs_table(inventory.lines, inventory.comparison, estimated=inventory.with_estimates)
    html = card(title, hint, table, section_id="ghg-inventory")
    if restatement is not None:
        html += restatement_section(restatement)
    charts_drawn = 0
    by_month: Markup
    if inventory.by_month.dropna(subset=["month", "scope"]).empty:
        by_month = empty("No record with co2e in a scope has an activity date.")
    else:
        unit, divisor = numbers.chart_unit(float(inventory.line("total_location")["co2e_kg"]))
        by_month, charts_drawn = charts.scopes_chart(inventory.by_month, unit, divisor), 1
    html += card(
        "Scopes by month",
        "co2e of Scopes 1, 2 and 3 by the records' activity month (records outside the scopes "
        "or without a date are not drawn).",
        by_month,
        section_id="scopes-by-month",
    )
    html += card(
        "Data quality by inventory line",
        "Records calculated, still pending (the service has not calculated them yet) and in "
        "error (it could not), by line and resource; rows rejected are the resource's rows "
        "still rejected in the latest run of each file: a rejected row never became a record, "
        "so a resource on two lines shows them on both.",
        quality_table(inventory.quality),
        section_id="inventory-quality",
    )
    return html, charts_drawn


def _period(inventory: Inventory) -> Markup:
    """Which years the table shows."""
    if inventory.year is None:
        return hints.every_year()
    beside = ", ".join(
        f"{c.year}{' (base year)' if c.is_base else ''}"
        f"{'' if c.has_records else ': no record, left empty'}"
        for c in inventory.compared[:-1]
    )
    return hints.reporting_year(inventory.year, beside)


def _estimated_hint(inventory: Inventory) -> str | Markup:
    if not inventory.with_estimates:
        return ""
    when = f"{inventory.estimates_as_of:%Y-%m-%d}" if inventory.estimates_as_of else "today"
    return hints.estimated(when)


def esrs_table(
    lines: pd.DataFrame, comparison: pd.DataFrame | None = None, *, estimated: bool = False
) -> Markup:
    """One row per ESRS E1-6 line, classed by its kind (``line-scope_3_category`` ...): its
    co2e in tonnes (of each year side by side, and the change, with ``comparison``), what is
    estimated of it (with ``estimated``) and its records."""
    figures = (
        ["co2e (t)"] if comparison is None
        else [c for c in comparison.columns if c not in ("kind", "line")]
    )  # fmt: skip
    values = lines[["co2e_t"]] if comparison is None else comparison[figures]
    rows = []
    for line, shown in zip(lines.to_dict("records"), values.itertuples(index=False), strict=True):
        label: Cell = text(line["line"])
        if line["kind"] in _NOT_GIVEN:
            label = blocks.titled(f"{label} (not calculated)", MARKET_BASED_NOTE)
        rows.append(
            Row(
                css_class=f"line-{text(line['kind'])}",
                cells=[
                    label,
                    *(numbers.decimal(value, 1) for value in shown),
                    *(_estimated_cells(line) if estimated else []),
                    *(numbers.count(line[name]) for name in _COUNTS),
                ],
            )
        )
    headers = ["line", *figures, *(ESTIMATED_HEADER if estimated else ()), "records",
               "calculated", "pending", "errors"]  # fmt: skip
    return data_table("inventory", headers, rows, numeric_from=1, numeric_to=len(headers) - 1)


def _estimated_cells(line: Mapping[Hashable, object]) -> list[str]:
    tonnes, share = estimated_cells(line["estimated_kg"], line["co2e_kg"])
    return [numbers.decimal(tonnes, 1), numbers.decimal(share, 1)]


def restatement_section(restatement: Restatement) -> Markup:
    """The filed inventory beside the inventory now, line by line, and the records changed
    since (the first ``CHANGES_SHOWN``; ``inventory --against`` writes them all)."""
    filed = restatement.filed
    rows = [
        Row([text(line["line"]), *(numbers.decimal(line[c], 1) for c in _RESTATED)])
        for line in restatement.lines.to_dict("records")
    ]
    table = data_table("restatement", ["line", *_RESTATED], rows, numeric_from=1, numeric_to=3)
    changes = restatement.records.head(CHANGES_SHOWN)
    counts = ", ".join(f"{restatement.count(c):,} {c}" for c in CHANGES)
    changed = [Row(_changed_cells(record), css_class=f"change-{text(record['change'])}")
               for record in changes.to_dict("records")]  # fmt: skip
    headers = ["change", "line", "resource", "service id", "co2e when filed (kg)", "co2e (kg)",
               "file", "sheet", "row"]  # fmt: skip
    hint = hints.restatement(
        text(filed.filed_id), text(filed.year), text(filed.approach.replace("_", " ")),
        text(numbers.instant(filed.filed_at)), text(filed.filed_by), counts, len(changes),
        len(restatement.records),
    )  # fmt: skip
    body = table + (
        data_table("restated-records", headers, changed, numeric_from=4, numeric_to=5)
        if changed else empty("No record was added, removed or recalculated since it was filed.")
    )  # fmt: skip
    if filed.estimates_as_of is not None:
        body += _estimates_table(restatement)
    return card("Restatement", hint, body, section_id="restatement")


def _estimates_table(restatement: Restatement) -> Markup:
    """The estimates the filed inventory counted, and what became of each since."""
    rows = [
        Row([text(e["change"]), resource_cell(e["resource"]), text(e["entity"]),
             text(e["month"]), numbers.decimal(e["estimate_kg when filed"], 2),
             numbers.decimal(e["co2e_kg now"], 2), numbers.decimal(e["estimate_kg now"], 2)],
            css_class=f"estimate-{text(e['change']).replace(' ', '-')}")
        for e in restatement.estimates.head(CHANGES_SHOWN).to_dict("records")
    ]  # fmt: skip
    headers = ["estimate", "resource", "entity", "month", "estimated when filed (kg)",
               "co2e now (kg)", "estimated now (kg)"]  # fmt: skip
    return data_table("restated-estimates", headers, rows, numeric_from=4, numeric_to=6)


def _changed_cells(record: Mapping[Hashable, object]) -> list[Cell]:
    """A changed record's cells: how, its line (as filed, for a removed one), its figures and
    its row."""
    line = record["line when filed"] if record["change"] == "removed" else record["line"]
    return [
        text(record["change"]), text(line), resource_cell(record["resource"]),
        text(record["service_id"]), numbers.decimal(record["co2e_kg when filed"], 2),
        numbers.decimal(record["co2e_kg"], 2), file_cell(record["file"]), text(record["sheet"]),
        numbers.count(record["row"]),
    ]  # fmt: skip


def quality_table(quality: pd.DataFrame) -> Markup:
    """Records by inventory line and resource (calculated, pending, errors) and the resource's
    rows still rejected."""
    rows = [
        Row(
            [
                text(line_label(row)),
                resource_cell(row["resource"]),
                *(
                    numbers.count(row[name])
                    for name in (
                        "records",
                        "records_calculated",
                        "records_pending",
                        "records_error",
                        "rows_rejected",
                    )
                ),
            ],  # fmt: skip
        )
        for row in quality.to_dict("records")
    ]
    headers = ["line", "resource", "records", "calculated", "pending", "errors", "rows rejected"]
    return data_table("inventory-quality", headers, rows, numeric_from=2, numeric_to=6)


def line_label(row: Mapping[Hashable, object]) -> str:
    """``Scope 1``, ``Scope 3 · 5 Waste generated in operations``, or why there is no line."""
    scope, category = row["scope"], row["category"]
    if numbers.is_missing(scope):
        return "Not in the total" if int(str(row["records"])) else "(no record loaded)"
    if numbers.is_missing(category):
        return f"Scope {scope}"
    return f"Scope {scope} \u00b7 {category} {row['category_name']}"
