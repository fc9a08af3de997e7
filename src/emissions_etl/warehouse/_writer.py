"""What one load run writes: its run row, source rows, rejects, mapping, pending marks, co2e.

Handed out by ``Warehouse.writer()`` only, so all writes happen under the cross-process lock.
Every frame lands through Arrow (``_delete_insert``); empty frames are no-ops.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import duckdb
import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS
from emissions_etl.warehouse import _inventory, _runs
from emissions_etl.warehouse._conflicts import retrying
from emissions_etl.warehouse._connection import fetch_frame
from emissions_etl.warehouse._delete_insert import (
    delete_insert,
    quote,
    require_columns,
    staged,
    transaction,
)
from emissions_etl.warehouse._schema import replace_view

#: Origin columns of a canonical frame (sources: file, sheet, 1-based row).
ORIGIN_COLUMNS = ("_file", "_sheet", "_row")
#: What the service holds, as ``land_remote_records`` takes it (``readback`` builds these).
REMOTE_COLUMNS = (
    "remote_id",
    "source_key",
    "activity_date",
    "co2e_kg",
    "status",
    "facility_id",
    "remote_updated_at",
    "payload",
)


#: Rows of the writer's organization (null: a warehouse of one organization, not named).
OWN = "organization_id IS NOT DISTINCT FROM ?"


class WarehouseWriter:
    """Writes of one load run over one open connection (see ``README.md`` for the tables), for
    one organization: every row it writes names it, every row it reads is its own."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        organization_id: str | None = None,
        *,
        exclusive: bool = True,
    ) -> None:
        self._con = con
        self.organization_id = organization_id
        #: The only writer (a file): every run still running when it opens was interrupted.
        self.exclusive = exclusive

    # -- load runs -------------------------------------------------------------------------

    @retrying
    def start_run(
        self,
        resource: str,
        source: str,
        parameters: Mapping[str, Any],
        *,
        source_name: str | None = None,
    ) -> str:
        """Record a new run of file ``source`` (of data set ``source_name``) as ``running``;
        returns its run id (uuid4)."""
        return _runs.start_run(
            self._con,
            resource,
            source,
            parameters,
            source_name=source_name,
            organization_id=self.organization_id,
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

    def run_summary(self, run_id: str) -> dict[str, Any]:
        """The run row as a dict (KeyError for an unknown run)."""
        return _runs.run_summary(self._con, run_id)

    # -- what the files said -----------------------------------------------------------------

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
            "CAST(? AS VARCHAR) AS source_name"
        )
        delete_insert(
            self._con,
            organization_id=self.organization_id,
            table="source_rows",
            resource=resource,
            frame=frame,
            key="source_key",
            select=select,
            params=[run_id, source_name],
        )

    @retrying
    def land_rejects(self, run_id: str, resource: str, rejects: pd.DataFrame) -> None:
        """Append the run's rejected cells (file, sheet, row, column, value, code, message)."""
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
                f"CAST(message AS VARCHAR) AS message, now() AS rejected_at FROM {name}",
                [self.organization_id, run_id, resource],
            )

    # -- source key -> remote id -------------------------------------------------------------

    def mapping(self, resource: str, source_keys: Sequence[str] | None = None) -> pd.DataFrame:
        """source_key, remote_id, source_hash, ingest_job_id, loaded_at, source_name of
        ``resource``.

        With ``source_keys``, only those keys: a batch looks up its own rows, so memory follows
        the batch, not everything ever loaded.
        """
        columns = (
            "m.source_key, m.remote_id, m.source_hash, m.ingest_job_id, m.loaded_at, m.source_name"
        )
        if source_keys is None:
            return fetch_frame(
                self._con.execute(
                    f"SELECT {columns} FROM remote_ids AS m WHERE m.{OWN} AND m.resource = ? "
                    "ORDER BY m.source_key",
                    [self.organization_id, resource],
                )
            )
        keys = pd.DataFrame({"source_key": pd.Series(list(source_keys), dtype="string")})
        with staged(self._con, keys) as name:
            return fetch_frame(
                self._con.execute(
                    f"SELECT {columns} FROM remote_ids AS m "
                    f"JOIN (SELECT DISTINCT source_key FROM {name}) AS k USING (source_key) "
                    f"WHERE m.{OWN} AND m.resource = ? ORDER BY m.source_key",
                    [self.organization_id, resource],
                )
            )

    @retrying
    def upsert_mapping(
        self, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None:
        """Upsert source_key -> remote_id (+ source_hash, ingest_job_id) for rows of the data
        set ``source_name`` (None: not known, as for a warehouse rebuilt from the service);
        last duplicate wins."""
        require_columns(frame, ("source_key", "remote_id", "source_hash"), "upsert_mapping")
        delete_insert(
            self._con,
            organization_id=self.organization_id,
            table="remote_ids",
            resource=resource,
            frame=frame.reindex(
                columns=["source_key", "remote_id", "source_hash", "ingest_job_id"]
            ),
            key="source_key",
            select="CAST(source_key AS VARCHAR) AS source_key, "
            "CAST(remote_id AS VARCHAR) AS remote_id, "
            "CAST(source_hash AS VARCHAR) AS source_hash, "
            "CAST(ingest_job_id AS VARCHAR) AS ingest_job_id, now() AS loaded_at, "
            "CAST(? AS VARCHAR) AS source_name",
            params=[source_name],
        )

    @retrying
    def touch_mapping(self, resource: str, source_keys: Sequence[str], source_name: str) -> None:
        """The rows of ``source_keys`` are (now) rows of ``source_name``: a record named by two
        sources (a vehicle in two fleet lists) belongs to the one that loaded it last, so only
        that one's mirror may delete it."""
        if len(source_keys) == 0:
            return
        keys = pd.DataFrame({"source_key": pd.Series(list(source_keys), dtype="string")})
        with staged(self._con, keys) as name:
            self._con.execute(
                f"UPDATE remote_ids SET source_name = ? WHERE {OWN} AND resource = ? "
                f"AND source_key IN (SELECT source_key FROM {name}) "
                "AND source_name IS DISTINCT FROM ?",
                [source_name, self.organization_id, resource, source_name],
            )

    def claimed_by_source(self, resource: str, remote_ids: Sequence[str]) -> dict[str, str]:
        """The source each of ``remote_ids`` is mapped to a row of (ids mapped to none left
        out; "" where the source is not known)."""
        if len(remote_ids) == 0:
            return {}
        ids = pd.DataFrame({"remote_id": pd.Series(list(remote_ids), dtype="string")})
        with staged(self._con, ids) as name:
            rows = self._con.execute(
                "SELECT m.remote_id, any_value(coalesce(m.source_name, '')) FROM remote_ids AS m "
                f"JOIN {name} AS i ON m.remote_id = CAST(i.remote_id AS VARCHAR) "
                f"WHERE m.{OWN} AND m.resource = ? GROUP BY m.remote_id",
                [self.organization_id, resource],
            ).fetchall()
        return {str(remote_id): str(source) for remote_id, source in rows}

    def source_records(self, resource: str, source_name: str) -> int:
        """How many records the rows of ``source_name`` map to."""
        [(count,)] = self._con.execute(
            f"SELECT count(*) FROM remote_ids WHERE {OWN} AND resource = ? AND source_name = ?",
            [self.organization_id, resource, source_name],
        ).fetchall()
        return int(count)

    def co2e_of_run_rows(self, resource: str, run_id: str) -> float:
        """co2e the records of the rows run ``run_id`` landed hold now: each record counted
        once, whether it names its row's key itself or through the mapping (a record not
        calculated yet counts 0). Semi-joins on the run's keys, not the ``emissions`` view: the
        view ranks every mapping and reads every row's payload, which a 200,000-row load does
        not fit in the writer's 64 MB."""
        [(co2e,)] = self._con.execute(
            f"""
            WITH run_keys AS (
                SELECT source_key FROM source_rows
                WHERE {OWN} AND resource = ? AND run_id = ?
            ), run_ids AS (
                SELECT remote_id FROM remote_ids
                WHERE {OWN} AND resource = ? AND source_key IN (SELECT source_key FROM run_keys)
            )
            SELECT coalesce(sum(co2e_kg), 0) FROM remote_records
            WHERE {OWN} AND resource = ?
              AND (source_key IN (SELECT source_key FROM run_keys)
                   OR remote_id IN (SELECT remote_id FROM run_ids))
            """,
            [self.organization_id, resource, run_id, *[self.organization_id, resource] * 2],
        ).fetchall()
        return float(co2e)

    def gone_rows(self, resource: str, source_name: str, run_id: str) -> pd.DataFrame:
        """source_key, remote_id and origin (file, sheet, row) of the records of
        ``source_name`` whose rows run ``run_id`` did not land: rows its file no longer has."""
        return fetch_frame(
            self._con.execute(
                "SELECT m.source_key, m.remote_id, s.source_file, s.source_sheet, s.source_row "
                "FROM remote_ids AS m LEFT JOIN source_rows AS s "
                "ON s.organization_id IS NOT DISTINCT FROM m.organization_id "
                "AND s.resource = m.resource AND s.source_key = m.source_key "
                f"WHERE m.{OWN} AND m.resource = ? AND m.source_name = ? "
                "AND s.run_id IS DISTINCT FROM ? ORDER BY s.source_file, s.source_row",
                [self.organization_id, resource, source_name, run_id],
            )
        )

    @retrying
    def forget(self, resource: str, source_keys: Sequence[str], remote_ids: Sequence[str]) -> None:
        """The service no longer holds these records and no file names their rows: drop their
        mapping, source rows and read-back records."""
        with transaction(self._con):
            self._delete_keys("remote_ids", resource, "source_key", source_keys)
            self._delete_keys("source_rows", resource, "source_key", source_keys)
            self._delete_keys("remote_records", resource, "remote_id", remote_ids)

    @retrying
    def delete_mapping(self, resource: str, source_keys: Sequence[str]) -> None:
        """Forget the remote ids of ``source_keys``."""
        self._delete_keys("remote_ids", resource, "source_key", source_keys)

    # -- chunks sent but not yet landed (crash recovery) ------------------------------------

    @retrying
    def add_pending(
        self,
        resource: str,
        run_id: str,
        idempotency_key: str | Sequence[str],
        frame: pd.DataFrame,
    ) -> None:
        """Mark rows (source_key, source_hash, optional payload JSON text and remote_id) as
        about to be sent under ``idempotency_key``: one key for the whole frame, or one per row
        (every chunk of a batch marked in one statement)."""
        if frame.empty:
            return
        require_columns(frame, ("source_key", "source_hash"), "add_pending")
        keys = (
            [idempotency_key] * len(frame) if isinstance(idempotency_key, str) else idempotency_key
        )
        frame = frame.reindex(columns=["source_key", "source_hash", "payload", "remote_id"])
        frame = frame.assign(idempotency_key=list(keys))
        frame = frame.drop_duplicates(["idempotency_key", "source_key"], keep="last")
        with staged(self._con, frame) as name, transaction(self._con):
            self._con.execute(
                f"DELETE FROM pending_uploads WHERE {OWN} AND resource = ? AND idempotency_key IN "
                f"(SELECT DISTINCT CAST(idempotency_key AS VARCHAR) FROM {name})",
                [self.organization_id, resource],
            )
            self._con.execute(
                "INSERT INTO pending_uploads BY NAME SELECT ? AS organization_id, ? AS resource, "
                "CAST(idempotency_key AS VARCHAR) AS idempotency_key, ? AS run_id, "
                "CAST(source_key AS VARCHAR) AS source_key, "
                "CAST(source_hash AS VARCHAR) AS source_hash, CAST(payload AS JSON) AS payload, "
                f"CAST(remote_id AS VARCHAR) AS remote_id, now() AS created_at FROM {name}",
                [self.organization_id, resource, run_id],
            )

    def pending(self, resource: str) -> pd.DataFrame:
        """idempotency_key, run_id, source_key, source_hash, payload (JSON text), remote_id and
        created_at of unlanded chunks, oldest first."""
        return fetch_frame(
            self._con.execute(
                "SELECT idempotency_key, run_id, source_key, source_hash, "
                "CAST(payload AS VARCHAR) AS payload, remote_id, created_at "
                f"FROM pending_uploads WHERE {OWN} AND resource = ? "
                "AND run_id NOT IN (SELECT run_id FROM load_runs WHERE outcome = 'running') "
                "ORDER BY created_at, idempotency_key",
                [self.organization_id, resource],
            )
        )

    @retrying
    def clear_pending(self, resource: str, idempotency_keys: str | Sequence[str]) -> None:
        """The chunks sent under these keys are landed (or refused): drop their marks, in one
        statement."""
        keys = [idempotency_keys] if isinstance(idempotency_keys, str) else list(idempotency_keys)
        if keys:
            self._con.execute(
                f"DELETE FROM pending_uploads WHERE {OWN} AND resource = ? AND idempotency_key IN "
                "(SELECT unnest(?::VARCHAR[]))",
                [self.organization_id, resource, keys],
            )

    @retrying
    def mark_interrupted_runs(self) -> int:
        """Runs left ``running`` by a process that died become ``interrupted``."""
        return _runs.mark_interrupted(self._con, exclusive=self.exclusive)

    def unsettled_records(self, resource: str, statuses: Sequence[str] | None) -> pd.DataFrame:
        """remote_id, source_key and payload of records whose status was not final when last
        read (so they are read again: no co2e stays stale); every record with ``None``."""
        which = "" if statuses is None else "AND status IN (SELECT unnest(?::VARCHAR[]))"
        return fetch_frame(
            self._con.execute(
                "SELECT remote_id, source_key, CAST(payload AS VARCHAR) AS payload "
                f"FROM remote_records WHERE {OWN} AND resource = ? {which}",
                [self.organization_id, resource, *([] if statuses is None else [list(statuses)])],
            )
        )

    def remote_payloads(self, resource: str, remote_ids: Sequence[str]) -> dict[str, Any]:
        """The records as the service last returned them (decoded JSON), by remote id."""
        keys = pd.DataFrame({"remote_id": pd.Series(list(remote_ids), dtype="string")})
        with staged(self._con, keys) as name:
            rows = self._con.execute(
                "SELECT remote_id, CAST(payload AS VARCHAR) FROM remote_records "
                f"WHERE {OWN} AND resource = ? AND remote_id IN (SELECT remote_id FROM {name})",
                [self.organization_id, resource],
            ).fetchall()
        return {str(remote_id): json.loads(payload) for remote_id, payload in rows if payload}

    def landed_records(self, resource: str) -> pd.DataFrame:
        """remote_id, source_key and payload of every record of ``resource`` in the warehouse."""
        return self.unsettled_records(resource, None)

    @retrying
    def describe_resource(self, resource: str, *, is_aggregate: bool, description: str) -> None:
        """Record what the resource's co2e means (the ``emissions`` view's ``is_aggregate``);
        nothing is written when the warehouse already says so."""
        held = self._con.execute(
            "SELECT is_aggregate, description FROM resource_catalog WHERE resource = ?",
            [resource],
        ).fetchall()
        if held == [(is_aggregate, description)]:
            return
        with transaction(self._con):
            self._con.execute("DELETE FROM resource_catalog WHERE resource = ?", [resource])
            self._con.execute(
                "INSERT INTO resource_catalog VALUES (?, ?, ?, now())",
                [resource, is_aggregate, description],
            )

    @retrying
    def declare_inventory_rule(self, resource: str, rule: _inventory.InventoryRule | None) -> None:
        """Keep where ``resource``'s records sit in the GHG inventory (None: nowhere, its co2e
        sums others') and rebuild ``ghg_inventory``; a rule that cannot bind is WarehouseError."""
        _inventory.declare(self._con, resource, rule)

    @retrying
    def create_resource_view(self, resource: str, columns: Sequence[tuple[str, str, str]]) -> None:
        """A view named after ``resource``: its rows of ``emissions`` plus ``columns``
        (name, SQL type, JSON path) read from the record the service returned. A resource
        named like a warehouse table (``facilities``) has that table instead: no view."""
        table = self._con.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_name = ? "
            "AND table_type = 'BASE TABLE'",
            [resource],
        ).fetchall()
        if table:
            return
        fields = "".join(
            f", TRY_CAST(json_extract_string(r.payload, '{path}') AS {sql_type}) AS {quote(name)}"
            for name, sql_type, path in columns
        )
        replace_view(
            self._con,
            resource,
            f"CREATE OR REPLACE VIEW {quote(resource)} AS SELECT e.* EXCLUDE (resource){fields} "
            "FROM emissions AS e JOIN remote_records AS r ON r.resource = e.resource "
            "AND r.remote_id = e.remote_id "
            "AND r.organization_id IS NOT DISTINCT FROM e.organization_id "
            f"WHERE e.resource = '{resource.replace(chr(39), '')}'",
        )

    # -- what the service holds now ----------------------------------------------------------

    @retrying
    def land_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        """Upsert records read back from the service by (resource, remote_id)."""
        require_columns(frame, ("remote_id",), "land_remote_records")
        delete_insert(
            self._con,
            organization_id=self.organization_id,
            table="remote_records",
            resource=resource,
            frame=frame.reindex(columns=list(REMOTE_COLUMNS)),
            key="remote_id",
            select="CAST(remote_id AS VARCHAR) AS remote_id, "
            "CAST(source_key AS VARCHAR) AS source_key, "
            "CAST(activity_date AS DATE) AS activity_date, "
            "CAST(co2e_kg AS DOUBLE) AS co2e_kg, CAST(status AS VARCHAR) AS status, "
            "CAST(facility_id AS VARCHAR) AS facility_id, "
            "CAST(remote_updated_at AS TIMESTAMPTZ) AS remote_updated_at, "
            "CAST(payload AS JSON) AS payload, now() AS landed_at",
        )

    @retrying
    def replace_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        """``frame`` is every record the service holds of ``resource`` (a rebuild)."""
        self._con.execute(
            f"DELETE FROM remote_records WHERE {OWN} AND resource = ?",
            [self.organization_id, resource],
        )
        self.land_remote_records(resource, frame)

    @retrying
    def land_facilities(self, frame: pd.DataFrame) -> None:
        """Replace the facilities read from the service (their names label the reports)."""
        require_columns(frame, ("facility_id", "name"), "land_facilities")
        if frame.empty:
            return
        frame = frame.reindex(columns=["facility_id", "name", "country", "type", "status"])
        frame = frame.drop_duplicates(subset=["facility_id"], keep="last")
        with staged(self._con, frame) as name, transaction(self._con):
            self._con.execute(
                f"DELETE FROM facilities WHERE {OWN} AND facility_id IN "
                f"(SELECT CAST(facility_id AS VARCHAR) FROM {name})",
                [self.organization_id],
            )
            self._con.execute(
                "INSERT INTO facilities BY NAME SELECT ? AS organization_id, "
                "CAST(facility_id AS VARCHAR) AS facility_id, CAST(name AS VARCHAR) AS name, "
                "CAST(country AS VARCHAR) AS country, CAST(type AS VARCHAR) AS type, "
                f"CAST(status AS VARCHAR) AS status, now() AS landed_at FROM {name}",
                [self.organization_id],
            )

    @retrying
    def remove_remote_records(self, resource: str, remote_ids: Sequence[str]) -> None:
        """The service no longer holds these records (deleted): drop them from the warehouse."""
        self._delete_keys("remote_records", resource, "remote_id", remote_ids)

    def _delete_keys(self, table: str, resource: str, key: str, values: Sequence[str]) -> None:
        if len(values) == 0:
            return
        keys = pd.DataFrame({key: pd.Series(list(values), dtype="string")})
        with staged(self._con, keys) as name:
            self._con.execute(
                f"DELETE FROM {table} WHERE {OWN} AND resource = ? "
                f"AND {key} IN (SELECT {key} FROM {name})",
                [self.organization_id, resource],
            )
