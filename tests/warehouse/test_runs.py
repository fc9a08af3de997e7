"""Load runs: opened ``running``, closed with outcome and counts, summarised newest first."""

from __future__ import annotations

import uuid

import pytest

from emissions_etl.warehouse import Warehouse

COUNTS = {
    "rows_read": 10,
    "rows_rejected": 2,
    "rows_unchanged": 1,
    "rows_sent": 7,
    "rows_loaded": 6,
    "rows_deleted": 1,
    "rows_failed": 1,
}


def test_start_run_records_a_running_run_with_its_parameters(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run(
            "wastes", "inbox/a.xlsx", {"sheet": "Wastes", "strict": False}
        )
        run = writer.runs.run_summary(run_id)

    assert uuid.UUID(run_id).version == 4
    assert (run["resource"], run["source"], run["outcome"]) == ("wastes", "inbox/a.xlsx", "running")
    assert run["parameters"] == {"sheet": "Wastes", "strict": False}
    assert run["finished_at"] is None


def test_a_run_keeps_the_sha256_of_the_file_it_read(warehouse: Warehouse) -> None:
    digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    with warehouse.writer() as writer:
        read = writer.runs.start_run("wastes", "a.xlsx", {}, file_sha256=digest)
        unknown = writer.runs.start_run("wastes", "b.xlsx", {})
        kept = [writer.runs.run_summary(run_id)["file_sha256"] for run_id in (read, unknown)]

    assert kept == [digest, None]


def test_finish_run_stores_outcome_counts_co2e_and_error(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "a.xlsx", {})
        writer.runs.finish_run(
            run_id, outcome="partial", counts=COUNTS, co2e_kg=123.5, error="ServerError: 503"
        )
        run = writer.runs.run_summary(run_id)

    assert {name: run[name] for name in COUNTS} == COUNTS
    assert (run["outcome"], run["co2e_kg"], run["error"]) == ("partial", 123.5, "ServerError: 503")
    assert run["finished_at"] >= run["started_at"]
    assert str(run["started_at"].tzinfo) == "UTC"


def test_counters_beyond_the_columns_are_kept_in_the_counts_json(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "a.xlsx", {})
        writer.runs.finish_run(
            run_id, outcome="succeeded", counts={"rows_read": 3, "rows_extra": 4}
        )
        run = writer.runs.run_summary(run_id)

    assert run["counts"] == {"rows_read": 3, "rows_extra": 4}
    assert (run["rows_read"], run["rows_sent"]) == (3, 0)


def test_an_unknown_outcome_is_refused(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("wastes", "a.xlsx", {})
        with pytest.raises(ValueError, match="outcome 'done'"):
            writer.runs.finish_run(run_id, outcome="done", counts={})


def test_an_unknown_run_id_raises_key_error(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        with pytest.raises(KeyError):
            writer.runs.run_summary("no-such-run")
        with pytest.raises(KeyError):
            writer.runs.finish_run("no-such-run", outcome="failed", counts={})


def test_load_run_summary_lists_runs_newest_first(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        first = writer.runs.start_run("wastes", "a.xlsx", {})
    with warehouse.writer() as writer:
        second = writer.runs.start_run("wastes", "b.xlsx", {})
        writer.runs.finish_run(second, outcome="succeeded", counts=COUNTS)

    runs = warehouse.query("SELECT run_id, outcome, duration_s FROM load_run_summary")

    assert runs["run_id"].tolist() == [second, first]
    assert runs["outcome"].tolist() == ["succeeded", "running"]
    assert runs["duration_s"].iloc[0] >= 0


def test_a_dry_run_records_no_run_to_read_back(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass
    with warehouse.dry_run() as parts:
        run_id = parts.runs.start_run("wastes", "a.xlsx", {"dry_run": True})
        parts.runs.finish_run(run_id, outcome="dry_run", counts={"rows_read": 1})
        with pytest.raises(KeyError, match="a dry run records none"):
            parts.runs.run_summary(run_id)

    assert warehouse.query("SELECT count(*) AS n FROM load_runs")["n"].tolist() == [0]
