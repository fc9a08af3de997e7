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
