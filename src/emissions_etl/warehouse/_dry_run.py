"""A load that changes nothing (``load --from-sql ... --dry-run``): the writer's parts over a
read-only connection, each reading what a load reads and writing nothing.

A dry run still plans against what the warehouse landed: the mappings say which rows are new,
changed or unchanged, the source's mappings which records a mirror would delete. The keys of
the rows it read are kept in a temporary table of the connection (gone with it), where a load
lands its source rows; nothing else is kept, no run, no reject, no mark, no record. What the
engine would write is dropped here, so no code path of a load can change the warehouse.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

import duckdb
import pandas as pd

from emissions_etl.json_values import JsonValue
from emissions_etl.warehouse._connection import fetch_frame
from emissions_etl.warehouse._content_runs import ContentRun, content_runs
from emissions_etl.warehouse._coverage import CoverageRule
from emissions_etl.warehouse._delete_insert import OWN, staged
from emissions_etl.warehouse._inventory import InventoryRule
from emissions_etl.warehouse._mappings import WarehouseMappings
from emissions_etl.warehouse._pending import WarehousePendingMarks
from emissions_etl.warehouse._remote_records import WarehouseRemoteRecords
from emissions_etl.warehouse._runs import RunSummary

#: The temporary table of the keys a dry run read.
SEEN = "_dry_run_keys"


class DryRunLog:
    """A run that is never recorded: the keys of its rows are all it keeps, for the mirror."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self._con = con
        self._organization_id = organization_id
        con.execute(f"CREATE OR REPLACE TEMP TABLE {SEEN} (source_key VARCHAR)")

    def mark_interrupted_runs(self) -> int:
        return 0

    def start_run(
        self,
        resource: str,
        source: str,
        parameters: Mapping[str, JsonValue],
        *,
        source_name: str | None = None,
        file_sha256: str | None = None,
    ) -> str:
        return f"dry-run-{uuid.uuid4()}"

    def finish_run(
        self,
        run_id: str,
        *,
        outcome: str,
        counts: Mapping[str, int],
        co2e_kg: float | None = None,
        error: str | None = None,
    ) -> None:
        return None

    def run_summary(self, run_id: str) -> RunSummary:
        """A dry run's run is never recorded: KeyError, as for any run the warehouse lacks."""
        raise KeyError(f"no load run {run_id}: a dry run records none")

    def content_runs(self, resource: str, file_sha256: str, source_name: str) -> list[ContentRun]:
        return content_runs(self._con, self._organization_id, resource, file_sha256, source_name)

    def land_source_rows(
        self, run_id: str, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None:
        keys = frame[["source_key"]].astype({"source_key": "string"})
        with staged(self._con, keys) as name:
            self._con.execute(f"INSERT INTO {SEEN} SELECT CAST(source_key AS VARCHAR) FROM {name}")

    def land_rejects(self, run_id: str, resource: str, rejects: pd.DataFrame) -> None:
        return None

    def co2e_of_run_rows(self, resource: str, run_id: str) -> float:
        """co2e the records of the rows read hold now (each record once)."""
        [(total,)] = self._con.execute(
            f"SELECT coalesce(sum(co2e_kg), 0) FROM remote_records WHERE {OWN} AND resource = ? "
            f"AND remote_id IN (SELECT remote_id FROM remote_ids WHERE {OWN} AND resource = ? "
            f"AND source_key IN (SELECT source_key FROM {SEEN}))",
            [self._organization_id, resource, self._organization_id, resource],
        ).fetchall()
        return float(total)


class DryRunMappings(WarehouseMappings):
    """The mappings as a load reads them; the rows gone are the source's not read."""

    def upsert_mapping(
        self, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None:
        return None

    def touch_mapping(self, resource: str, source_keys: Sequence[str], source_name: str) -> None:
        return None

    def forget(self, resource: str, source_keys: Sequence[str], remote_ids: Sequence[str]) -> None:
        return None

    def delete_mapping(self, resource: str, source_keys: Sequence[str]) -> None:
        return None

    def _gone_rows(self, resource: str, source_name: str, run_id: str) -> pd.DataFrame:
        return fetch_frame(
            self._con.execute(
                f"""
                SELECT m.source_key, m.remote_id, s.source_file, s.source_sheet, s.source_row,
                       s.source_row_key
                FROM remote_ids AS m LEFT JOIN source_rows AS s
                  ON s.source_key = m.source_key AND s.resource = m.resource
                 AND s.organization_id IS NOT DISTINCT FROM m.organization_id
                WHERE m.{OWN} AND m.resource = ? AND m.source_name = ?
                  AND m.source_key NOT IN (SELECT source_key FROM {SEEN})
                ORDER BY s.source_file, s.source_row
                """,
                [self._organization_id, resource, source_name],
            )
        )


class DryRunMarks(WarehousePendingMarks):
    """No mark is set, and none is seen: a dry run finishes no interrupted write."""

    def add_pending(
        self,
        resource: str,
        run_id: str,
        idempotency_key: str | Sequence[str],
        frame: pd.DataFrame,
    ) -> None:
        return None

    def pending(self, resource: str) -> pd.DataFrame:
        return super().pending(resource).iloc[0:0]

    def clear_pending(self, resource: str, idempotency_keys: str | Sequence[str]) -> None:
        return None


class DryRunRecords(WarehouseRemoteRecords):
    """The records as a load reads them; none is landed, none read again."""

    def land_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        return None

    def land_changed_records(self, resource: str, frame: pd.DataFrame) -> int:
        return 0

    def replace_remote_records(self, resource: str, frame: pd.DataFrame) -> None:
        return None

    def remove_remote_records(self, resource: str, remote_ids: Sequence[str]) -> None:
        return None

    def unsettled_records(self, resource: str, statuses: Sequence[str] | None) -> pd.DataFrame:
        return super().unsettled_records(resource, statuses).iloc[0:0]

    def land_facilities(self, frame: pd.DataFrame) -> None:
        return None


class NoDescriptions:
    """What a resource is, its view, its inventory and coverage rules: left as they are."""

    def describe_resource(self, resource: str, *, is_aggregate: bool, description: str) -> None:
        return None

    def create_resource_view(
        self, resource: str, columns: Sequence[tuple[str, str, str, str]], *, description: str
    ) -> None:
        return None

    def declare_inventory_rule(self, resource: str, rule: InventoryRule | None) -> None:
        return None

    def declare_coverage_rule(self, resource: str, rule: CoverageRule | None) -> None:
        return None


class DryRunParts:
    """The parts a load asks of the warehouse (``loading.ports.LoadWarehouse``), for a dry run
    over the read-only connection ``con``."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self.organization_id = organization_id
        self.runs = DryRunLog(con, organization_id)
        self.mappings = DryRunMappings(con, organization_id)
        self.marks = DryRunMarks(con, organization_id)
        self.catalog = NoDescriptions()
        self.inventory = NoDescriptions()
        self.coverage = NoDescriptions()
        self.records = DryRunRecords(con, organization_id)
