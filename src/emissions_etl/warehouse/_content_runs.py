"""The runs a file's content had before: what a load asks before it reads a file, so that the
same content is not loaded twice (``loading.run_keys`` decides from them).

A run row records the SHA-256 of the file it read (``load_runs.file_sha256``) and the data set
its rows belong to (``source_name``): the runs that read this content, and the runs of this
data set, are all a load needs to know whether the file is new.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import duckdb

from emissions_etl.warehouse._delete_insert import OWN


@dataclass(frozen=True)
class ContentRun:
    """A run of one resource, as a load's run key reads it."""

    #: The file it read, as it was given (a path or a URL).
    source: str
    #: The data set its rows belong to (the file's name for a run recorded without it).
    source_name: str
    #: The SHA-256 of the file it read (empty for a run recorded without it).
    file_sha256: str
    outcome: str
    rows_failed: int
    started_at: datetime


def content_runs(
    con: duckdb.DuckDBPyConnection,
    organization_id: str | None,
    resource: str,
    file_sha256: str,
    source_name: str,
) -> list[ContentRun]:
    """The runs of ``resource`` that read a file of content ``file_sha256``, or that loaded the
    data set ``source_name``, oldest first (dry runs and runs under way left out)."""
    rows = con.execute(
        f"""
        SELECT source,
               coalesce(source_name, regexp_extract(source, '[^/\\\\]+$')),
               coalesce(file_sha256, ''), outcome, coalesce(rows_failed, 0), started_at
        FROM load_runs
        WHERE {OWN} AND resource = ? AND outcome NOT IN ('dry_run', 'running')
          AND (file_sha256 = ? OR source_name = ?)
        ORDER BY started_at
        """,
        [organization_id, resource, file_sha256, source_name],
    ).fetchall()
    return [
        ContentRun(str(source), str(name), str(digest), str(outcome), int(failed), started)
        for source, name, digest, outcome, failed, started in rows
    ]
