"""200,000 rows land through Arrow, one call each (timings: tests/benchmarks/bench_warehouse.py)."""

from __future__ import annotations

import pytest

from emissions_etl.warehouse import Warehouse

from .conftest import mapping_frame, remote_frame, source_frame

ROWS = 200_000

pytestmark = pytest.mark.slow  # benchmark-sized: left out of the fast run


def test_two_hundred_thousand_rows_land_and_replace(warehouse: Warehouse) -> None:
    keys = [f"row-{n}" for n in range(ROWS)]
    pairs = {key: f"id-{n}" for n, key in enumerate(keys)}

    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run-1", "wastes", source_frame(keys))
        writer.mappings.upsert_mapping("wastes", mapping_frame(pairs))
        writer.records.land_remote_records("wastes", remote_frame({v: k for k, v in pairs.items()}))
        writer.runs.land_source_rows("run-2", "wastes", source_frame(keys, version="v2"))

    counts = warehouse.query(
        "SELECT (SELECT count(*) FROM source_rows) AS source_rows,"
        " (SELECT count(*) FILTER (WHERE run_id = 'run-2') FROM source_rows) AS replaced,"
        " (SELECT count(*) FROM emissions) AS emissions"
    ).iloc[0]
    assert counts.to_dict() == {"source_rows": ROWS, "replaced": ROWS, "emissions": ROWS}
