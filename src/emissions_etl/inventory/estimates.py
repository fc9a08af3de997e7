"""The estimates an inventory adds to its lines (``--with-estimates``): the warehouse's estimates
of missing months (``coverage_estimates_under(approach, as_of)``: each placed on the lines, and
facilities, of its entity's records), or those a filed inventory counted, as they were filed
(``filed_inventory_estimates``). Estimates live in the warehouse only: nothing here is ever
sent to the service.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from emissions_etl.errors import InputError
from emissions_etl.warehouse import ESTIMATE_COLUMNS, Warehouse, today

HAS_COVERAGE = """
    SELECT count(*) AS n FROM information_schema.tables
    WHERE table_schema = 'main' AND table_name = 'coverage_records'
"""
#: In one order, so the same estimates always add up to the same figures to the last digit.
LIVE_ESTIMATES = (
    f"SELECT {', '.join(ESTIMATE_COLUMNS)} FROM coverage_estimates_under(?, CAST(? AS DATE)) "
    "ORDER BY ALL"
)
FILED_ESTIMATES = (
    f"SELECT {', '.join(ESTIMATE_COLUMNS)} FROM filed_inventory_estimates WHERE filed_id = ? "
    "ORDER BY ALL"
)
#: The columns of the inventory's grouped rows (``reading.GROUPED``) an estimate fills.
_GROUPED = ("organization_id", "scope", "category", "category_name", "unclassified_reason",
            "resource", "activity_month", "facility_id", "facility_name")  # fmt: skip
_COUNTS = ("records", "records_calculated", "records_pending", "records_error")


@dataclass(frozen=True)
class Estimates:
    """Which estimates an inventory adds: the coverage's as of ``as_of`` (None: today, UTC),
    unless ``rows`` gives them (``ESTIMATE_COLUMNS``: a filed inventory's, as it was filed)."""

    as_of: dt.date | None = None
    rows: pd.DataFrame | None = None


def read_estimates(
    warehouse: Warehouse, approach: str, estimates: Estimates
) -> tuple[pd.DataFrame, dt.date | None]:
    """The estimate rows (``ESTIMATE_COLUMNS``) and the day they were read as of (None for
    rows given); InputError for a warehouse without coverage yet."""
    if estimates.rows is not None:
        return estimates.rows[list(ESTIMATE_COLUMNS)], estimates.as_of
    if not int(warehouse.query(HAS_COVERAGE)["n"].iloc[0]):
        raise InputError(
            str(warehouse.target),
            "no coverage in this warehouse yet, so no estimate (written by an older "
            "emissions-etl): any load with this version adds it",
        )
    as_of = estimates.as_of or today()
    found = warehouse.query(LIVE_ESTIMATES, [approach, as_of])
    return found[list(ESTIMATE_COLUMNS)], as_of


def filed_estimates(warehouse: Warehouse, filed_id: str) -> pd.DataFrame:
    """The estimates the filed inventory ``filed_id`` counted (``ESTIMATE_COLUMNS``)."""
    return warehouse.query(FILED_ESTIMATES, [filed_id])[list(ESTIMATE_COLUMNS)]


def as_grouped_rows(estimates: pd.DataFrame) -> pd.DataFrame:
    """Estimates as rows of the inventory's records summed by line (no record, their co2e the
    estimate), with ``estimated_kg`` saying how much of it is estimated."""
    kg = estimates["estimate_kg"].astype("float64")
    rows = estimates[list(_GROUPED)].assign(co2e_kg=kg, **dict.fromkeys(_COUNTS, 0))
    return rows.assign(estimated_kg=kg)
