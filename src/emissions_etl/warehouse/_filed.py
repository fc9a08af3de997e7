"""Inventories as they were filed, and the records behind a figure with the rows they came from.

A filed inventory is kept in ``filed_inventories`` with what reproduces it exactly: on a
DuckLake its snapshot (the lake is read back as it was, ``Warehouse.at_snapshot``); on a DuckDB
file, which keeps no history, a frozen copy of the records behind it in
``filed_inventory_records``. The records are those of ``ghg_inventory_records_under`` with, for
each, the data set, run and landing of its row and the SHA-256 of the file that run read
(``inventory_records_sql``): the same relation an auditor's evidence is drawn from.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import duckdb
import pandas as pd

from emissions_etl.json_values import JsonObject
from emissions_etl.warehouse._delete_insert import staged, transaction
from emissions_etl.warehouse._inventory import OWNER_COLUMNS, RECORD_COLUMNS, check_approach

#: What a record's evidence adds to its line: its row's data set, the run that landed the row's
#: version, when it landed, and the SHA-256 of the file that run read.
EVIDENCE_COLUMNS = ("source_name", "run_id", "landed_at", "file_sha256")
#: The columns of an inventory record with its evidence, as ``inventory_records_sql`` and
#: ``filed_inventory_records`` give them.
INVENTORY_RECORD_COLUMNS = (
    *OWNER_COLUMNS, "consolidation_approach", "scope", "category", "category_name",
    *RECORD_COLUMNS, "unclassified_reason", *EVIDENCE_COLUMNS,
)  # fmt: skip
#: The columns of an estimate placed on an inventory line, as ``coverage_estimates_under`` and
#: ``filed_inventory_estimates`` (after its ``filed_id``) give them.
ESTIMATE_COLUMNS = ("organization_id", "consolidation_approach", "scope", "category",
                    "category_name", "unclassified_reason", "resource", "entity", "entity_id",
                    "activity_month", "facility_id", "facility_name", "estimate_kg",
                    "estimate_method")  # fmt: skip
#: The table of filed inventories; the snapshots it names are kept for ever (``_lake_upkeep``).
FILED_INVENTORIES = "filed_inventories"
#: The columns of ``filed_inventories``.
FILED_COLUMNS = ("filed_id", "organization_id", "reporting_year", "base_year",
                 "consolidation_approach", "filed_at", "filed_by", "note", "total_co2e_kg",
                 "records", "lines", "snapshot_id", "estimates_as_of")  # fmt: skip


class FiledRow(TypedDict):
    """A ``filed_inventories`` row (``FILED_COLUMNS``) as ``record_filed`` inserts it."""

    filed_id: str
    organization_id: str | None
    reporting_year: int
    base_year: int | None
    consolidation_approach: str
    filed_at: dt.datetime
    filed_by: str
    note: str | None
    total_co2e_kg: float | None
    records: int
    #: The ESRS E1-6 lines as filed, each as plain JSON values (stored as JSON text).
    lines: list[JsonObject]
    snapshot_id: int | None
    estimates_as_of: dt.date | None


@dataclass(frozen=True)
class Freeze:
    """Which records a filed inventory of a DuckDB file keeps a copy of: those of
    ``organization_id`` under ``approach`` dated in ``years``, and those without a date."""

    approach: str
    organization_id: str | None
    years: Sequence[int]


def inventory_records_sql(approach: str, *, with_digest: bool = True) -> str:
    """Every activity record of the inventory under ``approach`` (checked: it is written into
    the statement), its line and row, with ``EVIDENCE_COLUMNS``; ``with_digest`` False for a
    warehouse last written before files' SHA-256 were recorded (``file_sha256`` is null)."""
    digest = "l.file_sha256" if with_digest else "CAST(NULL AS VARCHAR)"
    return f"""
        SELECT i.*, s.source_name, s.run_id, s.landed_at, {digest} AS file_sha256
        FROM ghg_inventory_records_under('{check_approach(approach)}') AS i
        LEFT JOIN source_rows AS s
            ON s.organization_id IS NOT DISTINCT FROM i.organization_id
            AND s.resource = i.resource AND s.source_key = i.source_key
        LEFT JOIN load_runs AS l ON l.run_id = s.run_id
    """


def current_snapshot(con: duckdb.DuckDBPyConnection, catalog: str) -> int:
    """The id of the lake ``catalog``'s latest snapshot."""
    [(snapshot,)] = con.execute(f"SELECT id FROM {catalog}.current_snapshot()").fetchall()
    return int(snapshot)


def filed_snapshots(con: duckdb.DuckDBPyConnection, catalog: str) -> set[int]:
    """The snapshots of the lake ``catalog`` that filed inventories name (none when the lake
    has no such table yet: a lake no writer has migrated since)."""
    exists = con.execute(
        "SELECT 1 FROM duckdb_tables() WHERE database_name = ? AND table_name = ?",
        [catalog, FILED_INVENTORIES],
    ).fetchall()
    if not exists:
        return set()
    rows = con.execute(
        f"SELECT DISTINCT snapshot_id FROM {catalog}.main.{FILED_INVENTORIES} "
        "WHERE snapshot_id IS NOT NULL"
    ).fetchall()
    return {int(snapshot) for (snapshot,) in rows}


def record_filed(
    con: duckdb.DuckDBPyConnection,
    filed: FiledRow,
    freeze: Freeze | None,
    estimates: pd.DataFrame | None = None,
) -> None:
    """Insert the ``filed_inventories`` row ``filed`` (``lines`` written as JSON), with
    ``freeze`` the copy of its records, and the ``estimates`` it counted (``ESTIMATE_COLUMNS``),
    in one transaction."""
    values = {**filed, "lines": json.dumps(filed["lines"], sort_keys=True)}
    columns = ", ".join(FILED_COLUMNS)
    marks = ", ".join("?" for _ in FILED_COLUMNS)
    with transaction(con):
        con.execute(
            f"INSERT INTO {FILED_INVENTORIES} ({columns}) VALUES ({marks})",
            [values.get(name) for name in FILED_COLUMNS],
        )
        if freeze is not None:
            years = ", ".join(str(int(year)) for year in freeze.years) or "NULL"
            con.execute(
                "INSERT INTO filed_inventory_records BY NAME "
                f"SELECT ? AS filed_id, r.* FROM ({inventory_records_sql(freeze.approach)}) AS r "
                "WHERE r.organization_id IS NOT DISTINCT FROM ? "
                f"AND (year(r.activity_date) IN ({years}) OR r.activity_date IS NULL)",
                [filed["filed_id"], freeze.organization_id],
            )
        if estimates is not None and not estimates.empty:
            _record_estimates(con, str(filed["filed_id"]), estimates)


def _record_estimates(
    con: duckdb.DuckDBPyConnection, filed_id: str, estimates: pd.DataFrame
) -> None:
    columns = ", ".join(ESTIMATE_COLUMNS)
    with staged(con, estimates[list(ESTIMATE_COLUMNS)]) as name:
        con.execute(
            f"INSERT INTO filed_inventory_estimates (filed_id, {columns}) "
            f"SELECT ?, {columns} FROM {name}",
            [filed_id],
        )
