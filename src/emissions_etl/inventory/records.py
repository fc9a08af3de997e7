"""The records behind an inventory, one row each: its line (scope, category, or why it has none),
its co2e and status, the row it came from, and that row's data set, landing and the SHA-256 of
the file it was loaded from (``warehouse.INVENTORY_RECORD_COLUMNS``).

Read from where the inventory's figures come from: the warehouse now, or for a filed inventory
its lake snapshot or the records frozen when it was filed. What the evidence file lists and
what a restatement compares.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from emissions_etl.inventory.reading import Inventory
from emissions_etl.warehouse import INVENTORY_RECORD_COLUMNS, Warehouse, inventory_records_sql

#: Whether the warehouse records files' SHA-256 (written by a version that does).
HAS_DIGEST = """
    SELECT count(*) AS n FROM information_schema.columns
    WHERE table_schema = 'main' AND table_name = 'load_runs' AND column_name = 'file_sha256'
"""
#: A record's identity in the service: a record deleted and made again is another one.
RECORD_KEY = ["resource", "remote_id"]


def records_behind(warehouse: Warehouse, inventory: Inventory) -> pd.DataFrame:
    """The records of ``inventory``'s reporting year (every record, dated or not, without
    one), read where its figures come from, in the order of ``RECORD_KEY``."""
    filed = inventory.filed
    years = None if inventory.year is None else [inventory.year]
    if filed is None:
        return read_records(warehouse, inventory.approach, inventory.organization, years)
    if filed.snapshot_id is not None:
        return read_records(
            warehouse.at_snapshot(filed.snapshot_id), filed.approach, filed.organization, years
        )
    return read_records(warehouse, filed.approach, filed.organization, years, frozen=filed.filed_id)


def read_records(
    warehouse: Warehouse,
    approach: str,
    organization: str | None,
    years: Sequence[int] | None,
    *,
    frozen: str | None = None,
) -> pd.DataFrame:
    """The records of ``organization`` under ``approach``, dated in ``years`` (None: every
    record); from the frozen copy of the filed inventory ``frozen`` instead, if given."""
    with warehouse.reading():
        if frozen is not None:
            source, params = "SELECT * FROM filed_inventory_records WHERE filed_id = ?", [frozen]
        else:
            digest = bool(int(warehouse.query(HAS_DIGEST)["n"].iloc[0]))
            source, params = inventory_records_sql(approach, with_digest=digest), []
        dated = "" if years is None else (
            f"AND year(r.activity_date) IN ({', '.join(str(int(y)) for y in years) or 'NULL'})"
        )  # fmt: skip
        records = warehouse.query(
            f"SELECT {', '.join(INVENTORY_RECORD_COLUMNS)} FROM ({source}) AS r "
            f"WHERE r.organization_id IS NOT DISTINCT FROM ? {dated} "
            "ORDER BY r.resource, r.remote_id",
            [*params, organization],
        )
    return records.assign(
        co2e_kg=records["co2e_kg"].astype("float64"),
        activity_date=pd.to_datetime(records["activity_date"]).dt.date,
        source_row=records["source_row"].astype("Int64"),
    )
