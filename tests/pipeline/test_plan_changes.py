from __future__ import annotations

import pandas as pd

from emissions_etl.upsert import plan_changes


def _records(rows: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["client_row_id", "source_hash"])


def _mapping(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["source_key", "remote_id", "source_hash"])


def test_new_rows_are_sent_and_nothing_is_stale() -> None:
    plan = plan_changes(_records([("a", "h1"), ("b", "h2")]), _mapping([]), "client_row_id")
    assert plan.to_send["client_row_id"].tolist() == ["a", "b"]
    assert plan.stale.empty
    assert plan.unchanged == 0


def test_unchanged_rows_are_not_sent() -> None:
    plan = plan_changes(
        _records([("a", "h1"), ("b", "h2")]), _mapping([("a", "r1", "h1")]), "client_row_id"
    )
    assert plan.to_send["client_row_id"].tolist() == ["b"]
    assert plan.unchanged == 1


def test_a_changed_row_is_sent_and_its_old_record_marked_stale() -> None:
    plan = plan_changes(_records([("a", "h9")]), _mapping([("a", "r1", "h1")]), "client_row_id")
    assert plan.to_send["client_row_id"].tolist() == ["a"]
    assert plan.stale.to_dict("records") == [{"source_key": "a", "remote_id": "r1"}]
