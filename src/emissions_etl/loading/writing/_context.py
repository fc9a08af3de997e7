"""The write port and its plan: what writers ask of the service (``WriteApi``), one resource's
writes in one load run (``WriteContext``), and what a batch means for the service given what it
already holds (``ChangePlan``).

What writers share beside it has a module each: ``payloads`` (rows as API records),
``chunks``, ``results`` (counts, and records landed as they are written) and ``refusals`` (a
service refusal as a reject at the row and column a person fixes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from emissions_etl.client.json_types import QueryParams
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.loading.ports import LoadWarehouse
from emissions_etl.loading.stages import StageClock
from emissions_etl.resources import ResourceSpec
from emissions_etl.webhooks.completion import JobCompletion


class WriteApi(Protocol):
    """What writers ask of the service (``EmissionsClient`` provides it)."""

    def get_json(self, path: str, params: QueryParams | None = None) -> JsonObject: ...

    def send_json(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        params: QueryParams | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> JsonValue: ...

    def iter_items(self, path: str, params: QueryParams | None = None) -> Iterator[JsonObject]: ...

    def wait_for_ingest_job(
        self, job_id: str, *, sleep: Callable[[float], None] = ...
    ) -> JsonObject: ...


@dataclass
class WriteContext:
    """One resource's writes in one load run."""

    api: WriteApi
    writer: LoadWarehouse
    spec: ResourceSpec
    run_id: str
    clock: StageClock
    completion: JobCompletion
    #: Seconds to wait for records the service calculates later (then the next run reads them).
    settle_seconds: float = 60.0
    #: Told as work advances: ("sent" | "calculated", rows).
    notify: Callable[[str, int], None] = lambda stage, rows: None
    #: The data set the rows belong to (``--source``; by default the file's name).
    source_name: str | None = None


@dataclass
class ChangePlan:
    """What a batch of records means for the service, given what it already holds."""

    new: pd.DataFrame
    #: Changed rows with the ``remote_id`` of the record they replace or update.
    changed: pd.DataFrame
    unchanged: int

    @property
    def to_send(self) -> pd.DataFrame:
        return pd.concat([self.new, self.changed.drop(columns="remote_id")], ignore_index=True)


def plan_changes(records: pd.DataFrame, mapping: pd.DataFrame) -> ChangePlan:
    """Split ``records`` into new, changed (with their remote id) and unchanged, by
    ``source_key`` and ``source_hash``."""
    known = mapping[["source_key", "remote_id", "source_hash"]].rename(
        columns={"source_hash": "_known_hash"}
    )
    merged = records.merge(known, how="left", on="source_key")
    mapped = merged["remote_id"].notna().to_numpy()
    unchanged = mapped & (merged["source_hash"] == merged["_known_hash"]).to_numpy()
    changed = mapped & ~unchanged
    return ChangePlan(
        new=records.loc[~mapped].reset_index(drop=True),
        changed=merged.loc[changed].drop(columns="_known_hash").reset_index(drop=True),
        unchanged=int(unchanged.sum()),
    )
