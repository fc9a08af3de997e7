"""Records read back from the service, and the analysts' ``emissions`` view over them."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from emissions_etl.warehouse import Warehouse

from .conftest import mapping_frame, remote_frame, source_frame

#: The public contract of the view (issue §7): extend, never rename.
CONTRACT_COLUMNS = [
    "resource",
    "source_key",
    "remote_id",
    "activity_date",
    "co2e_kg",
    "status",
    "loaded_at",
    "facility_id",
    "source_file",
    "source_sheet",
    "source_row",
]


def _load(warehouse: Warehouse, pairs: dict[str, str]) -> None:
    """Land source rows, mapping and remote records as one pipeline run would."""
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(list(pairs)))
        writer.mappings.upsert_mapping("wastes", mapping_frame(pairs))
        writer.records.land_remote_records("wastes", remote_frame({v: k for k, v in pairs.items()}))


def test_remote_records_round_trip_with_types(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", remote_frame({"id-1": "r1"}))

    record = warehouse.query("SELECT * FROM remote_records").iloc[0]
    assert (record["remote_id"], record["source_key"], record["status"]) == ("id-1", "r1", "active")
    assert record["activity_date"] == pd.Timestamp(dt.date(2026, 3, 31))
    assert record["co2e_kg"] == 12.5
    assert record["remote_updated_at"] == pd.Timestamp("2026-04-01T10:00:00Z")
    assert record["payload"] == '{"id": "id-1"}'


def test_landing_a_record_again_replaces_it_by_remote_id(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", remote_frame({"id-1": "r1", "id-2": "r2"}))
        later = remote_frame({"id-2": "r2"}, co2e_kg=99.0).assign(status="error")
        writer.records.land_remote_records("wastes", pd.concat([later, later]))

    rows = warehouse.query("SELECT remote_id, co2e_kg, status FROM remote_records ORDER BY 1")
    assert rows.to_dict("records") == [
        {"remote_id": "id-1", "co2e_kg": 12.5, "status": "active"},
        {"remote_id": "id-2", "co2e_kg": 99.0, "status": "error"},
    ]


def test_records_with_missing_optional_fields_land_as_nulls(warehouse: Warehouse) -> None:
    frame = remote_frame({"id-1": "r1"}).drop(columns=["facility_id", "remote_updated_at"])
    frame["co2e_kg"] = None
    frame["source_key"] = None

    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", frame)

    record = warehouse.query("SELECT * FROM remote_records").iloc[0]
    assert pd.isna(record["co2e_kg"])
    assert pd.isna(record["facility_id"])
    assert pd.isna(record["source_key"])


def test_the_view_has_one_row_per_remote_record_with_the_contract_columns(
    warehouse: Warehouse,
) -> None:
    _load(warehouse, {"r1": "id-1", "r2": "id-2"})

    view = warehouse.query("SELECT * FROM emissions ORDER BY source_key")

    assert list(view.columns)[: len(CONTRACT_COLUMNS)] == CONTRACT_COLUMNS
    assert view[["source_key", "remote_id"]].to_dict("records") == [
        {"source_key": "r1", "remote_id": "id-1"},
        {"source_key": "r2", "remote_id": "id-2"},
    ]
    first = view.iloc[0]
    assert (first["resource"], first["co2e_kg"], first["status"]) == ("wastes", 12.5, "active")
    assert (first["source_file"], first["source_sheet"], first["source_row"]) == (
        "wastes.xlsx",
        "Wastes",
        4,
    )
    assert first["facility_name"] == "Madrid Warehouse"
    assert first["loaded_at"].tzinfo is not None


def test_a_removed_record_leaves_the_view(warehouse: Warehouse) -> None:
    _load(warehouse, {"r1": "id-1", "r2": "id-2"})
    with warehouse.writer() as writer:
        writer.records.remove_remote_records("wastes", ["id-1"])
        writer.records.remove_remote_records("wastes", [])

    view = warehouse.query("SELECT remote_id FROM emissions")
    assert view["remote_id"].tolist() == ["id-2"]


def test_a_replaced_record_shows_once_under_its_new_id(warehouse: Warehouse) -> None:
    _load(warehouse, {"r1": "id-1"})
    with warehouse.writer() as writer:  # the changed-row path of the uploader
        writer.mappings.delete_mapping("wastes", ["r1"])
        writer.records.remove_remote_records("wastes", ["id-1"])
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1b"}, version="v2"))
        writer.records.land_remote_records("wastes", remote_frame({"id-1b": "r1"}))

    view = warehouse.query("SELECT source_key, remote_id FROM emissions")
    assert view.to_dict("records") == [{"source_key": "r1", "remote_id": "id-1b"}]


def test_a_record_without_source_key_is_matched_through_the_mapping(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(["r1"]))
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1"}))
        writer.records.land_remote_records(
            "wastes", remote_frame({"id-1": "r1"}).assign(source_key=None)
        )

    view = warehouse.query("SELECT source_key, source_row FROM emissions")
    assert view.to_dict("records") == [{"source_key": "r1", "source_row": 4}]


def test_a_record_without_mapping_or_source_row_still_shows(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", remote_frame({"id-9": "made-in-the-ui"}))

    view = warehouse.query("SELECT source_key, loaded_at, source_file FROM emissions")
    assert view["source_key"].tolist() == ["made-in-the-ui"]
    assert view["loaded_at"].notna().all()
    assert view["source_file"].isna().all()


def test_facility_names_from_the_service_label_the_emissions_view(warehouse: Warehouse) -> None:
    import pandas as pd

    with warehouse.writer() as writer:
        writer.records.land_facilities(
            pd.DataFrame([{"facility_id": "f-1", "name": "Madrid Warehouse", "country": "ES"}])
        )
        writer.records.land_remote_records(
            "wastes",
            pd.DataFrame(
                [
                    {
                        "remote_id": "r-1",
                        "source_key": "k",
                        "activity_date": "2026-01-31",
                        "co2e_kg": 1.5,
                        "status": "active",
                        "facility_id": "f-1",
                        "payload": "{}",
                    }
                ]
            ),
        )
        writer.records.land_facilities(
            pd.DataFrame([{"facility_id": "f-1", "name": "Madrid Central", "country": "ES"}])
        )
    names = warehouse.query("SELECT facility_name FROM emissions")["facility_name"].tolist()
    assert names == ["Madrid Central"]
    assert warehouse.query("SELECT count(*) AS n FROM facilities")["n"][0] == 1
