"""The lines of ESRS E1-6 ("Gross Scopes 1, 2, 3 and Total GHG emissions") from the inventory's
co2e by scope and Scope 3 category, in the order of the disclosure table.

ESRS E1-6 asks for gross Scope 1; Scope 2 location-based and market-based; gross Scope 3 with
each significant category on its own line; the total, location- and market-based
(shared/reference/ghg-protocol.md). The service's electricity factors are grid averages
(location-based), so the market-based lines are shown empty, not guessed. Records no rule
classifies are listed after the total, each reason on its own line, outside it; the last line
is the co2e of every activity record, so the table shows nothing was dropped.
"""

from __future__ import annotations

import pandas as pd

#: The columns of the lines, in order.
LINE_COLUMNS = ("kind", "line", "scope", "category", "co2e_kg", "co2e_t", "records",
                "records_calculated", "records_pending", "records_error")  # fmt: skip
_COUNTS = ("records", "records_calculated", "records_pending", "records_error")
MARKET_BASED_NOTE = "not calculated: the service's electricity factors are location-based"


def esrs_lines(by_category: pd.DataFrame) -> pd.DataFrame:
    """The disclosure's lines from rows of (scope, category, category_name,
    unclassified_reason, co2e_kg and the four record counts)."""
    rows = by_category.astype({"co2e_kg": "float64"})
    lines: list[dict[str, object]] = []

    def add(
        kind: str, line: str, part: pd.DataFrame, scope: object = None, category: object = None
    ):
        lines.append(
            {"kind": kind, "line": line, "scope": scope, "category": category,
             "co2e_kg": float(part["co2e_kg"].sum()),
             **{name: int(part[name].sum()) for name in _COUNTS}}
        )  # fmt: skip

    def not_given(kind: str, line: str, scope: object = None) -> None:
        lines.append({"kind": kind, "line": line, "scope": scope, "category": None,
                      "co2e_kg": None, **dict.fromkeys(_COUNTS)})  # fmt: skip

    scope = rows["scope"]
    classified = rows[scope.notna()]
    add("scope_1", "Gross Scope 1 GHG emissions", rows[scope == 1], 1)
    add("scope_2_location", "Gross location-based Scope 2 GHG emissions", rows[scope == 2], 2)
    not_given("scope_2_market", "Gross market-based Scope 2 GHG emissions", 2)
    scope_3 = rows[scope == 3]
    add("scope_3", "Gross Scope 3 GHG emissions", scope_3, 3)
    for category, part in scope_3.groupby("category", sort=True):
        number = int(str(category))
        name = part["category_name"].iloc[0]
        add("scope_3_category", f"Category {number}: {name}", part, 3, number)
    add("total_location", "Total GHG emissions (location-based)", classified)
    not_given("total_market", "Total GHG emissions (market-based)")
    for reason, part in rows[scope.isna()].groupby("unclassified_reason", sort=True):
        add("not_classified", f"Not in the total: {reason}", part)
    add("activity", "co2e of every activity record in the warehouse", rows)
    frame = pd.DataFrame(lines, columns=list(LINE_COLUMNS))
    frame["co2e_t"] = frame["co2e_kg"] / 1000
    return frame.astype({"scope": "Int64", "category": "Int64", **dict.fromkeys(_COUNTS, "Int64")})
