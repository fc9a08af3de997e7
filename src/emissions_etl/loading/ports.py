"""What the load engine asks of the warehouse, as small ports (typed Protocols) the engine names
the way it names the service through ``WriteApi``: the engine depends on these, the warehouse
(``emissions_etl.warehouse.WarehouseWriter`` and its parts) implements them.

``LoadWarehouse`` is one run's writer, handing out a part per concern; ``WritableWarehouse``
is where a run opens it (``Warehouse``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

import pandas as pd

from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.warehouse import ContentRun, CoverageRule, InventoryRule, RunSummary


class RunLog(Protocol):
    """A load run: its run row, the rows its file said, its rejects, the co2e of its rows."""

    def mark_interrupted_runs(self) -> int: ...

    def start_run(
        self,
        resource: str,
        source: str,
        parameters: Mapping[str, JsonValue],
        *,
        source_name: str | None = None,
        file_sha256: str | None = None,
    ) -> str: ...

    def finish_run(
        self,
        run_id: str,
        *,
        outcome: str,
        counts: Mapping[str, int],
        co2e_kg: float | None = None,
        error: str | None = None,
    ) -> None: ...

    def run_summary(self, run_id: str) -> RunSummary: ...

    def content_runs(
        self, resource: str, file_sha256: str, source_name: str
    ) -> list[ContentRun]: ...

    def land_source_rows(
        self, run_id: str, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None: ...

    def land_rejects(self, run_id: str, resource: str, rejects: pd.DataFrame) -> None: ...

    def co2e_of_run_rows(self, resource: str, run_id: str) -> float: ...


class Mappings(Protocol):
    """Source key -> remote id, and the source (data set) each row belongs to."""

    def mapping(self, resource: str, source_keys: Sequence[str] | None = None) -> pd.DataFrame: ...

    def upsert_mapping(
        self, resource: str, frame: pd.DataFrame, *, source_name: str | None = None
    ) -> None: ...

    def touch_mapping(
        self, resource: str, source_keys: Sequence[str], source_name: str
    ) -> None: ...

    def claimed_by_source(self, resource: str, remote_ids: Sequence[str]) -> dict[str, str]: ...

    def source_records(self, resource: str, source_name: str) -> int: ...

    def gone_rows(self, resource: str, source_name: str, run_id: str) -> pd.DataFrame: ...

    def forget(
        self, resource: str, source_keys: Sequence[str], remote_ids: Sequence[str]
    ) -> None: ...

    def delete_mapping(self, resource: str, source_keys: Sequence[str]) -> None: ...


class PendingMarks(Protocol):
    """Rows marked before they are sent, so a crash half-way is finished by the next run."""

    def add_pending(
        self,
        resource: str,
        run_id: str,
        idempotency_key: str | Sequence[str],
        frame: pd.DataFrame,
    ) -> None: ...

    def pending(self, resource: str) -> pd.DataFrame: ...

    def clear_pending(self, resource: str, idempotency_keys: str | Sequence[str]) -> None: ...


class Catalog(Protocol):
    """What a resource's co2e means, and the analysts' view named after it."""

    def describe_resource(self, resource: str, *, is_aggregate: bool, description: str) -> None: ...

    def create_resource_view(
        self, resource: str, columns: Sequence[tuple[str, str, str, str]], *, description: str
    ) -> None: ...


class InventoryRules(Protocol):
    """Where a resource's records sit in the GHG inventory."""

    def declare_inventory_rule(self, resource: str, rule: InventoryRule | None) -> None: ...


class CoverageRules(Protocol):
    """Which days a resource's records cover, and whose they are."""

    def declare_coverage_rule(self, resource: str, rule: CoverageRule | None) -> None: ...


class RemoteRecords(Protocol):
    """What the service holds now, as last read back: records with their co2e, facilities."""

    def land_remote_records(self, resource: str, frame: pd.DataFrame) -> None: ...

    def land_changed_records(self, resource: str, frame: pd.DataFrame) -> int: ...

    def replace_remote_records(self, resource: str, frame: pd.DataFrame) -> None: ...

    def remove_remote_records(self, resource: str, remote_ids: Sequence[str]) -> None: ...

    def unsettled_records(self, resource: str, statuses: Sequence[str] | None) -> pd.DataFrame: ...

    def landed_records(self, resource: str) -> pd.DataFrame: ...

    def remote_payloads(
        self, resource: str, remote_ids: Sequence[str]
    ) -> dict[str, JsonObject]: ...

    def land_facilities(self, frame: pd.DataFrame) -> None: ...


class LoadWarehouse(Protocol):
    """Everything a load asks of the warehouse, part by part (``Warehouse.writer()`` yields
    one, all of its parts over one connection under the run's lock)."""

    @property
    def runs(self) -> RunLog: ...

    @property
    def mappings(self) -> Mappings: ...

    @property
    def marks(self) -> PendingMarks: ...

    @property
    def catalog(self) -> Catalog: ...

    @property
    def inventory(self) -> InventoryRules: ...

    @property
    def coverage(self) -> CoverageRules: ...

    @property
    def records(self) -> RemoteRecords: ...


class WritableWarehouse(Protocol):
    """A warehouse a load writes into: one writer at a time per run (``Warehouse``)."""

    def writer(self) -> AbstractContextManager[LoadWarehouse]: ...


class PlannableWarehouse(WritableWarehouse, Protocol):
    """A warehouse that also hands out the parts of a load that changes nothing: every read a
    load makes, no write (``Warehouse.dry_run``)."""

    def dry_run(self) -> AbstractContextManager[LoadWarehouse]: ...
