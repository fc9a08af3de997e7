"""What the report shows, read from the warehouse's documented views and tables in one pass.

co2e figures cover activity records only: rows flagged ``is_aggregate`` (the aggregate
resources, whose co2e sums other records') would count the same co2e twice.
Every figure is aggregated in DuckDB (the warehouse may hold millions of records); only the
handful of rows a chart or table needs comes back as a frame. Read-only, through
``Warehouse.query``: the report never holds the writer's lock.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from emissions_etl.coverage import Coverage, CoverageRequest
from emissions_etl.errors import WarehouseError
from emissions_etl.inventory import Inventory, Restatement
from emissions_etl.report.coverage_data import coverage_data
from emissions_etl.report.inventory_data import InventoryRequest, inventory_data
from emissions_etl.warehouse import Warehouse

#: Bars in the facility chart before the rest is summed as one "other" bar.
TOP_FACILITIES = 15
#: Source files in the "top sources" chart, and records in the "largest records" table.
TOP_SOURCES = 10
TOP_RECORDS = 10
#: Runs in the "last runs" table, and rejected cells in the "latest rejects" table.
LAST_RUNS = 20
LATEST_REJECTS = 15

#: The relations the report reads; a file with none of them is a warehouse nothing landed in.
REQUIRED_RELATIONS = ("emissions", "load_run_summary", "rejects", "load_runs")

#: Records whose co2e adds up: not those of the aggregate resources, whose co2e is the sum of
#: other records' (warehouse README: ``is_aggregate``, "leave these rows out of
#: totals"). A warehouse written before the column existed holds activity records only.
ACTIVITY = "(SELECT * FROM emissions WHERE NOT is_aggregate)"
ACTIVITY_BEFORE_AGGREGATES = "emissions"

HAS_IS_AGGREGATE = """
    SELECT count(*) AS n FROM information_schema.columns
    WHERE table_schema = 'main' AND table_name = 'emissions' AND column_name = 'is_aggregate'
"""

RELATIONS = """
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'main' AND list_contains($1, table_name)
"""

HEADLINE = """
    SELECT count(*)                                          AS records,
           count(co2e_kg)                                    AS calculated,
           count(*) FILTER (WHERE status = 'error')          AS errors,
           count(*) FILTER (WHERE co2e_kg IS NULL AND coalesce(status, '') <> 'error')
                                                             AS pending,
           coalesce(sum(co2e_kg), 0)                         AS co2e_kg,
           min(activity_date)                                AS first_date,
           max(activity_date)                                AS last_date,
           count(DISTINCT resource)                          AS resources,
           count(*) FILTER (WHERE co2e_kg IS NOT NULL AND activity_date IS NULL) AS undated,
           (SELECT count(*) FROM emissions) - count(*)       AS aggregates
    FROM {activity} AS e
"""

BY_MONTH_AND_RESOURCE = """
    SELECT date_trunc('month', activity_date) AS month, resource,
           sum(co2e_kg) AS co2e_kg, count(*) AS records
    FROM {activity} AS e
    WHERE co2e_kg IS NOT NULL AND activity_date IS NOT NULL
    GROUP BY ALL
    ORDER BY month, resource
"""

# Facilities ranked by co2e; those past the top N are summed into one row with is_other.
BY_FACILITY_AND_RESOURCE = """
    WITH per AS (
        SELECT coalesce(facility_name, facility_id) AS facility, resource,
               sum(co2e_kg) AS co2e_kg, count(*) AS records
        FROM {activity} AS e
        WHERE co2e_kg IS NOT NULL
        GROUP BY ALL
    ), ranked AS (
        SELECT facility,
               row_number() OVER (ORDER BY sum(co2e_kg) DESC, facility NULLS LAST) AS rank
        FROM per
        GROUP BY facility
    )
    SELECT CASE WHEN r.rank <= $1 THEN p.facility END AS facility,
           r.rank > $1 AS is_other,
           min(r.rank) AS rank,
           (SELECT count(*) FROM ranked WHERE rank > $1) AS others,
           p.resource,
           sum(p.co2e_kg) AS co2e_kg,
           sum(p.records) AS records
    FROM per AS p
    JOIN ranked AS r ON r.facility IS NOT DISTINCT FROM p.facility
    GROUP BY ALL
    ORDER BY rank, resource
"""

TOP_SOURCE_FILES = """
    WITH per AS (
        SELECT source_file, resource, sum(co2e_kg) AS co2e_kg, count(*) AS records
        FROM {activity} AS e
        WHERE co2e_kg IS NOT NULL
        GROUP BY ALL
    ), ranked AS (
        SELECT source_file,
               row_number() OVER (ORDER BY sum(co2e_kg) DESC, source_file NULLS LAST) AS rank
        FROM per
        GROUP BY source_file
    )
    SELECT p.source_file, r.rank, p.resource, p.co2e_kg, p.records
    FROM per AS p
    JOIN ranked AS r ON r.source_file IS NOT DISTINCT FROM p.source_file
    WHERE r.rank <= $1
    ORDER BY r.rank, p.resource
"""

TOP_RECORDS_SQL = """
    SELECT resource, source_file, source_sheet, source_row, source_key, remote_id,
           coalesce(facility_name, facility_id) AS facility, activity_date, co2e_kg
    FROM {activity} AS e
    WHERE co2e_kg IS NOT NULL
    ORDER BY co2e_kg DESC, resource, source_key
    LIMIT $1
"""

# The figures the runs' own summaries give (``loading.figures``): co2e loaded by the run, of
# activity records only, and beside each file's latest run the co2e the records of the rows it
# landed hold now (``source_rows`` keeps the run that landed each row's latest version).
LAST_RUNS_SQL = """
    WITH latest AS (
        SELECT run_id FROM load_runs
        QUALIFY row_number() OVER (PARTITION BY resource, source ORDER BY started_at DESC) = 1
    ), held AS (
        SELECT s.run_id, sum(e.co2e_kg) AS co2e_kg
        FROM {activity} AS e
        JOIN source_rows AS s ON s.organization_id IS NOT DISTINCT FROM e.organization_id
            AND s.resource = e.resource AND s.source_key = e.source_key
        GROUP BY s.run_id
    ), aggregates AS (
        SELECT resource FROM resource_catalog WHERE is_aggregate
    )
    SELECT r.run_id, r.resource, r.source, r.outcome, r.started_at, r.finished_at, r.duration_s,
           r.rows_read, r.rows_rejected, r.rows_unchanged, r.rows_sent, r.rows_loaded,
           r.rows_failed, r.error,
           CASE WHEN r.resource IN (SELECT resource FROM aggregates) THEN NULL
                ELSE r.co2e_kg END                                   AS co2e_kg,
           CASE WHEN r.run_id IN (SELECT run_id FROM latest)
                     AND r.resource NOT IN (SELECT resource FROM aggregates)
                THEN coalesce(h.co2e_kg, 0) END                      AS co2e_in_service_kg
    FROM load_run_summary AS r
    LEFT JOIN held AS h ON h.run_id = r.run_id
    ORDER BY r.started_at DESC, r.run_id
    LIMIT $1
"""

RUN_OUTCOMES = """
    SELECT outcome, count(*) AS runs, max(started_at) AS last_started_at
    FROM load_runs
    GROUP BY outcome
    ORDER BY runs DESC, outcome
"""

# Rejects still to fix: those of the latest run of each (resource, source file).
_OPEN_REJECTS = """
    WITH latest AS (
        SELECT run_id FROM load_runs
        QUALIFY row_number() OVER (PARTITION BY resource, source ORDER BY started_at DESC) = 1
    )
    SELECT j.* FROM rejects AS j JOIN latest USING (run_id)
"""

REJECTS_BY_CODE = f"""
    WITH open AS ({_OPEN_REJECTS})
    SELECT coalesce(code, '(no code)') AS code, resource,
           count(*) AS cells,
           count(DISTINCT (coalesce("file", ''), coalesce(sheet, ''), "row")) AS rows
    FROM open
    GROUP BY ALL
    ORDER BY code, resource
"""

LATEST_REJECTS_SQL = f"""
    WITH open AS ({_OPEN_REJECTS})
    SELECT resource, "file", sheet, "row", "column", "value", code, message, rejected_at,
           count(*) OVER () AS total
    FROM open
    ORDER BY rejected_at DESC, "file", sheet, "row", "column"
    LIMIT $1
"""


@dataclass(frozen=True)
class ReportData:
    """The frames one report is drawn from (each possibly empty)."""

    headline: pd.Series
    by_month: pd.DataFrame
    by_facility: pd.DataFrame
    top_sources: pd.DataFrame
    top_records: pd.DataFrame
    last_runs: pd.DataFrame
    run_outcomes: pd.DataFrame
    rejects_by_code: pd.DataFrame
    latest_rejects: pd.DataFrame
    #: The GHG inventory; None for a warehouse written before it existed, or holding several
    #: organizations (``inventory_note`` says which).
    inventory: Inventory | None = None
    inventory_note: str = ""
    #: The inventory restated against a filed one (``report --against ID``).
    restatement: Restatement | None = None
    #: The coverage of the inventory's year; None when there is none (``coverage_note`` says
    #: why).
    coverage: Coverage | None = None
    coverage_note: str = ""

    @property
    def records(self) -> int:
        return int(self.headline["records"])

    @property
    def co2e_kg(self) -> float:
        """The co2e of every activity record (every year): never called the total."""
        return float(self.headline["co2e_kg"])

    @property
    def total_kg(self) -> float | None:
        """The inventory's one total (Total GHG emissions, location-based, of its period under
        its approach); None when the page has no inventory."""
        return None if self.inventory is None else self.inventory.total_kg

    @property
    def runs(self) -> int:
        return int(self.run_outcomes["runs"].sum()) if not self.run_outcomes.empty else 0

    @property
    def open_rejects(self) -> int:
        return int(self.rejects_by_code["cells"].sum()) if not self.rejects_by_code.empty else 0

    @property
    def is_empty(self) -> bool:
        """Nothing landed yet: no record, no run, no reject."""
        return self.records == 0 and self.runs == 0 and self.open_rejects == 0


def read_report_data(
    warehouse: Warehouse,
    *,
    inventory: InventoryRequest | None = None,
    coverage: CoverageRequest | None = None,
) -> ReportData:
    """Everything the report shows, the inventory as ``inventory`` asks and the coverage as
    ``coverage`` does; an empty ReportData for a file nothing was loaded into."""
    present = set(warehouse.query(RELATIONS, [list(REQUIRED_RELATIONS)])["table_name"])
    if not present:
        return empty_report_data()
    missing = [name for name in REQUIRED_RELATIONS if name not in present]
    if missing:
        raise WarehouseError(
            f"{warehouse.path}: not an emissions-etl warehouse (no {', '.join(missing)})"
        )
    aggregates_known = int(warehouse.query(HAS_IS_AGGREGATE)["n"].iloc[0]) > 0
    activity = ACTIVITY if aggregates_known else ACTIVITY_BEFORE_AGGREGATES

    def records(sql: str, params: list[int] | None = None) -> pd.DataFrame:
        return warehouse.query(sql.replace("{activity}", activity), params or [])

    return ReportData(
        headline=records(HEADLINE).iloc[0],
        by_month=records(BY_MONTH_AND_RESOURCE),
        by_facility=records(BY_FACILITY_AND_RESOURCE, [TOP_FACILITIES]),
        top_sources=records(TOP_SOURCE_FILES, [TOP_SOURCES]),
        top_records=records(TOP_RECORDS_SQL, [TOP_RECORDS]),
        last_runs=records(LAST_RUNS_SQL, [LAST_RUNS]),
        run_outcomes=warehouse.query(RUN_OUTCOMES),
        rejects_by_code=warehouse.query(REJECTS_BY_CODE),
        latest_rejects=warehouse.query(LATEST_REJECTS_SQL, [LATEST_REJECTS]),
        **inventory_data(warehouse, inventory or InventoryRequest()),
        **coverage_data(warehouse, coverage or CoverageRequest()),
    )


def empty_report_data() -> ReportData:
    """The data of a warehouse file that has no tables yet."""
    headline = pd.Series(
        {
            "records": 0,
            "calculated": 0,
            "errors": 0,
            "pending": 0,
            "co2e_kg": 0.0,
            "first_date": None,
            "last_date": None,
            "resources": 0,
            "undated": 0,
            "aggregates": 0,
        }
    )
    nothing = pd.DataFrame()
    return ReportData(
        headline,
        by_month=nothing,
        by_facility=nothing,
        top_sources=nothing,
        top_records=nothing,
        last_runs=nothing,
        run_outcomes=nothing,
        rejects_by_code=nothing,
        latest_rejects=nothing,
    )
