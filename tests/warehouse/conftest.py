"""Fixtures for warehouse tests: a real DuckDB file in a tmp dir, and frames shaped as the
pipeline hands them over."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.warehouse import Warehouse


@pytest.fixture
def warehouse(tmp_path: Path) -> Warehouse:
    return Warehouse(tmp_path / "warehouse.duckdb")


def source_frame(
    keys: list[str], *, version: str = "v1", file: str = "wastes.xlsx"
) -> pd.DataFrame:
    """Canonical rows with origin and hash, as ``pipeline._source_rows`` builds them."""
    return pd.DataFrame(
        {
            "source_key": keys,
            "source_hash": [f"{key}-{version}" for key in keys],
            "_file": file,
            "_sheet": "Wastes",
            "_row": range(4, 4 + len(keys)),
            "facility": "Madrid Warehouse",
            "base_quantity": [float(i) for i in range(len(keys))],
            "end_date": [dt.date(2026, 3, 31)] * len(keys),
        }
    )


def mapping_frame(pairs: dict[str, str], *, version: str = "v1") -> pd.DataFrame:
    return pd.DataFrame(
        {
            "source_key": list(pairs),
            "remote_id": list(pairs.values()),
            "source_hash": [f"{key}-{version}" for key in pairs],
            "ingest_job_id": "job-1",
        }
    )


def remote_frame(pairs: dict[str, str], *, co2e_kg: float = 12.5) -> pd.DataFrame:
    """Records as ``readback.remote_frame`` returns them (remote id -> source key)."""
    ids = list(pairs)
    return pd.DataFrame(
        {
            "remote_id": ids,
            "source_key": list(pairs.values()),
            "activity_date": [dt.date(2026, 3, 31)] * len(ids),
            "co2e_kg": [co2e_kg] * len(ids),
            "status": "active",
            "facility_id": "fac-1",
            "remote_updated_at": pd.Timestamp("2026-04-01T10:00:00Z"),
            "payload": [json.dumps({"id": i}) for i in ids],
        }
    )


def rejects_frame(rows: list[int], *, file: str = "wastes.xlsx") -> pd.DataFrame:
    return pd.DataFrame(
        {
            "file": file,
            "sheet": "Wastes",
            "row": rows,
            "column": "Facility",
            "value": "Madrid Wharehouse",
            "code": "UNKNOWN_FACILITY",
            "message": "No facility of that name.",
        }
    )


#: Every table, view and table macro of the database in use, with its comment.
OBJECT_COMMENTS = (
    "SELECT table_name AS name, comment FROM duckdb_tables() "
    "WHERE database_name = current_database() "
    "UNION ALL SELECT view_name, comment FROM duckdb_views() "
    "WHERE database_name = current_database() AND NOT internal "
    "UNION ALL SELECT function_name, comment FROM duckdb_functions() "
    "WHERE database_name = current_database() AND function_type = 'table_macro'"
)
COLUMN_COMMENTS = (
    "SELECT table_name, column_name, comment FROM duckdb_columns() "
    "WHERE database_name = current_database()"
)


def comments(
    warehouse: Warehouse,
) -> tuple[dict[str, str | None], list[tuple[str, str, str | None]]]:
    """The comment of each table, view and table macro by name, and each column's (table,
    column, comment), as the warehouse (a file or a lake) holds them; None: no comment."""

    def text(value: object) -> str | None:
        return None if value is None or value != value else str(value)  # NaN: none

    objects = warehouse.query(OBJECT_COMMENTS).astype(object).values.tolist()
    columns = warehouse.query(COLUMN_COMMENTS).astype(object).values.tolist()
    return (
        {str(name): text(comment) for name, comment in objects},
        [(str(table), str(column), text(comment)) for table, column, comment in columns],
    )
