"""A batch's records against what the warehouse already maps: new, changed or unchanged, by
``source_key`` and ``source_hash``."""

from __future__ import annotations

import pandas as pd

from emissions_etl.loading.writing import plan_changes


def _records(rows: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["source_key", "source_hash"])


def _mapping(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["source_key", "remote_id", "source_hash"])


def test_new_rows_are_sent_and_nothing_is_changed() -> None:
    plan = plan_changes(_records([("a", "h1"), ("b", "h2")]), _mapping([]))
    assert plan.new["source_key"].tolist() == ["a", "b"]
    assert plan.to_send["source_key"].tolist() == ["a", "b"]
    assert plan.changed.empty
    assert plan.unchanged == 0


def test_unchanged_rows_are_not_sent() -> None:
    plan = plan_changes(_records([("a", "h1"), ("b", "h2")]), _mapping([("a", "r1", "h1")]))
    assert plan.to_send["source_key"].tolist() == ["b"]
    assert plan.unchanged == 1


def test_a_changed_row_is_sent_with_the_remote_id_of_the_record_it_replaces() -> None:
    plan = plan_changes(_records([("a", "h9")]), _mapping([("a", "r1", "h1")]))
    assert plan.new.empty
    assert plan.changed[["source_key", "remote_id", "source_hash"]].to_dict("records") == [
        {"source_key": "a", "remote_id": "r1", "source_hash": "h9"}
    ]
    assert plan.to_send["source_key"].tolist() == ["a"]
    assert "remote_id" not in plan.to_send.columns
    assert plan.unchanged == 0


def test_records_of_other_keys_in_the_mapping_are_left_alone() -> None:
    plan = plan_changes(_records([("a", "h1")]), _mapping([("a", "r1", "h1"), ("z", "r26", "h26")]))
    assert (plan.unchanged, len(plan.new), len(plan.changed)) == (1, 0, 0)
