"""A batch that cannot land changes nothing, and leaves the writer as a WarehouseError."""

from __future__ import annotations

import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse import Warehouse

from .conftest import remote_frame


def test_a_batch_that_fails_to_land_leaves_the_earlier_rows_intact(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", remote_frame({"id-1": "r1"}))

    bad = remote_frame({"id-1": "r1", "id-2": "r2"}, co2e_kg=50.0).assign(
        activity_date="not a date"
    )
    with pytest.raises(WarehouseError, match="not a date"), warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", bad)

    rows = warehouse.query("SELECT remote_id, co2e_kg FROM remote_records")
    assert rows.to_dict("records") == [{"remote_id": "id-1", "co2e_kg": 12.5}]


def test_a_frame_missing_a_key_column_is_refused_by_name(warehouse: Warehouse) -> None:
    frame = remote_frame({"id-1": "r1"}).drop(columns="remote_id")

    with warehouse.writer() as writer, pytest.raises(ValueError, match="remote_id"):
        writer.records.land_remote_records("wastes", frame)


def test_the_lock_is_released_after_a_failed_run(warehouse: Warehouse) -> None:
    with pytest.raises(RuntimeError), warehouse.writer():
        raise RuntimeError("the pipeline failed")

    with warehouse.writer(wait_seconds=0) as writer:
        assert writer.marks.pending("wastes").empty
