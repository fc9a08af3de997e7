"""What a load reads again and finds unchanged is not written again: a refresh of the sums, the
facilities directory (on a lake, each write is a snapshot and files, every night)."""

from __future__ import annotations

import pandas as pd

from emissions_etl.warehouse import Warehouse

from .conftest import remote_frame


def landed_at(warehouse: Warehouse, table: str, key: str) -> dict[str, object]:
    rows = warehouse.query(f"SELECT {key} AS k, landed_at FROM {table} ORDER BY k")
    return dict(zip(rows["k"], rows["landed_at"], strict=True))


def test_a_refresh_writes_only_the_records_that_changed(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("facilities", remote_frame({"f-1": "a", "f-2": "b"}))
    before = landed_at(warehouse, "remote_records", "remote_id")
    fresh = remote_frame({"f-1": "a", "f-2": "b"})
    fresh.loc[fresh["remote_id"] == "f-2", "co2e_kg"] = 99.0

    with warehouse.writer() as writer:
        written = writer.records.land_changed_records("facilities", fresh)
    after = landed_at(warehouse, "remote_records", "remote_id")

    assert written == 1
    assert after["f-1"] == before["f-1"]
    assert after["f-2"] > before["f-2"]
    co2e = warehouse.query("SELECT co2e_kg FROM remote_records WHERE remote_id = 'f-2'")
    assert co2e["co2e_kg"].tolist() == [99.0]


def test_an_unchanged_facility_directory_is_not_written_again(warehouse: Warehouse) -> None:
    directory = pd.DataFrame(
        [
            {"facility_id": "f-1", "name": "Madrid Warehouse", "country": "ES", "status": "active"},
            {"facility_id": "f-2", "name": "Barcelona Plant", "country": "ES", "status": "active"},
        ]
    )
    with warehouse.writer() as writer:
        writer.records.land_facilities(directory)
    before = landed_at(warehouse, "facilities", "facility_id")

    with warehouse.writer() as writer:
        writer.records.land_facilities(directory)
    unchanged = landed_at(warehouse, "facilities", "facility_id")
    directory.loc[1, "name"] = "Barcelona Central"
    with warehouse.writer() as writer:
        writer.records.land_facilities(directory)
    renamed = warehouse.query("SELECT name FROM facilities ORDER BY facility_id")

    assert unchanged == before
    assert renamed["name"].tolist() == ["Madrid Warehouse", "Barcelona Central"]
