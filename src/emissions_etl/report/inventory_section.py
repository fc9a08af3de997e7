"""The report's GHG inventory: the ESRS E1-6 table, the scopes by month, and data quality per
inventory line.

Tonnes with one decimal, as the disclosure prints them; every value from the warehouse goes
through ``text()`` or a number formatter.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import pandas as pd

from emissions_etl.inventory import Inventory
from emissions_etl.inventory.esrs import MARKET_BASED_NOTE
from emissions_etl.report import charts, numbers
from emissions_etl.report.cards import card, empty
from emissions_etl.report.tables import data_table, resource_cell, text
from emissions_etl.resources import aggregates_in_words

#: Lines shown empty on purpose: their figure exists in the disclosure, not in the service.
_NOT_GIVEN = frozenset({"scope_2_market", "total_market"})


def inventory_sections(inventory: Inventory | None, note: str = "") -> tuple[str, int]:
    """The GHG inventory as ESRS E1-6 lays it out, its scopes by month, its data quality; or
    ``note``, why there is none."""
    title = "GHG inventory (ESRS E1-6)"
    if inventory is None:
        return card(title, "", empty(note), section_id="ghg-inventory"), 0
    approach = inventory.approach.replace("_", " ")
    hint = (
        f"Tonnes of co2e by scope and Scope 3 category, consolidation approach: "
        f'<strong id="consolidation-approach">{approach}</strong>. '
        f"{aggregates_in_words().capitalize()} are not added: their co2e sums the records "
        "counted here. "
        "Records no rule places in a scope follow the total with the reason; the last line is "
        "every activity record's co2e."
    )
    html = card(title, hint, esrs_table(inventory.lines), section_id="ghg-inventory")
    charts_drawn = 0
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


def esrs_table(lines: pd.DataFrame) -> str:
    """One row per ESRS E1-6 line, classed by its kind (``line-scope_3_category`` ...)."""
    rows = []
    for line in lines.to_dict("records"):
        label = text(line["line"])
        if line["kind"] in _NOT_GIVEN:
            label = f'<span title="{text(MARKET_BASED_NOTE)}">{label} (not calculated)</span>'
        rows.append(
            (
                f' class="line-{text(line["kind"])}"',
                [
                    label,
                    numbers.decimal(line["co2e_t"], 1),
                    *(
                        numbers.count(line[name])
                        for name in (
                            "records",
                            "records_calculated",
                            "records_pending",
                            "records_error",
                        )
                    ),
                ],  # fmt: skip
            )
        )
    headers = ["line", "co2e (t)", "records", "calculated", "pending", "errors"]
    return data_table("inventory", headers, rows, numeric_from=1, numeric_to=5)


def quality_table(quality: pd.DataFrame) -> str:
    """Records by inventory line and resource (calculated, pending, errors) and the resource's
    rows still rejected."""
    rows = [
        (
            "",
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


def line_label(row: Mapping[Hashable, Any]) -> str:
    """``Scope 1``, ``Scope 3 · 5 Waste generated in operations``, or why there is no line."""
    scope, category = row["scope"], row["category"]
    if numbers.is_missing(scope):
        return "Not in the total" if int(str(row["records"])) else "(no record loaded)"
    if numbers.is_missing(category):
        return f"Scope {scope}"
    return f"Scope {scope} \u00b7 {category} {row['category_name']}"
