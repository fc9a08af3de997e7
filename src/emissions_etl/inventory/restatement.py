"""A restatement: a filed inventory beside the inventory of its year now, line by line, and the
records that made the difference (GHG Protocol Corporate Standard, chapter 5: recalculated
figures are restated, and the change explained).

A record is one record of the service (its resource and id): one added since the filing, one
removed (a mirror deleted its row, a corrected row replaced it), or one recalculated (its co2e,
status or line changed). Each is listed with the row it came from: the row now, or for a
removed record the row it had when the inventory was filed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pandas as pd

from emissions_etl.inventory.esrs import record_lines
from emissions_etl.inventory.filed import FiledInventory
from emissions_etl.inventory.filing import read_filed
from emissions_etl.inventory.reading import Inventory
from emissions_etl.inventory.records import RECORD_KEY, records_behind
from emissions_etl.inventory.replaced import ESTIMATE_CHANGE_COLUMNS, REPLACED, estimate_changes
from emissions_etl.warehouse import Warehouse

#: The lines table's columns: the line, its figure as filed and now (tonnes), the difference.
LINE_COLUMNS = ("line", "filed (t)", "now (t)", "difference (t)")
#: The changed records' columns, as files and the report show them.
RECORD_COLUMNS = ("change", "line", "line when filed", "resource", "service_id", "source_key",
                  "activity_date", "co2e_kg when filed", "co2e_kg", "status when filed",
                  "status", "source", "file", "sheet", "row")  # fmt: skip
CHANGES = ("added", "removed", "recalculated")


@dataclass(frozen=True)
class Restatement:
    """A filed inventory restated: its lines beside today's, the records changed since, and
    what became of the estimates it counted (``replaced.ESTIMATE_CHANGE_COLUMNS``; none for
    an inventory filed without estimates)."""

    filed: FiledInventory
    lines: pd.DataFrame
    records: pd.DataFrame
    estimates: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=list(ESTIMATE_CHANGE_COLUMNS))
    )

    def replaced_estimates(self) -> int:
        """How many estimates it counted have been replaced by real data since."""
        return int((self.estimates["change"] == REPLACED).sum())

    def count(self, change: str) -> int:
        return int((self.records["change"] == change).sum())

    def summary(self) -> str:
        """One line: the total as filed and now, and how many records changed how."""
        total = self.lines[self.lines["line"] == "Total GHG emissions (location-based)"].iloc[0]
        counts = ", ".join(f"{self.count(change):,} {change}" for change in CHANGES)
        estimates = (
            f"; of its {len(self.estimates):,} estimate(s), {self.replaced_estimates():,} "
            "replaced by real data"
            if self.filed.estimates_as_of is not None else ""
        )  # fmt: skip
        return (
            f"restated against {self.filed.described()}: total {total['filed (t)']:,.1f} t as "
            f"filed, {total['now (t)']:,.1f} t now ({total['difference (t)']:+,.1f} t); "
            f"records since: {counts}{estimates}"
        )


def restate(
    filed: FiledInventory,
    now: Inventory,
    filed_records: pd.DataFrame,
    records: pd.DataFrame,
    estimates: pd.DataFrame | None = None,
) -> Restatement:
    """``filed`` beside ``now`` (the inventory of its year, approach and organization now);
    ``filed_records`` and ``records``: the records behind each (``records.records_behind``);
    ``estimates``: what became of the estimates it counted (``replaced.estimate_changes``)."""
    if (now.year, now.approach, now.organization) != (
        filed.year, filed.approach, filed.organization
    ):  # fmt: skip
        raise ValueError(
            f"--against {filed.filed_id}: it is the inventory of {filed.year} under "
            f"{filed.approach}; restate it with --year {filed.year} --consolidation "
            f"{filed.approach}"
        )
    restated = Restatement(filed, _lines(filed, now), _records(filed_records, records))
    return restated if estimates is None else replace(restated, estimates=estimates)


def _lines(filed: FiledInventory, now: Inventory) -> pd.DataFrame:
    was = filed.lines.set_index("line")["co2e_kg"]
    current = now.lines.set_index("line")["co2e_kg"]
    names = [*current.index, *(line for line in was.index if line not in current.index)]
    rows = []
    for name in names:
        before, after = _tonnes(was.get(name)), _tonnes(current.get(name))
        difference = None if before is None or after is None else after - before
        rows.append((name, before, after, difference))
    return pd.DataFrame(rows, columns=list(LINE_COLUMNS))


def _records(filed: pd.DataFrame, now: pd.DataFrame) -> pd.DataFrame:
    """Every record added, removed or recalculated between the two sets."""
    both = _with_line(filed).merge(
        _with_line(now), on=RECORD_KEY, how="outer", suffixes=(" when filed", ""),
        indicator=True,
    )  # fmt: skip
    kept = both["_merge"] == "both"
    changed = kept & (
        _differs(both["co2e_kg when filed"], both["co2e_kg"])
        | _differs(both["status when filed"], both["status"])
        | _differs(both["line when filed"], both["line"])
    )
    both["change"] = both["_merge"].map({"left_only": "removed", "right_only": "added"})
    both.loc[changed, "change"] = "recalculated"
    found = both[both["change"].notna()].copy()
    removed = found["change"] == "removed"
    # A removed record's row is the one it had when filed; the others', the one they have now.
    for column in ("source_key", "activity_date", "source_name", "source_file", "source_sheet",
                   "source_row"):  # fmt: skip
        found[column] = found[column].where(~removed, found[f"{column} when filed"])
    shown = found.rename(columns={"remote_id": "service_id", "source_name": "source",
                                  "source_file": "file", "source_sheet": "sheet",
                                  "source_row": "row"})  # fmt: skip
    shown = shown.assign(
        order=shown["change"].map({change: n for n, change in enumerate(CHANGES)})
    ).sort_values(["order", "file", "sheet", "row", "resource", "service_id"],
                  na_position="last", kind="stable")  # fmt: skip
    shown = shown.assign(row=shown["row"].astype("Int64"))
    return shown[list(RECORD_COLUMNS)].reset_index(drop=True)


def _with_line(records: pd.DataFrame) -> pd.DataFrame:
    """Each record once, with its most detailed line (its category's, its scope's, or why it
    is outside the total)."""
    lines = record_lines(records).drop_duplicates(RECORD_KEY, keep="first")
    columns = [*RECORD_KEY, "line", "co2e_kg", "status", "source_key", "activity_date",
               "source_name", "source_file", "source_sheet", "source_row"]  # fmt: skip
    return lines[columns]


def _differs(before: pd.Series, after: pd.Series) -> pd.Series:
    """Whether two columns differ, a missing value differing from any value but another."""
    missing = before.isna() != after.isna()
    return missing | (before.notna() & after.notna() & (before != after))


def _tonnes(kg: object) -> float | None:
    if kg is None or pd.isna(kg):  # type: ignore[call-overload]
        return None
    return float(kg) / 1000  # type: ignore[arg-type]


def restate_against(warehouse: Warehouse, filed_id: str, now: Inventory) -> Restatement:
    """The filed inventory ``filed_id`` of ``warehouse`` (read again exactly: WarehouseError
    when it no longer can be) beside ``now``, with the records changed since."""
    filed = read_filed(warehouse, filed_id)
    assert filed.filed is not None
    return restate(
        filed.filed, now, records_behind(warehouse, filed), records_behind(warehouse, now),
        estimate_changes(warehouse, filed.filed),
    )  # fmt: skip
