"""The estimates a filed inventory counted, beside the coverage of its months now: each one
replaced by real data (a record of that month has landed since), still estimated, missing
without an estimate now, or no longer expected (an expectations file changed, say)."""

from __future__ import annotations

import pandas as pd

from emissions_etl.inventory.estimates import filed_estimates
from emissions_etl.inventory.filed import FiledInventory
from emissions_etl.warehouse import Warehouse, today

#: The columns of the estimates' table, as files and the report show them.
ESTIMATE_CHANGE_COLUMNS = ("change", "resource", "entity", "month", "estimate_kg when filed",
                           "estimate_method when filed", "co2e_kg now", "records now",
                           "estimate_kg now")  # fmt: skip
REPLACED = "replaced by real data"
ESTIMATE_CHANGES = (REPLACED, "still estimated", "missing, no estimate now", "no longer expected")
COVERAGE_NOW = """
    SELECT resource, coalesce(entity_id, '') AS entity_key, month, status, records, co2e_kg,
           estimate_kg
    FROM coverage_at(CAST(? AS DATE), NULL) WHERE organization_id IS NOT DISTINCT FROM ?
"""
_KEY = ["resource", "entity_key", "month"]


def estimate_changes(warehouse: Warehouse, filed: FiledInventory) -> pd.DataFrame:
    """What became of each estimate of the reporting year ``filed`` counted (none for an
    inventory filed without estimates), in ``ESTIMATE_CHANGE_COLUMNS``."""
    if filed.estimates_as_of is None:
        return pd.DataFrame(columns=list(ESTIMATE_CHANGE_COLUMNS))
    with warehouse.reading():
        was = filed_estimates(warehouse, filed.filed_id)
        now = warehouse.query(COVERAGE_NOW, [today(), filed.organization])
    was = was.assign(month=pd.to_datetime(was["activity_month"]),
                     entity_key=was["entity_id"].fillna(""))  # fmt: skip
    was = was[was["month"].dt.year == filed.year]
    counted = was.groupby([*_KEY, "entity", "estimate_method"], dropna=False, as_index=False)[
        "estimate_kg"].sum()  # fmt: skip
    both = counted.merge(now.assign(month=pd.to_datetime(now["month"])), on=_KEY, how="left",
                         suffixes=(" when filed", " now"))  # fmt: skip
    both["change"] = [_change(status, estimate) for status, estimate
                      in zip(both["status"], both["estimate_kg now"], strict=True)]  # fmt: skip
    shown = both.rename(columns={"estimate_method": "estimate_method when filed",
                                 "co2e_kg": "co2e_kg now", "records": "records now"})  # fmt: skip
    shown = shown.assign(
        order=shown["change"].map({change: n for n, change in enumerate(ESTIMATE_CHANGES)}),
        month=shown["month"].dt.date,
    ).sort_values(["order", "resource", "entity", "month"], kind="stable")
    changes: pd.DataFrame = shown[list(ESTIMATE_CHANGE_COLUMNS)].reset_index(drop=True)
    return changes


def _change(status: object, estimate_now: object) -> str:
    if status == "received":
        return REPLACED
    if status == "missing":
        return ESTIMATE_CHANGES[1] if pd.notna(estimate_now) else ESTIMATE_CHANGES[2]  # type: ignore[call-overload]
    return ESTIMATE_CHANGES[3]
