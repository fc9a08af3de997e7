"""The ``load_runs`` table: one row per load run, opened ``running`` and closed with its counts.

A run row is a single INSERT and a single UPDATE; frames never go through here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import uuid
from collections.abc import Mapping
from typing import TypedDict

import duckdb

from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.scrubbing import scrub

#: Outcomes a run may end with (``running`` while it is under way).
OUTCOMES = ("running", "succeeded", "partial", "rejected", "failed", "dry_run", "interrupted")

#: This process, as a run's ``runner`` names it.
HOST = socket.gethostname()
RUNNER = f"{HOST}:{os.getpid()}"
#: A run of another machine still ``running`` after this long is taken for dead.
STALE_AFTER_HOURS = 12

#: Counters with a column of their own; any other counter is kept in the ``counts`` JSON.
COUNT_COLUMNS = (
    "rows_read",
    "rows_rejected",
    "rows_unchanged",
    "rows_sent",
    "rows_loaded",
    "rows_deleted",
    "rows_failed",
    "rows_recovered",
)


class RunSummary(TypedDict):
    """A run row as ``run_summary`` reads it back: a column of ``load_runs`` per key, its
    ``parameters`` and ``counts`` parsed from JSON (None: a running run's counts)."""

    run_id: str
    resource: str
    source: str
    parameters: JsonObject | None
    started_at: dt.datetime
    finished_at: dt.datetime | None
    outcome: str
    rows_read: int | None
    rows_rejected: int | None
    rows_unchanged: int | None
    rows_sent: int | None
    rows_loaded: int | None
    rows_deleted: int | None
    rows_failed: int | None
    rows_recovered: int | None
    counts: JsonObject | None
    co2e_kg: float | None
    error: str | None
    source_name: str | None
    organization_id: str | None
    runner: str | None
    file_sha256: str | None


def start_run(
    con: duckdb.DuckDBPyConnection,
    resource: str,
    source: str,
    parameters: Mapping[str, JsonValue],
    *,
    source_name: str | None = None,
    organization_id: str | None = None,
    file_sha256: str | None = None,
) -> str:
    """Insert a ``running`` run row and return its new run id (a uuid4 string)."""
    run_id = str(uuid.uuid4())
    con.execute(
        "INSERT INTO load_runs (run_id, resource, source, source_name, organization_id, runner, "
        "parameters, file_sha256, started_at, outcome) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, now(), 'running')",
        [
            run_id,
            resource,
            source,
            source_name,
            organization_id,
            RUNNER,
            json.dumps(dict(parameters), sort_keys=True),
            file_sha256,
        ],
    )
    return run_id


def finish_run(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    *,
    outcome: str,
    counts: Mapping[str, int],
    co2e_kg: float | None,
    error: str | None,
) -> None:
    """Close the run: outcome, counters (a missing one is 0), co2e, error and ``finished_at``."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
    assignments = ", ".join(f"{name} = ?" for name in COUNT_COLUMNS)
    known = con.execute("SELECT 1 FROM load_runs WHERE run_id = ?", [run_id]).fetchall()
    if not known:
        raise KeyError(f"no load run {run_id}")
    con.execute(
        f"UPDATE load_runs SET outcome = ?, {assignments}, counts = ?, co2e_kg = ?, error = ?, "
        "finished_at = now() WHERE run_id = ?",
        [
            outcome,
            *(_count(counts, name) for name in COUNT_COLUMNS),
            json.dumps({name: int(value) for name, value in counts.items()}, sort_keys=True),
            co2e_kg,
            None if error is None else scrub(error),  # kept for anyone who reads the lake
            run_id,
        ],
    )


def run_summary(con: duckdb.DuckDBPyConnection, run_id: str) -> RunSummary:
    """The run row; ``parameters`` and ``counts`` parsed from JSON."""
    row = con.execute(
        f"SELECT {', '.join(RunSummary.__annotations__)} FROM load_runs WHERE run_id = ?",
        [run_id],
    ).fetchone()
    if row is None:
        raise KeyError(f"no load run {run_id}")
    (run_id, resource, source, parameters, started_at, finished_at, outcome,
     read, rejected, unchanged, sent, loaded, deleted, failed, recovered,
     counts, co2e_kg, error, source_name, organization_id, runner, file_sha256) = row  # fmt: skip
    return RunSummary(
        run_id=run_id,
        resource=resource,
        source=source,
        parameters=_json_object(parameters),
        started_at=started_at,
        finished_at=finished_at,
        outcome=outcome,
        rows_read=read,
        rows_rejected=rejected,
        rows_unchanged=unchanged,
        rows_sent=sent,
        rows_loaded=loaded,
        rows_deleted=deleted,
        rows_failed=failed,
        rows_recovered=recovered,
        counts=_json_object(counts),
        co2e_kg=co2e_kg,
        error=error,
        source_name=source_name,
        organization_id=organization_id,
        runner=runner,
        file_sha256=file_sha256,
    )


def _json_object(text: str | None) -> JsonObject | None:
    """A JSON column's object (None: NULL)."""
    if text is None:
        return None
    value: JsonValue = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object in load_runs, got {type(value).__name__}")
    return value


def _count(counts: Mapping[str, int], name: str) -> int:
    return int(counts.get(name) or 0)


def mark_interrupted(con: duckdb.DuckDBPyConnection, *, exclusive: bool = True) -> int:
    """Runs still ``running`` whose process died become ``interrupted``; returns how many.

    With one writer at a time (``exclusive``: a DuckDB file) every running run's process died.
    With several (a lake), a run of this machine is dead when its pid is; one of another machine
    when it started more than ``STALE_AFTER_HOURS`` ago (a load takes minutes).
    """
    where = "outcome = 'running'"
    params: list[list[str]] = []
    if not exclusive:
        ours = [f"{HOST}:{pid}" for pid in _dead_pids(con)]
        where += (
            " AND (runner IN (SELECT unnest(?::VARCHAR[])) OR runner IS NULL "
            f"OR started_at < now() - INTERVAL {STALE_AFTER_HOURS} HOUR)"
        )
        params.append(ours)
    # No RETURNING: DuckLake does not take it on UPDATE.
    [(count,)] = con.execute(f"SELECT count(*) FROM load_runs WHERE {where}", params).fetchall()
    if count:
        con.execute(
            "UPDATE load_runs SET outcome = 'interrupted', finished_at = now(), "
            f"error = 'the process ended before the run finished' WHERE {where}",
            params,
        )
    return int(count)


def _dead_pids(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Pids of this machine's running runs whose process is gone."""
    runners = con.execute(
        "SELECT DISTINCT runner FROM load_runs WHERE outcome = 'running' AND runner LIKE ?",
        [f"{HOST}:%"],
    ).fetchall()
    pids = [int(runner.rsplit(":", 1)[1]) for (runner,) in runners]
    return [pid for pid in pids if not _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
