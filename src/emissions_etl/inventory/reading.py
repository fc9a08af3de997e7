"""Read the GHG inventory of a warehouse: the ``ghg_inventory_under(approach)`` rows of one
organization and a year, grouped as the report and the ``inventory`` files show them.

Read-only, through ``Warehouse.query``, in one pass over the records: DuckDB sums them into the
view's rows (one per line, resource, month and facility: a few thousand at most), which are
grouped again here for each table.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from emissions_etl.errors import ConfigurationError, InputError
from emissions_etl.inventory.esrs import esrs_lines
from emissions_etl.warehouse import DEFAULT_APPROACH, Warehouse, check_approach

#: Whether the inventory's relations exist (a warehouse last written by an older version has
#: none).
INVENTORY_COLUMNS = """
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = 'main' AND table_name = 'ghg_inventory'
"""

#: The inventory's rows (already summed by DuckDB: one per organization, line, resource, month
#: and facility). An organization and a year are kept in pandas, so the organizations held and
#: the records without a date are counted from the same rows.
ROWS = "SELECT * FROM ghg_inventory_under($1)"
_COUNTS = ["records", "records_calculated", "records_pending", "records_error"]

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
    #: records_error, rows_rejected (the resource's, on each line the resource has).
    quality: pd.DataFrame
    #: Records without an activity date: in no year, so left out when a year is asked for.
    undated_records: int

    def line(self, kind: str) -> pd.Series:
        """The first ESRS line of ``kind`` (``scope_1``, ``total``, ``activity`` ...)."""
        return self.lines[self.lines["kind"] == kind].iloc[0]

    @property
    def is_empty(self) -> bool:
        return int(self.line("activity")["records"]) == 0


def read_inventory(
    warehouse: Warehouse,
    *,
    approach: str = DEFAULT_APPROACH,
    year: int | None = None,
    organization: str | None = None,
) -> Inventory:
    """The inventory of ``warehouse``, of ``organization`` (needed when it holds several);
    InputError when it has no inventory views yet (last written by an older version),
    ConfigurationError for an organization it holds no record of, or none named among several."""
    check_approach(approach)
    columns = set(warehouse.query(INVENTORY_COLUMNS)["column_name"])
    if not columns:
        raise InputError(
            str(warehouse.path),
            "no GHG inventory in this warehouse yet (written by an older emissions-etl): "
            "any load with this version adds it",
        )
    rows = warehouse.query(ROWS, [approach])
    rejected = warehouse.query(REJECTED_ROWS)
    organization = _organization(rows, organization)
    if organization is not None:
        rows = rows[rows["organization_id"] == organization]
        rejected = rejected[rejected["organization_id"] == organization]
    rows = rows.assign(co2e_kg=rows["co2e_kg"].astype("float64"))
    undated = int(rows.loc[rows["activity_month"].isna(), "records"].sum())
    if year is not None:
        rows = rows[pd.to_datetime(rows["activity_month"]).dt.year == year]
    rows = rows.assign(facility=rows["facility_name"].fillna(rows["facility_id"]))
    return Inventory(
        approach=approach,
        year=year,
        organization=organization,
        lines=esrs_lines(
            _summed(rows, ["scope", "category", "category_name", "unclassified_reason"])
        ),
        by_month=_summed(rows.rename(columns={"activity_month": "month"}), ["month", "scope"]),
        by_facility=_summed(rows, ["facility", "scope"]),
        quality=_with_rejected_rows(
            _summed(rows, ["scope", "category", "category_name", "resource"]),
            rejected.drop(columns="organization_id"),
        ),
        undated_records=undated,
    )


def _organization(rows: pd.DataFrame, given: str | None) -> str | None:
    """The organization the inventory is of: ``given``, else the only one the rows name (None
    for a warehouse written before organizations were recorded). An inventory is one
    organization's: several without one named is a ConfigurationError, as is one not held."""
    held = sorted({str(org) for org in rows["organization_id"].dropna()})
    named = ", ".join(held) or "no organization id"
    if given is not None:
        if given not in held:
            raise ConfigurationError(
                f"--organization {given}: this warehouse holds no record of it (it holds {named})"
            )
        return given
    if len(held) > 1:
        raise ConfigurationError(
            f"this warehouse holds {len(held)} organizations ({named}): an inventory is one "
            "organization's, name it with --organization"
        )
    return held[0] if held else None


def _summed(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """co2e (0 where none is calculated) and record counts by ``keys``, missing keys kept."""
    summed = rows.groupby(keys, dropna=False, sort=True)[["co2e_kg", *_COUNTS]].sum()
    return summed.reset_index().astype(dict.fromkeys(_COUNTS, "int64"))


def _with_rejected_rows(by_resource: pd.DataFrame, rejected: pd.DataFrame) -> pd.DataFrame:
    """Each (line, resource) with the resource's rejected rows; a resource with rejected rows
    and no record gets a line of its own (no scope)."""
    quality = by_resource.drop(columns="co2e_kg").merge(rejected, on="resource", how="outer")
    quality[_COUNTS] = quality[_COUNTS].fillna(0).astype("int64")
    quality["rows_rejected"] = quality["rows_rejected"].fillna(0).astype("int64")
    return quality.sort_values(
        ["scope", "category", "resource"], na_position="last", kind="stable"
    ).reset_index(drop=True)
