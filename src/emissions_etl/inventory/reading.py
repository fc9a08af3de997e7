"""Read the GHG inventory of a warehouse: the records of ``ghg_inventory_records_under(approach)``
of one organization, grouped as the report and the ``inventory`` files show them; for a
reporting year, with the years it is compared with side by side.

Read-only, through ``Warehouse.query``, in one pass over the records: DuckDB sums them into rows
(one per line, resource, month and facility: a few thousand at most), which are grouped again
here for each table. The sums are exact (DECIMAL, to 1e-12 kg) so the same records give
the same figures to the last digit, whatever order DuckDB reads them in: a filed inventory
read again from its frozen records or its lake snapshot is identical.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import pandas as pd

from emissions_etl.errors import InputError
from emissions_etl.inventory.esrs import esrs_lines
from emissions_etl.inventory.estimates import Estimates, as_grouped_rows, read_estimates
from emissions_etl.inventory.years import ComparedYear, compared_years, comparison_table
from emissions_etl.organizations import one_organization
from emissions_etl.warehouse import DEFAULT_APPROACH, Warehouse, check_approach

if TYPE_CHECKING:
    from emissions_etl.inventory.filed import FiledInventory

#: Whether the inventory's relations exist (a warehouse last written by an older version has
#: none).
INVENTORY_COLUMNS = """
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = 'main' AND table_name = 'ghg_inventory'
"""

#: The inventory's records summed by organization, line, resource, month and facility.
GROUPED = """
    SELECT organization_id, scope, category, category_name, unclassified_reason, resource,
           CAST(date_trunc('month', activity_date) AS DATE) AS activity_month,
           facility_id, facility_name,
           CAST(sum(CAST(co2e_kg AS DECIMAL(38, 12))) AS DOUBLE) AS co2e_kg,
           count(*) AS records,
           count(co2e_kg) AS records_calculated,
           count(*) FILTER (WHERE co2e_kg IS NULL AND coalesce(status, '') <> 'error')
               AS records_pending,
           count(*) FILTER (WHERE status = 'error') AS records_error
    FROM ({records}) AS r
    GROUP BY ALL
    ORDER BY ALL
"""
LIVE_RECORDS = "SELECT * FROM ghg_inventory_records_under('{approach}')"
#: The records frozen when an inventory was filed in a DuckDB file.
FROZEN_RECORDS = "SELECT * FROM filed_inventory_records WHERE filed_id = ?"
_COUNTS = ["records", "records_calculated", "records_pending", "records_error"]
_LINE_KEYS = ["scope", "category", "category_name", "unclassified_reason"]

#: Rows still rejected (the latest run of each file), by organization and activity resource:
#: rejected rows never became records, so they belong to a resource, not to a category.
REJECTED_ROWS = """
    WITH latest AS (
        SELECT run_id FROM load_runs
        QUALIFY row_number() OVER (
            PARTITION BY organization_id, resource, source ORDER BY started_at DESC) = 1
    )
    SELECT j.organization_id, j.resource,
           count(DISTINCT (coalesce(j."file", ''), coalesce(j.sheet, ''), j."row")) AS rows_rejected
    FROM rejects AS j JOIN latest USING (run_id)
    WHERE j.resource NOT IN (SELECT resource FROM resource_catalog WHERE is_aggregate)
    GROUP BY ALL
"""


@dataclass(frozen=True)
class Inventory:
    """A warehouse's GHG inventory under one consolidation approach, for one year or all."""

    approach: str
    year: int | None
    #: Whose inventory it is (None: a warehouse written before organizations were recorded).
    organization: str | None
    #: ESRS E1-6 lines (``esrs.esrs_lines``), in kg and tonnes.
    lines: pd.DataFrame
    #: month (None: undated), scope (None: not classified), co2e_kg, records.
    by_month: pd.DataFrame
    #: facility (None: unknown), scope, co2e_kg, records.
    by_facility: pd.DataFrame
    #: scope, category, category_name, resource, records, records_calculated, records_pending,
    #: records_error, rows_rejected (the resource's, on each line the resource has; 0 for a
    #: filed inventory read from its frozen records, which keep no rejects).
    quality: pd.DataFrame
    #: Records without an activity date: in no year, so left out when a year is asked for.
    undated_records: int
    #: The base year shown beside the reporting year (None: none asked for).
    base_year: int | None = None
    #: The years side by side (``years.compared_years``); empty without a reporting year.
    compared: tuple[ComparedYear, ...] = ()
    #: ``years.comparison_table`` of the compared years; None without a reporting year.
    comparison: pd.DataFrame | None = None
    #: The filed inventory this one reproduces (``filing.read_filed``); None: as it is now.
    filed: FiledInventory | None = None
    #: The estimates of missing months its lines count (``estimates.ESTIMATE_COLUMNS``, of
    #: every year it shows); None: an inventory without estimates.
    estimates: pd.DataFrame | None = None
    #: The day those estimates were read as of.
    estimates_as_of: dt.date | None = None

    @property
    def with_estimates(self) -> bool:
        return self.estimates is not None

    def line(self, kind: str) -> pd.Series:
        """The first ESRS line of ``kind`` (``scope_1``, ``total_location``, ``activity``...)."""
        return self.lines[self.lines["kind"] == kind].iloc[0]

    @property
    def total_kg(self) -> float:
        """Total GHG emissions (location-based): the inventory's one total."""
        return float(self.line("total_location")["co2e_kg"])

    @property
    def activity_kg(self) -> float:
        """The co2e of every activity record of the period, in the total or not."""
        return float(self.line("activity")["co2e_kg"])

    @property
    def is_empty(self) -> bool:
        return int(self.line("activity")["records"]) == 0


def read_inventory(
    warehouse: Warehouse,
    *,
    approach: str = DEFAULT_APPROACH,
    year: int | None = None,
    organization: str | None = None,
    base_year: int | None = None,
    frozen: str | None = None,
    estimates: Estimates | None = None,
) -> Inventory:
    """The inventory of ``warehouse``, of ``organization`` (needed when it holds several); for
    ``year``, beside the year before and ``base_year``; from the records frozen by the filed
    inventory ``frozen`` instead of the records there now; with ``estimates`` of missing months
    added to its lines. InputError when it has no inventory views yet (last written by an
    older version), ConfigurationError for an organization it holds no record of, or none
    named among several; ValueError for a base year without a reporting year or after it."""
    check_approach(approach)
    if base_year is not None and year is None:
        raise ValueError("--base-year needs --year: the base year is shown beside a reporting year")
    years = compared_years(year, base_year) if year is not None else []
    with warehouse.reading():
        rows, rejected = _read(warehouse, approach, frozen)
        found, as_of = (None, None) if estimates is None else read_estimates(
            warehouse, approach, estimates)  # fmt: skip
    rows = _with_estimates(rows, found)
    organization = _organization(rows, organization)
    if organization is not None:
        rows = rows[rows["organization_id"] == organization]
        rejected = rejected[rejected["organization_id"] == organization]
    rows = rows.assign(
        co2e_kg=rows["co2e_kg"].astype("float64"),
        year=pd.to_datetime(rows["activity_month"]).dt.year,
        facility=rows["facility_name"].fillna(rows["facility_id"]),
    )
    undated = int(rows.loc[rows["activity_month"].isna(), "records"].sum())
    rejected = rejected.drop(columns="organization_id")
    if found is not None and organization is not None:
        found = found[found["organization_id"] == organization].reset_index(drop=True)
    if year is None:
        inventory = _inventory(rows, rejected, approach, None, organization, undated)
        return replace(inventory, estimates=found, estimates_as_of=as_of)
    # Every year shows the lines any of them has (a category of the base year only is a line
    # of the reporting year too, at 0).
    shared = rows[rows["year"].isin({compared.year for compared in years})][_LINE_KEYS]
    each = []
    for compared in years:
        of_year = rows[rows["year"] == compared.year]
        inventory = _inventory(of_year, rejected, approach, compared.year, organization,
                               undated, shared_lines=shared)  # fmt: skip
        each.append((replace(compared, has_records=not inventory.is_empty), inventory))
    current = each[-1][1]
    return replace(
        current,
        base_year=base_year,
        compared=tuple(compared for compared, _ in each),
        comparison=comparison_table([(compared, inv.lines) for compared, inv in each]),
        estimates=found,
        estimates_as_of=as_of,
    )


def _with_estimates(rows: pd.DataFrame, estimates: pd.DataFrame | None) -> pd.DataFrame:
    """The grouped rows with an estimate's row for each estimate (``estimated_kg`` saying how
    much of each row is estimated); ``rows`` as they are without estimates."""
    if estimates is None:
        return rows
    return pd.concat([rows.assign(estimated_kg=0.0), as_grouped_rows(estimates)], ignore_index=True)


def _read(
    warehouse: Warehouse, approach: str, frozen: str | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The grouped rows and the rejected rows by resource (none for frozen records)."""
    if frozen is not None:
        rows = warehouse.query(GROUPED.format(records=FROZEN_RECORDS), [frozen])
        no_rejects = pd.DataFrame({
            "organization_id": pd.Series(dtype="str"), "resource": pd.Series(dtype="str"),
            "rows_rejected": pd.Series(dtype="int64"),
        })  # fmt: skip
        return rows, no_rejects
    if warehouse.query(INVENTORY_COLUMNS).empty:
        raise InputError(
            str(warehouse.target),
            "no GHG inventory in this warehouse yet (written by an older emissions-etl): "
            "any load with this version adds it",
        )
    records = LIVE_RECORDS.format(approach=check_approach(approach))
    return warehouse.query(GROUPED.format(records=records)), warehouse.query(REJECTED_ROWS)


def _inventory(
    rows: pd.DataFrame,
    rejected: pd.DataFrame,
    approach: str,
    year: int | None,
    organization: str | None,
    undated: int,
    *,
    shared_lines: pd.DataFrame | None = None,
) -> Inventory:
    """The inventory of ``rows`` (one year's, or every year's); ``shared_lines`` are lines
    (scope, category, name, reason) it shows even without a record on them."""
    by_category = _summed(rows, _LINE_KEYS)
    if shared_lines is not None and not shared_lines.empty:
        zero = dict.fromkeys(["co2e_kg", *_estimated(rows)], 0.0)
        nothing = shared_lines.drop_duplicates().assign(**zero, **dict.fromkeys(_COUNTS, 0))
        by_category = _summed(pd.concat([by_category, nothing], ignore_index=True), _LINE_KEYS)
    return Inventory(
        approach=approach,
        year=year,
        organization=organization,
        lines=esrs_lines(by_category),
        by_month=_summed(rows.rename(columns={"activity_month": "month"}), ["month", "scope"]),
        by_facility=_summed(rows, ["facility", "scope"]),
        quality=_with_rejected_rows(
            _summed(rows, ["scope", "category", "category_name", "resource"]), rejected
        ),
        undated_records=undated,
    )


def _organization(rows: pd.DataFrame, given: str | None) -> str | None:
    """The organization the inventory is of: ``given``, else the only one the rows name (None
    for a warehouse written before organizations were recorded). An inventory is one
    organization's: several without one named is a ConfigurationError, as is one not held."""
    return one_organization(list(rows["organization_id"].dropna()), given, "an inventory")


def _summed(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """co2e (0 where none is calculated), record counts (and what is estimated, with
    estimates) by ``keys``, missing keys kept."""
    figures = ["co2e_kg", *_COUNTS, *_estimated(rows)]
    summed = rows.groupby(keys, dropna=False, sort=True)[figures].sum()
    return summed.reset_index().astype(dict.fromkeys(_COUNTS, "int64"))


def _estimated(rows: pd.DataFrame) -> list[str]:
    """``["estimated_kg"]`` for the rows of an inventory with estimates, else none."""
    return ["estimated_kg"] if "estimated_kg" in rows.columns else []


def _with_rejected_rows(by_resource: pd.DataFrame, rejected: pd.DataFrame) -> pd.DataFrame:
    """Each (line, resource) with the resource's rejected rows; a resource with rejected rows
    and no record gets a line of its own (no scope)."""
    figures = by_resource.drop(columns=["co2e_kg", *_estimated(by_resource)])
    quality = figures.merge(rejected, on="resource", how="outer")
    quality[_COUNTS] = quality[_COUNTS].fillna(0).astype("int64")
    quality["rows_rejected"] = quality["rows_rejected"].fillna(0).astype("int64")
    return quality.sort_values(
        ["scope", "category", "resource"], na_position="last", kind="stable"
    ).reset_index(drop=True)
