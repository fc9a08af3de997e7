"""Source rows and rejects: what the files said, with origin, landed through Arrow."""

from __future__ import annotations

import json

import pandas as pd

from emissions_etl.warehouse import Warehouse

from .conftest import rejects_frame, source_frame


def test_source_rows_keep_origin_hash_and_canonical_columns_as_json(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "wastes.xlsx", {})
        writer.runs.land_source_rows(run_id, "wastes", source_frame(["r1", "r2"]))

    rows = warehouse.query("SELECT * FROM source_rows ORDER BY source_key")
    first = rows.iloc[0]
    assert rows["source_key"].tolist() == ["r1", "r2"]
    assert (first["resource"], first["source_hash"], first["run_id"]) == ("wastes", "r1-v1", run_id)
    assert (first["source_file"], first["source_sheet"], first["source_row"]) == (
        "wastes.xlsx",
        "Wastes",
        4,
    )
    assert json.loads(first["payload"]) == {
        "facility": "Madrid Warehouse",
        "base_quantity": 0.0,
        "end_date": "2026-03-31",
    }


def test_a_later_version_of_a_source_row_replaces_the_earlier(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        first = writer.runs.start_run("wastes", "wastes.xlsx", {})
        writer.runs.land_source_rows(first, "wastes", source_frame(["r1", "r2"]))
        second = writer.runs.start_run("wastes", "wastes.xlsx", {})
        writer.runs.land_source_rows(second, "wastes", source_frame(["r2", "r3"], version="v2"))

    rows = warehouse.query("SELECT source_key, source_hash, run_id FROM source_rows ORDER BY 1")
    assert rows.to_dict("records") == [
        {"source_key": "r1", "source_hash": "r1-v1", "run_id": first},
        {"source_key": "r2", "source_hash": "r2-v2", "run_id": second},
        {"source_key": "r3", "source_hash": "r3-v2", "run_id": second},
    ]


def test_a_key_repeated_in_one_batch_lands_once_with_the_last_row(warehouse: Warehouse) -> None:
    frame = source_frame(["r1", "r2", "r1"])
    frame.loc[2, "source_hash"] = "r1-last"

    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", frame)

    rows = warehouse.query("SELECT source_key, source_hash, source_row FROM source_rows ORDER BY 1")
    assert rows.to_dict("records") == [
        {"source_key": "r1", "source_hash": "r1-last", "source_row": 6},
        {"source_key": "r2", "source_hash": "r2-v1", "source_row": 5},
    ]


def test_the_same_key_in_two_resources_is_two_rows(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame(["r1"]))
        writer.runs.land_source_rows("run", "purchases", source_frame(["r1"]))

    assert warehouse.query("SELECT count(*) AS n FROM source_rows")["n"][0] == 2


def test_an_empty_frame_lands_nothing(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", source_frame([]))
        writer.runs.land_rejects("run", "wastes", rejects_frame([]))

    assert warehouse.query("SELECT count(*) AS n FROM source_rows")["n"][0] == 0
    assert warehouse.query("SELECT count(*) AS n FROM rejects")["n"][0] == 0


def test_a_column_mixing_text_and_numbers_lands_as_text(warehouse: Warehouse) -> None:
    frame = source_frame(["r1", "r2"]).assign(description=pd.Series(["bags", 3], dtype=object))

    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", frame)

    payloads = warehouse.query("SELECT payload FROM source_rows ORDER BY source_key")["payload"]
    assert [json.loads(p)["description"] for p in payloads] == ["bags", "3"]


def test_rejects_are_appended_with_run_resource_and_time(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "wastes.xlsx", {})
        writer.runs.land_rejects(run_id, "wastes", rejects_frame([5, 9]))
        writer.runs.land_rejects(run_id, "wastes", rejects_frame([12]))

    stored = warehouse.query('SELECT * FROM rejects ORDER BY "row"')
    assert stored["row"].tolist() == [5, 9, 12]
    assert set(stored["run_id"]) == {run_id}
    assert set(stored["resource"]) == {"wastes"}
    assert stored["rejected_at"].notna().all()
    assert stored.iloc[0][["file", "sheet", "column", "value", "code"]].tolist() == [
        "wastes.xlsx",
        "Wastes",
        "Facility",
        "Madrid Wharehouse",
        "UNKNOWN_FACILITY",
    ]


def test_rejects_latest_shows_only_each_files_latest_run(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        old = writer.runs.start_run("wastes", "a.xlsx", {})
        writer.runs.land_rejects(old, "wastes", rejects_frame([5, 6], file="a.xlsx"))
        other = writer.runs.start_run("wastes", "b.xlsx", {})
        writer.runs.land_rejects(other, "wastes", rejects_frame([7], file="b.xlsx"))
    with warehouse.writer() as writer:
        new = writer.runs.start_run("wastes", "a.xlsx", {})
        writer.runs.land_rejects(new, "wastes", rejects_frame([6], file="a.xlsx"))

    latest = warehouse.query('SELECT source, run_id, "row" FROM rejects_latest')

    assert latest.to_dict("records") == [
        {"source": "a.xlsx", "run_id": new, "row": 6},
        {"source": "b.xlsx", "run_id": other, "row": 7},
    ]
