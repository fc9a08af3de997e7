"""The headline's two co2e figures: the inventory's one total (Total GHG emissions under the
consolidation approach in force, of the inventory's period) and, under its own name, the co2e
of every activity record of that period, in the total or not."""

from __future__ import annotations

from markupsafe import Markup

from emissions_etl.report import numbers
from emissions_etl.report.queries import ReportData
from emissions_etl.report.templating import blocks


def _figure(kg: float) -> tuple[Markup, str]:
    """A co2e figure big (tonnes from 10 t, else kg) and small (the other unit), its exact kg
    in ``data-kg`` for whoever reads the page."""
    unit, _ = numbers.chart_unit(kg)
    big, small = (
        (numbers.tonnes(kg), numbers.kg(kg)) if unit == "t"
        else (numbers.kg(kg), numbers.tonnes(kg, 3))
    )  # fmt: skip
    return blocks.figure(repr(kg), big), small


def total_card(data: ReportData) -> tuple[str, str, str | Markup, str]:
    """The inventory's one total: Total GHG emissions under the approach in force, of the
    inventory's period; none when the page has no inventory (it says why below)."""
    inventory = data.inventory
    if inventory is None:
        return ("total-co2e", "Total GHG emissions", numbers.MISSING,
                "no inventory on this page: see the GHG inventory below")  # fmt: skip
    value, small = _figure(inventory.total_kg)
    period = inventory.year if inventory.year is not None else "every year"
    approach = inventory.approach.replace("_", " ")
    return ("total-co2e", "Total GHG emissions", value,
            f"{small} \u00b7 location-based \u00b7 {approach} \u00b7 {period}")  # fmt: skip


def activity_card(data: ReportData) -> tuple[str, str, str | Markup, str]:
    """The co2e of every activity record of the same period, in the total or not: under its
    own name, never the total's."""
    inventory = data.inventory
    kg = data.co2e_kg if inventory is None else inventory.activity_kg
    value, small = _figure(kg)
    outside = "" if inventory is None else (
        f" \u00b7 {numbers.tonnes(kg - inventory.total_kg, 1)} not in the inventory "
        "(listed after its total)"
    )  # fmt: skip
    return ("activity-co2e", "All activity co2e", value, f"{small}{outside}")
