"""A load run as the warehouse keeps it: its run row, the rows its file said (``source_rows``),
the cells it rejected (``rejects``), and the co2e the records of its rows hold.

The run row's statements are ``_runs``'; frames land through Arrow (``_delete_insert``).
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS
from emissions_etl.json_values import JsonValue
from emissions_etl.warehouse import _runs
from emissions_etl.warehouse._conflicts import retrying
from emissions_etl.warehouse._content_runs import ContentRun, content_runs
from emissions_etl.warehouse._delete_insert import (
    OWN,
    delete_insert,
    quote,
    require_columns,
    staged,
)
from emissions_etl.warehouse._resting import within_budget
from emissions_etl.warehouse._runs import RunSummary

#: Origin columns of a canonical frame (sources: file, sheet, 1-based row, and a table source
#: row's key); not imported from ``sources``, whose package brings every reader with it.
ORIGIN_COLUMNS = ("_file", "_sheet", "_row", "_key")


class WarehouseRunLog:
    """The runs of one organization (``organization_id``) over one open connection."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        organization_id: str | None,
        *,
        exclusive: bool = True,
    ) -> None:
        self._con = con
        self._organization_id = organization_id
        #: The only writer (a file): every run still running when it opens was interrupted.
        self._exclusive = exclusive

    @retrying
    def mark_interrupted_runs(self) -> int:
        """Runs left ``running`` by a process that died become ``interrupted``."""
        return _runs.mark_interrupted(self._con, exclusive=self._exclusive)

    @retrying
    def start_run(
        self,
        resource: str,
        source: str,
        parameters: Mapping[str, JsonValue],
        *,
        source_name: str | None = None,
        file_sha256: str | None = None,
    ) -> str:
        """Record a new run of file ``source`` (of data set ``source_name``; ``file_sha256``:
        the SHA-256 of the file as it is loaded) as ``running``; returns its run id (uuid4)."""
        return _runs.start_run(
            self._con,
            resource,
            source,
            parameters,
            source_name=source_name,
            organization_id=self._organization_id,
            file_sha256=file_sha256,
        )

    @retrying
    def finish_run(
        self,
        run_id: str,
        *,
        outcome: str,
        counts: Mapping[str, int],
        co2e_kg: float | None = None,
        error: str | None = None,
    ) -> None:
        """Close a run: outcome (``succeeded|partial|failed|dry_run``), counts, co2e, error."""
        _runs.finish_run(
            self._con, run_id, outcome=outcome, counts=counts, co2e_kg=co2e_kg, error=error
        )

    def run_summary(self, run_id: str) -> RunSummary:
        """The run row (KeyError for an unknown run)."""
        return _runs.run_summary(self._con, run_id)

    @retrying
    def content_runs(self, resource: str, file_sha256: str, source_name: str) -> list[ContentRun]:
        """The runs that read this content, or loaded this data set, oldest first."""
        return content_runs(self._con, self._organization_id, resource, file_sha256, source_name)

    @retrying
    def land_source_rows(
        self, run_id: str, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None:
        """Upsert rows by (resource, source_key), latest wins; other columns become ``payload``.
        The run that lands a row is what a mirror reads as "still in the file"."""
        require_columns(frame, ("source_key", "source_hash"), "land_source_rows")
        frame = frame.rename(columns=str).reindex(
            columns=[*frame.columns, *(c for c in ORIGIN_COLUMNS if c not in frame.columns)]
        )
        canonical = [c for c in frame.columns if c not in {"source_key", "source_hash"}]
        canonical = [c for c in canonical if c not in ORIGIN_COLUMNS]
        fields = ", ".join(f"{quote(c)} := {quote(c)}" for c in canonical)
        payload = f"to_json(struct_pack({fields}))" if canonical else "'{}'::JSON"
        select = (
            "CAST(source_key AS VARCHAR) AS source_key, "
            "CAST(source_hash AS VARCHAR) AS source_hash, ? AS run_id, "
            "CAST(_file AS VARCHAR) AS source_file, CAST(_sheet AS VARCHAR) AS source_sheet, "
            f"TRY_CAST(_row AS BIGINT) AS source_row, {payload} AS payload, now() AS landed_at, "
            "CAST(? AS VARCHAR) AS source_name, CAST(_key AS VARCHAR) AS source_row_key"
        )
        delete_insert(
            self._con,
            organization_id=self._organization_id,
            table="source_rows",
            resource=resource,
            frame=frame,
            key="source_key",
            select=select,
            params=[run_id, source_name],
        )

    @retrying
    def land_rejects(self, run_id: str, resource: str, rejects: pd.DataFrame) -> None:
        """Append the run's rejected cells (file, sheet, row, column, value, code, message, and
        the key of a table source's row)."""
        if rejects.empty:
            return
        require_columns(rejects, ("row", "code"), "land_rejects")
        frame = rejects.reindex(columns=list(REJECT_COLUMNS))
        with staged(self._con, frame) as name:
            self._con.execute(
                "INSERT INTO rejects BY NAME SELECT ? AS organization_id, ? AS run_id, "
                "? AS resource, "
                'CAST("file" AS VARCHAR) AS "file", CAST(sheet AS VARCHAR) AS sheet, '
                'TRY_CAST("row" AS BIGINT) AS "row", CAST("column" AS VARCHAR) AS "column", '
                'CAST("value" AS VARCHAR) AS "value", CAST(code AS VARCHAR) AS code, '
                "CAST(message AS VARCHAR) AS message, "
                'nullif(CAST("key" AS VARCHAR), \'\') AS "key", '
                f"now() AS rejected_at FROM {name}",
                [self._organization_id, run_id, resource],
            )

    def co2e_of_run_rows(self, resource: str, run_id: str) -> float:
        """co2e the records of the rows run ``run_id`` landed hold now: each record counted
        once, whether it names its row's key itself or through the mapping (a record not
        calculated yet counts 0). Not the ``emissions`` view, which ranks every mapping and
        reads every row's payload.

        The run's keys, then their records' ids, each kept in a temporary table before the
        next step joins it: DuckDB knows their size exactly and builds its hash tables on
        them, so memory follows the run. As one statement, it guessed half the warehouse for
        the run's keys and hashed a whole table instead, running out of memory. Run within
        ``_resting.RUN_BUDGET``: a large run's keys spill rather than take the whole limit."""
        params = [self._organization_id, resource]

        def co2e() -> float:
            self._con.begin()  # one transaction: a lake reads its catalog once, not five times
            try:
                self._con.execute(
                    f"CREATE OR REPLACE TEMP TABLE _run_keys AS SELECT DISTINCT source_key "
                    f"FROM source_rows WHERE {OWN} AND resource = ? AND run_id = ?",
                    [*params, run_id],
                )
                self._con.execute(
                    f"""
                    CREATE OR REPLACE TEMP TABLE _run_records AS
                    SELECT remote_id FROM remote_ids WHERE {OWN} AND resource = ?
                    AND source_key IN (SELECT source_key FROM _run_keys)
                    UNION
                    SELECT remote_id FROM remote_records WHERE {OWN} AND resource = ?
                    AND source_key IN (SELECT source_key FROM _run_keys)
                    """,
                    params * 2,
                )
                [(total,)] = self._con.execute(
                    f"SELECT coalesce(sum(co2e_kg), 0) FROM remote_records WHERE {OWN} "
                    "AND resource = ? AND remote_id IN (SELECT remote_id FROM _run_records)",
                    params,
                ).fetchall()
                return float(total)
            finally:
                self._con.rollback()  # nothing to keep: the temporary tables go with it

        return within_budget(self._con, co2e)
