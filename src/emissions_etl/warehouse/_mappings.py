"""Source key -> remote id (``remote_ids``): which record of the service each row became, and
which data set (source) the row belongs to, so a mirror deletes only its own source's records.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import pandas as pd

from emissions_etl.warehouse._conflicts import retrying
from emissions_etl.warehouse._connection import fetch_frame
from emissions_etl.warehouse._delete_insert import (
    OWN,
    delete_insert,
    delete_keys,
    require_columns,
    staged,
    transaction,
)
from emissions_etl.warehouse._resting import within_budget


class WarehouseMappings:
    """The mappings of one organization (``organization_id``) over one open connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self._con = con
        self._organization_id = organization_id

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
                    [self._organization_id, resource],
                )
            )
        keys = pd.DataFrame({"source_key": pd.Series(list(source_keys), dtype="string")})
        with staged(self._con, keys) as name:
            return fetch_frame(
                self._con.execute(
                    f"SELECT {columns} FROM remote_ids AS m "
                    f"JOIN (SELECT DISTINCT source_key FROM {name}) AS k USING (source_key) "
                    f"WHERE m.{OWN} AND m.resource = ? ORDER BY m.source_key",
                    [self._organization_id, resource],
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
            organization_id=self._organization_id,
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
                [source_name, self._organization_id, resource, source_name],
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
                [self._organization_id, resource],
            ).fetchall()
        return {str(remote_id): str(source) for remote_id, source in rows}

    def source_records(self, resource: str, source_name: str) -> int:
        """How many records the rows of ``source_name`` map to."""
        [(count,)] = self._con.execute(
            f"SELECT count(*) FROM remote_ids WHERE {OWN} AND resource = ? AND source_name = ?",
            [self._organization_id, resource, source_name],
        ).fetchall()
        return int(count)

    def gone_rows(self, resource: str, source_name: str, run_id: str) -> pd.DataFrame:
        """source_key, remote_id and origin (file, sheet, row, a table row's key) of the records of
        ``source_name`` whose rows run ``run_id`` did not land: rows its file no longer has.

        The source's keys first, then their rows: the join holds the source's rows, never
        every row of the resource (which outgrew the memory limit)."""
        return within_budget(self._con, lambda: self._gone_rows(resource, source_name, run_id))

    def _gone_rows(self, resource: str, source_name: str, run_id: str) -> pd.DataFrame:
        return fetch_frame(
            self._con.execute(
                f"""
                WITH mine AS (
                    SELECT source_key, remote_id FROM remote_ids
                    WHERE {OWN} AND resource = ? AND source_name = ?
                ), rows AS (
                    SELECT source_key, source_file, source_sheet, source_row, source_row_key,
                           run_id
                    FROM source_rows
                    WHERE {OWN} AND resource = ? AND source_key IN (SELECT source_key FROM mine)
                )
                SELECT m.source_key, m.remote_id, s.source_file, s.source_sheet, s.source_row,
                       s.source_row_key
                FROM mine AS m LEFT JOIN rows AS s USING (source_key)
                WHERE s.run_id IS DISTINCT FROM ? ORDER BY s.source_file, s.source_row
                """,
                [
                    self._organization_id,
                    resource,
                    source_name,
                    self._organization_id,
                    resource,
                    run_id,
                ],
            )
        )

    @retrying
    def forget(self, resource: str, source_keys: Sequence[str], remote_ids: Sequence[str]) -> None:
        """The service no longer holds these records and no file names their rows: drop their
        mapping, source rows and read-back records."""
        with transaction(self._con):
            self._delete("remote_ids", resource, "source_key", source_keys)
            self._delete("source_rows", resource, "source_key", source_keys)
            self._delete("remote_records", resource, "remote_id", remote_ids)

    @retrying
    def delete_mapping(self, resource: str, source_keys: Sequence[str]) -> None:
        """Forget the remote ids of ``source_keys``."""
        self._delete("remote_ids", resource, "source_key", source_keys)

    def _delete(self, table: str, resource: str, key: str, values: Sequence[str]) -> None:
        delete_keys(
            self._con,
            organization_id=self._organization_id,
            table=table,
            resource=resource,
            key=key,
            values=values,
        )
