"""Upkeep of a DuckDB file (``Warehouse.maintain``): loads never vacuum, so the row groups each
small load leaves are compacted by upkeep, the rows unchanged; a file with nothing to tidy
says so."""

from __future__ import annotations

from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._file_upkeep import FileFigures

from .conftest import mapping_frame, remote_frame, source_frame


def small_loads(warehouse: Warehouse, nights: int) -> None:
    """``nights`` runs of 40 rows, each in a writer of its own (a checkpoint each)."""
    for night in range(nights):
        keys = [f"n{night}-{n}" for n in range(40)]
        with warehouse.writer() as writer:
            writer.runs.land_source_rows(f"run-{night}", "wastes", source_frame(keys))
            writer.mappings.upsert_mapping("wastes", mapping_frame({k: f"id-{k}" for k in keys}))
            writer.records.land_remote_records("wastes", remote_frame({f"id-{k}": k for k in keys}))


def everything(warehouse: Warehouse) -> list[tuple[object, ...]]:
    rows = warehouse.query("SELECT * FROM emissions ORDER BY remote_id")
    return list(rows.itertuples(index=False))


def test_upkeep_compacts_the_row_groups_small_loads_leave(warehouse: Warehouse) -> None:
    small_loads(warehouse, 12)
    before = everything(warehouse)

    upkeep = warehouse.maintain(retention_days=30)

    assert isinstance(upkeep.before, FileFigures)
    assert isinstance(upkeep.after, FileFigures)
    assert upkeep.after.row_groups < upkeep.before.row_groups
    assert upkeep.after.free_blocks > upkeep.before.free_blocks  # for later writes to reuse
    assert any(line.startswith("row groups compacted: ") for line in upkeep.done)
    assert everything(warehouse) == before


def test_upkeep_of_a_tidy_file_has_nothing_to_do(warehouse: Warehouse) -> None:
    small_loads(warehouse, 1)

    upkeep = warehouse.maintain(retention_days=30)

    assert upkeep.done == ["nothing to do: no log to merge, no table to compact"]
    assert upkeep.after == upkeep.before
