"""One colour per resource and per run outcome, the same in every chart and table of every report.

Colours are fixed by name rather than by order of appearance, so "wastes" is the same green in a
report with one resource and in a report with eleven, this month and next.
"""

from __future__ import annotations

import zlib

#: The service's resources in the order legends list them (Tableau 10 plus one: distinct hues).
RESOURCE_COLOURS: dict[str, str] = {
    "wastes": "#59a14f",
    "vehicle_consumptions": "#4e79a7",
    "business_travels": "#f28e2b",
    "purchases": "#b07aa1",
    "commuting_periods": "#76b7b2",
    "logistics_requests": "#9c755f",
    "logistics_recharges": "#edc948",
    "employees": "#ff9da7",
    "vehicles": "#1f5f8b",
    "logistic_hubs": "#d37295",
    "facilities": "#8c8c8c",
}

#: For resources this report does not know yet: picked by a stable hash of the name.
_SPARE_COLOURS = ("#17becf", "#bcbd22", "#7f3c8d", "#e15759", "#3969ac", "#a5aa99")

#: Run outcomes: green for done, amber for done with rejects, red for nothing loaded, grey else.
OUTCOME_COLOURS: dict[str, str] = {
    "succeeded": "#2e7d32",
    "partial": "#b26a00",
    "failed": "#c62828",
    "rejected": "#ad1457",
    "interrupted": "#6a1b9a",
    "running": "#1565c0",
    "dry_run": "#546e7a",
}
_UNKNOWN_OUTCOME_COLOUR = "#757575"

#: GHG scopes, darkest for the company's own emissions (Scope 1) to lightest for its value chain.
SCOPE_COLOURS: dict[int, str] = {1: "#1f4e79", 2: "#3f8fcf", 3: "#9cc8ea"}
SCOPE_LABELS: dict[int, str] = {1: "Scope 1", 2: "Scope 2 (location-based)", 3: "Scope 3"}


def resource_colour(resource: str) -> str:
    """The resource's colour (a spare one, stable across runs, for a resource not listed)."""
    known = RESOURCE_COLOURS.get(resource)
    if known is not None:
        return known
    return _SPARE_COLOURS[zlib.crc32(resource.encode()) % len(_SPARE_COLOURS)]


def resource_order(resources: list[str]) -> list[str]:
    """Resources in legend order: the known ones as listed above, then others by name."""
    known = [name for name in RESOURCE_COLOURS if name in resources]
    return known + sorted(set(resources) - set(RESOURCE_COLOURS))


def outcome_colour(outcome: str) -> str:
    """The badge colour of a run outcome (grey for an outcome this report does not know)."""
    return OUTCOME_COLOURS.get(outcome, _UNKNOWN_OUTCOME_COLOUR)


def resource_label(resource: str) -> str:
    """How a resource is named on the page: ``vehicle_consumptions`` -> ``vehicle consumptions``."""
    return resource.replace("_", " ")
