"""The source key -> remote id mapping and the pending marks of chunks in flight."""

from __future__ import annotations

import pandas as pd

from emissions_etl.warehouse import Warehouse

from .conftest import mapping_frame


def test_mapping_round_trips_with_a_load_time(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1", "r2": "id-2"}))
        mapping = writer.mappings.mapping("wastes")

    assert list(mapping.columns) == [
        "source_key",
        "remote_id",
        "source_hash",
        "ingest_job_id",
        "loaded_at",
        "source_name",
    ]
    assert mapping[["source_key", "remote_id", "source_hash", "ingest_job_id"]].to_dict(
        "records"
    ) == [
        {"source_key": "r1", "remote_id": "id-1", "source_hash": "r1-v1", "ingest_job_id": "job-1"},
        {"source_key": "r2", "remote_id": "id-2", "source_hash": "r2-v1", "ingest_job_id": "job-1"},
    ]
    assert mapping["loaded_at"].notna().all()


def test_an_empty_mapping_still_has_its_columns(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        mapping = writer.mappings.mapping("wastes")

    assert mapping.empty
    assert {"source_key", "remote_id", "source_hash"} <= set(mapping.columns)


def test_upsert_mapping_replaces_a_key_and_keeps_the_others(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1", "r2": "id-2"}))
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r2": "id-2b"}, version="v2"))
        mapping = writer.mappings.mapping("wastes")

    assert dict(zip(mapping["source_key"], mapping["remote_id"], strict=True)) == {
        "r1": "id-1",
        "r2": "id-2b",
    }
    assert mapping.set_index("source_key").loc["r2", "source_hash"] == "r2-v2"


def test_upsert_mapping_keeps_the_last_of_duplicate_keys(warehouse: Warehouse) -> None:
    frame = pd.concat([mapping_frame({"r1": "id-old"}), mapping_frame({"r1": "id-new"})])

    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", frame)
        mapping = writer.mappings.mapping("wastes")

    assert mapping["remote_id"].tolist() == ["id-new"]


def test_upsert_mapping_accepts_a_frame_without_ingest_job_id(warehouse: Warehouse) -> None:
    frame = mapping_frame({"r1": "id-1"}).drop(columns="ingest_job_id")

    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", frame)
        mapping = writer.mappings.mapping("wastes")

    assert mapping["remote_id"].tolist() == ["id-1"]
    assert mapping["ingest_job_id"].isna().all()


def test_delete_mapping_forgets_only_the_given_keys_of_the_resource(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", mapping_frame({"r1": "id-1", "r2": "id-2"}))
        writer.mappings.upsert_mapping("other", mapping_frame({"r1": "id-9"}))
        writer.mappings.delete_mapping("wastes", ["r1"])
        writer.mappings.delete_mapping("wastes", [])

        assert writer.mappings.mapping("wastes")["source_key"].tolist() == ["r2"]
        assert writer.mappings.mapping("other")["source_key"].tolist() == ["r1"]


def _chunk(*keys: str) -> pd.DataFrame:
    return pd.DataFrame({"source_key": list(keys), "source_hash": [f"{k}-h" for k in keys]})


def test_pending_chunks_round_trip_until_cleared(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.marks.add_pending("wastes", "run-1", "key-a", _chunk("r1", "r2"))
        writer.marks.add_pending("wastes", "run-1", "key-b", _chunk("r3"))
        pending = writer.marks.pending("wastes")
        writer.marks.clear_pending("wastes", "key-a")
        after = writer.marks.pending("wastes")

    assert list(pending.columns) == [
        "idempotency_key",
        "run_id",
        "source_key",
        "source_hash",
        "payload",
        "remote_id",
        "created_at",
    ]
    assert sorted(pending["source_key"]) == ["r1", "r2", "r3"]
    assert set(pending["run_id"]) == {"run-1"}
    assert after["source_key"].tolist() == ["r3"]


def test_adding_the_same_pending_chunk_again_replaces_it(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.marks.add_pending("wastes", "run-1", "key-a", _chunk("r1", "r2"))
        writer.marks.add_pending("wastes", "run-2", "key-a", _chunk("r1", "r1"))
        pending = writer.marks.pending("wastes")

    assert pending[["run_id", "source_key"]].to_dict("records") == [
        {"run_id": "run-2", "source_key": "r1"}
    ]


def test_pending_marks_survive_a_closed_writer(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.marks.add_pending("wastes", "run-1", "key-a", _chunk("r1"))
    with warehouse.writer() as writer:
        pending = writer.marks.pending("wastes")

    assert pending["idempotency_key"].tolist() == ["key-a"]


def test_mapping_can_be_limited_to_the_keys_of_a_batch(warehouse: Warehouse) -> None:
    frame = pd.DataFrame(
        {
            "source_key": ["a", "b", "c"],
            "remote_id": ["r1", "r2", "r3"],
            "source_hash": ["h1", "h2", "h3"],
            "ingest_job_id": ["j", "j", "j"],
        }
    )
    with warehouse.writer() as writer:
        writer.mappings.upsert_mapping("wastes", frame)
        found = writer.mappings.mapping("wastes", ["c", "a", "zz", "a"])
    assert found["source_key"].tolist() == ["a", "c"]
    assert found["remote_id"].tolist() == ["r1", "r3"]
