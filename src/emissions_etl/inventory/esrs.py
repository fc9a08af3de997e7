"""The lines of ESRS E1-6 ("Gross Scopes 1, 2, 3 and Total GHG emissions") from the inventory's
co2e by scope and Scope 3 category, in the order of the disclosure table.

ESRS E1-6 asks for gross Scope 1; Scope 2 location-based and market-based; gross Scope 3 with
each significant category on its own line; the total, location- and market-based
(shared/reference/ghg-protocol.md). The service's electricity factors are grid averages
(location-based), so the market-based lines are shown empty, not guessed. Records no rule
classifies are listed after the total, each reason on its own line, outside it; the last line
is the co2e of every activity record, so the table shows nothing was dropped.

The lines' names are written here once: the table, the evidence behind each line and the
restatement of a filed inventory all name a line as the table does.
"""

from __future__ import annotations

import pandas as pd

#: The columns of the lines, in order. ``estimated_kg``: the part of ``co2e_kg`` that estimates
#: missing months (``inventory --with-estimates``); None for an inventory without estimates.
LINE_COLUMNS = ("kind", "line", "scope", "category", "co2e_kg", "co2e_t", "records",
                "records_calculated", "records_pending", "records_error",
                "estimated_kg")  # fmt: skip
_COUNTS = ("records", "records_calculated", "records_pending", "records_error")
MARKET_BASED_NOTE = "not calculated: the service's electricity factors are location-based"
#: The line of each scope (its kind and name), and of the total.
SCOPE_LINES = {
    1: ("scope_1", "Gross Scope 1 GHG emissions"),
    2: ("scope_2_location", "Gross location-based Scope 2 GHG emissions"),
    3: ("scope_3", "Gross Scope 3 GHG emissions"),
}
TOTAL_LINE = "Total GHG emissions (location-based)"
#: The co2e of every activity record: the total and what is outside it. Never "the total".
ACTIVITY_LINE = "co2e of every activity record in the warehouse"


def category_line(number: int, name: str) -> str:
    """The line of Scope 3 category ``number``."""
    return f"Category {number}: {name}"


def unclassified_line(reason: str) -> str:
    """The line of the records no rule places in a scope, for ``reason``."""
    return f"Not in the total: {reason}"


def record_lines(records: pd.DataFrame) -> pd.DataFrame:
    """Each record (rows with scope, category, category_name and unclassified_reason) once for
    every line it adds up into, its line's name in ``line``: its Scope 3 category, its scope,
    the total; or the reason it is outside the total. Never the activity line (every record).
    Each record's most detailed line comes first."""
    scope = records["scope"]
    scope_3 = records[scope == 3]
    outside = records[scope.isna()]
    parts = [  # the most detailed line of each record first
        scope_3.assign(line=[category_line(int(category), str(name)) for category, name
                             in zip(scope_3["category"], scope_3["category_name"], strict=True)]),
        *(records[scope == number].assign(line=name) for number, (_, name) in SCOPE_LINES.items()),
        records[scope.notna()].assign(line=TOTAL_LINE),
        outside.assign(line=[unclassified_line(str(r)) for r in outside["unclassified_reason"]]),
    ]  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def esrs_lines(by_category: pd.DataFrame) -> pd.DataFrame:
    """The disclosure's lines from rows of (scope, category, category_name,
    unclassified_reason, co2e_kg and the four record counts; and ``estimated_kg``, the part of
    co2e_kg estimated, in an inventory with estimates)."""
    rows = by_category.astype({"co2e_kg": "float64"})
    estimated = "estimated_kg" in rows.columns
    lines: list[dict[str, object]] = []

    def add(
        kind: str, line: str, part: pd.DataFrame, scope: object = None, category: object = None
    ) -> None:
        lines.append(
            {"kind": kind, "line": line, "scope": scope, "category": category,
             "co2e_kg": float(part["co2e_kg"].sum()),
             **{name: int(part[name].sum()) for name in _COUNTS},
             "estimated_kg": float(part["estimated_kg"].sum()) if estimated else None}
        )  # fmt: skip

    def not_given(kind: str, line: str, scope: object = None) -> None:
        lines.append({"kind": kind, "line": line, "scope": scope, "category": None,
                      "co2e_kg": None, **dict.fromkeys(_COUNTS), "estimated_kg": None})  # fmt: skip

    scope = rows["scope"]
    classified = rows[scope.notna()]
    add(*SCOPE_LINES[1], rows[scope == 1], 1)
    add(*SCOPE_LINES[2], rows[scope == 2], 2)
    not_given("scope_2_market", "Gross market-based Scope 2 GHG emissions", 2)
    scope_3 = rows[scope == 3]
    add(*SCOPE_LINES[3], scope_3, 3)
    for category, part in scope_3.groupby("category", sort=True):
        number = int(str(category))
        name = part["category_name"].iloc[0]
        add("scope_3_category", category_line(number, name), part, 3, number)
    add("total_location", TOTAL_LINE, classified)
    not_given("total_market", "Total GHG emissions (market-based)")
    for reason, part in rows[scope.isna()].groupby("unclassified_reason", sort=True):
        add("not_classified", unclassified_line(str(reason)), part)
    add("activity", ACTIVITY_LINE, rows)
    frame = pd.DataFrame(lines, columns=list(LINE_COLUMNS))
    frame["co2e_t"] = frame["co2e_kg"] / 1000
    frame["estimated_kg"] = frame["estimated_kg"].astype("float64" if estimated else object)
    return frame.astype({"scope": "Int64", "category": "Int64", **dict.fromkeys(_COUNTS, "Int64")})
