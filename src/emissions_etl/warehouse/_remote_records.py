"""What the service holds now, as last read back: its records with their co2e
(``remote_records``) and its facilities directory (``facilities``, whose names label the
reports). The service is the truth; these tables are its cache.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import duckdb
import pandas as pd

from emissions_etl.json_values import JsonObject
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


#: A record's columns as ``land_changed_records`` compares them (``prefix``: the table's alias).
_COMPARED = (
    "CAST({prefix}remote_id AS VARCHAR), CAST({prefix}source_key AS VARCHAR), "
    "CAST({prefix}activity_date AS DATE), CAST({prefix}co2e_kg AS DOUBLE), "
    "CAST({prefix}status AS VARCHAR), CAST({prefix}facility_id AS VARCHAR), "
    "CAST({prefix}remote_updated_at AS TIMESTAMPTZ), CAST(CAST({prefix}payload AS JSON) AS VARCHAR)"
)


class WarehouseRemoteRecords:
    """The read-back records of one organization (``organization_id``) over one open
    connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self._con = con
        self._organization_id = organization_id

    @retrying
    def land_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        """Upsert records read back from the service by (resource, remote_id)."""
        require_columns(frame, ("remote_id",), "land_remote_records")
        delete_insert(
            self._con,
            organization_id=self._organization_id,
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
    def land_changed_records(self, resource: str, frame: pd.DataFrame) -> int:
        """Upsert the records of ``frame`` that differ from those the warehouse holds, and
        return how many: a refresh mostly reads again what it has, and writing it all again
        would rewrite every sum's row (a lake: files and a snapshot) each run."""
        require_columns(frame, ("remote_id",), "land_changed_records")
        frame = frame.reindex(columns=list(REMOTE_COLUMNS))
        if frame.empty:
            return 0
        with staged(self._con, frame) as name:
            changed = self._con.execute(
                f"SELECT {_COMPARED.format(prefix='')} FROM {name} EXCEPT "
                f"SELECT {_COMPARED.format(prefix='r.')} FROM remote_records AS r "
                f"WHERE r.{OWN} AND r.resource = ? "
                f"AND r.remote_id IN (SELECT CAST(remote_id AS VARCHAR) FROM {name})",
                [self._organization_id, resource],
            ).fetchall()
        ids = {str(row[0]) for row in changed}
        self.land_remote_records(resource, frame[frame["remote_id"].astype(str).isin(ids)])
        return len(ids)

    @retrying
    def replace_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        """``frame`` is every record the service holds of ``resource`` (a rebuild)."""
        self._con.execute(
            f"DELETE FROM remote_records WHERE {OWN} AND resource = ?",
            [self._organization_id, resource],
        )
        self.land_remote_records(resource, frame)

    @retrying
    def remove_remote_records(self, resource: str, remote_ids: Sequence[str]) -> None:
        """The service no longer holds these records (deleted): drop them from the warehouse."""
        delete_keys(
            self._con,
            organization_id=self._organization_id,
            table="remote_records",
            resource=resource,
            key="remote_id",
            values=remote_ids,
        )

    def unsettled_records(self, resource: str, statuses: Sequence[str] | None) -> pd.DataFrame:
        """remote_id, source_key and payload of records whose status was not final when last
        read (so they are read again: no co2e stays stale); every record with ``None``."""
        which = "" if statuses is None else "AND status IN (SELECT unnest(?::VARCHAR[]))"
        return fetch_frame(
            self._con.execute(
                "SELECT remote_id, source_key, CAST(payload AS VARCHAR) AS payload "
                f"FROM remote_records WHERE {OWN} AND resource = ? {which}",
                [self._organization_id, resource, *([] if statuses is None else [list(statuses)])],
            )
        )

    def landed_records(self, resource: str) -> pd.DataFrame:
        """remote_id, source_key and payload of every record of ``resource`` in the warehouse."""
        return self.unsettled_records(resource, None)

    def remote_payloads(self, resource: str, remote_ids: Sequence[str]) -> dict[str, JsonObject]:
        """The records as the service last returned them (decoded JSON), by remote id."""
        keys = pd.DataFrame({"remote_id": pd.Series(list(remote_ids), dtype="string")})
        with staged(self._con, keys) as name:
            rows = self._con.execute(
                "SELECT remote_id, CAST(payload AS VARCHAR) FROM remote_records "
                f"WHERE {OWN} AND resource = ? AND remote_id IN (SELECT remote_id FROM {name})",
                [self._organization_id, resource],
            ).fetchall()
        return {
            str(remote_id): record
            for remote_id, payload in rows
            if payload and isinstance(record := json.loads(payload), dict)
        }

    @retrying
    def land_facilities(self, frame: pd.DataFrame) -> None:
        """Replace the facilities read from the service (their names label the reports)."""
        require_columns(frame, ("facility_id", "name"), "land_facilities")
        if frame.empty:
            return
        frame = frame.reindex(columns=["facility_id", "name", "country", "type", "status"])
        frame = frame.drop_duplicates(subset=["facility_id"], keep="last")
        with staged(self._con, frame) as name:
            # Every load reads the directory; most nights it has not changed, and a lake would
            # commit a snapshot and files for nothing.
            [(changed,)] = self._con.execute(
                f"SELECT count(*) FROM (SELECT CAST(facility_id AS VARCHAR), "
                "CAST(name AS VARCHAR), CAST(country AS VARCHAR), CAST(type AS VARCHAR), "
                f"CAST(status AS VARCHAR) FROM {name} EXCEPT SELECT facility_id, name, "
                f"country, type, status FROM facilities WHERE {OWN})",
                [self._organization_id],
            ).fetchall()
        if not changed:
            return
        with staged(self._con, frame) as name, transaction(self._con):
            self._con.execute(
                f"DELETE FROM facilities WHERE {OWN} AND facility_id IN "
                f"(SELECT CAST(facility_id AS VARCHAR) FROM {name})",
                [self._organization_id],
            )
            self._con.execute(
                "INSERT INTO facilities BY NAME SELECT ? AS organization_id, "
                "CAST(facility_id AS VARCHAR) AS facility_id, CAST(name AS VARCHAR) AS name, "
                "CAST(country AS VARCHAR) AS country, CAST(type AS VARCHAR) AS type, "
                f"CAST(status AS VARCHAR) AS status, now() AS landed_at FROM {name}",
                [self._organization_id],
            )
