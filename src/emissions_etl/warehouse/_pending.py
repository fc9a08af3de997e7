"""Pending marks (``pending_uploads``): rows about to be sent, marked before the request goes,
so a run that dies before landing what the service answered is finished by the next run of the
resource (crash recovery). A mark is cleared once its chunk landed or was refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import pandas as pd

from emissions_etl.warehouse._conflicts import retrying
from emissions_etl.warehouse._connection import fetch_frame
from emissions_etl.warehouse._delete_insert import OWN, require_columns, staged, transaction
from emissions_etl.warehouse._resting import release


class WarehousePendingMarks:
    """The pending marks of one organization (``organization_id``) over one open connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self._con = con
        self._organization_id = organization_id

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
                [self._organization_id, resource],
            )
            self._con.execute(
                "INSERT INTO pending_uploads BY NAME SELECT ? AS organization_id, ? AS resource, "
                "CAST(idempotency_key AS VARCHAR) AS idempotency_key, ? AS run_id, "
                "CAST(source_key AS VARCHAR) AS source_key, "
                "CAST(source_hash AS VARCHAR) AS source_hash, CAST(payload AS JSON) AS payload, "
                f"CAST(remote_id AS VARCHAR) AS remote_id, now() AS created_at FROM {name}",
                [self._organization_id, resource, run_id],
            )
        release(self._con)

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
                [self._organization_id, resource],
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
                [self._organization_id, resource, keys],
            )
            release(self._con)
