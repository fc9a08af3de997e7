"""The inventory's tables as the files show them: the ESRS E1-6 table (its first columns those it
always had: scripts read them, extended, never renamed; for a reporting year the years side by
side follow, then for a restatement the figure as filed and the difference) and the scopes by
month or facility.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from emissions_etl.inventory.reading import Inventory
from emissions_etl.inventory.restatement import Restatement

SHEETS = ("By scope and category", "By month", "By facility", "About")
#: A restatement's sheet of changed records, and of the estimates it counted when filed.
CHANGES_SHEET = "Changed since filed"
ESTIMATES_SHEET = "Estimates since filed"
#: The ESRS table's columns as the files head them (the reporting year's figures).
TABLE_HEADER = ("line", "scope", "category", "co2e (t)", "records", "calculated", "pending",
                "errors")  # fmt: skip
#: The columns an inventory with estimates adds after ``TABLE_HEADER``: how much of each line
#: estimates missing months, and what share of the line that is.
ESTIMATED_HEADER = ("estimated (t)", "estimated (%)")
#: The columns of the month and facility sheets: the scopes, their total, what is outside it.
SCOPE_COLUMNS = ("Scope 1", "Scope 2 (location-based)", "Scope 3", "Total (Scopes 1 to 3)",
                 "Not in the total")  # fmt: skip
TONNES = "#,##0.0"
PERCENT = "0.0"


def table(
    inventory: Inventory, restatement: Restatement | None = None
) -> tuple[list[str], list[list[object]]]:
    """The ESRS lines under their header: ``TABLE_HEADER``, what is estimated (with estimates),
    the compared years and their change, the figure as filed and the difference (tonnes
    unrounded; None where not given)."""
    header = list(TABLE_HEADER)
    counts = ("records", "records_calculated", "records_pending", "records_error")
    rows = [
        [line["line"], *(cell_value(line[name]) for name in ("scope", "category", "co2e_t")),
         *(cell_value(line[name]) for name in counts)]
        for line in inventory.lines.to_dict("records")
    ]  # fmt: skip
    if inventory.with_estimates:
        header += ESTIMATED_HEADER
        for row, line in zip(rows, inventory.lines.to_dict("records"), strict=True):
            row += estimated_cells(line["estimated_kg"], line["co2e_kg"])
    if inventory.comparison is not None:
        years = [c for c in inventory.comparison.columns if c not in ("kind", "line")]
        header += years
        for row, values in zip(rows, inventory.comparison[years].itertuples(index=False),
                               strict=True):  # fmt: skip
            row += [cell_value(value) for value in values]
    if restatement is not None:
        header += [f"filed {restatement.filed.filed_id} (t)", "difference since filed (t)"]
        filed = restatement.lines.set_index("line")
        for row in rows:
            known = row[0] in filed.index
            row += [cell_value(filed.at[row[0], column]) if known else None
                    for column in ("filed (t)", "difference (t)")]  # fmt: skip
    return header, rows


def estimated_cells(estimated_kg: object, co2e_kg: object) -> list[object]:
    """A line's estimated tonnes and the share of the line they are, in % (None where the line
    has no figure, or no co2e to share)."""
    estimated, total = cell_value(estimated_kg), cell_value(co2e_kg)
    if not isinstance(estimated, float | int) or not isinstance(total, float | int):
        return [None, None]
    return [estimated / 1000, estimated / total * 100 if total else None]


def figure_columns(header: Sequence[str]) -> list[int]:
    """The 1-based columns of ``header`` holding tonnes or % (formatted with one decimal)."""
    return [n for n, name in enumerate(header, start=1) if name.endswith(("(t)", "(%)"))]


def by_scope(frame: pd.DataFrame, index: str) -> pd.DataFrame:
    """co2e in tonnes with one column per ``SCOPE_COLUMNS`` and a row per ``index`` value (as
    a label; the row of records without one last)."""
    keyed = frame.assign(
        column=frame["scope"].map({1: SCOPE_COLUMNS[0], 2: SCOPE_COLUMNS[1], 3: SCOPE_COLUMNS[2]})
        .fillna(SCOPE_COLUMNS[4]),
        key=[_label(key, index) for key in frame[index]],
        t=frame["co2e_kg"].astype("float64") / 1000,
    )  # fmt: skip
    table = keyed.pivot_table(
        index="key", columns="column", values="t", aggfunc="sum", fill_value=0.0
    ).reindex(columns=list(SCOPE_COLUMNS), fill_value=0.0)
    table[SCOPE_COLUMNS[3]] = table[list(SCOPE_COLUMNS[:3])].sum(axis=1)
    missing = [key for key in table.index if key.startswith("(no ")]
    return table.reindex([*(k for k in table.index if k not in missing), *missing])


def _label(key: object, index: str) -> str:
    if cell_value(key) is None or key is pd.NaT:
        return "(no activity date)" if index == "month" else "(no facility)"
    if index == "month":
        return pd.Timestamp(key).strftime("%Y-%m")  # type: ignore[arg-type]
    return str(key)


def cell_value(value: object) -> object:
    """A cell's value: None for missing, plain int/float otherwise."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and pd.isna(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    return value.item() if hasattr(value, "item") else value
