"""Send resolved records to the service exactly once per version of each source row.

The warehouse's mapping (source key -> remote id + content hash) decides what to send: an
unchanged row is skipped, a new row is created, a changed row replaces its record (the old one
is deleted first, so the service never holds two versions of one row). Chunks are written to
``pending_uploads`` *before* they are sent, so a crash between upload and landing is repaired
by the next run (see ``recovery``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from emissions_etl.errors import ValidationFailedError
from emissions_etl.idempotency import idempotency_key
from emissions_etl.readback import GetJson, iter_all_items, remote_frame
from emissions_etl.rejects import REJECT_COLUMNS, RejectCode
from emissions_etl.resources import ResourceSpec
from emissions_etl.stages import StageClock

#: client_row_id values per recovery lookup, so the query string stays well under 8 KB.
RECOVERY_KEYS_PER_REQUEST = 40


class BulkApi(Protocol):
    """The client operations the uploader uses (``EmissionsClient`` provides them)."""

    def create_wastes(
        self, records: Sequence[Mapping[str, Any]], *, idempotency_key: str, dry_run: bool = False
    ) -> dict[str, Any]: ...

    def delete_wastes(
        self, waste_ids: Sequence[str], *, idempotency_key: str
    ) -> dict[str, Any]: ...

    def wait_for_ingest_job(self, job_id: str) -> dict[str, Any]: ...


@dataclass
class ChangePlan:
    """What a batch of records means for the service, given what it already holds."""

    to_send: pd.DataFrame
    stale: pd.DataFrame  # source_key, remote_id of changed rows: deleted before re-creation
    unchanged: int


@dataclass
class UploadResult:
    """Counts and side products of sending one batch."""

    sent: int = 0
    loaded: int = 0
    failed: int = 0
    deleted: int = 0
    co2e_kg: float = 0.0
    jobs: list[dict[str, Any]] = field(default_factory=list)
    rejects: list[pd.DataFrame] = field(default_factory=list)


def plan_changes(records: pd.DataFrame, mapping: pd.DataFrame, key_field: str) -> ChangePlan:
    """Split ``records`` into new/changed (to send) and unchanged, by key and content hash."""
    known = mapping[["source_key", "remote_id", "source_hash"]].rename(
        columns={"source_hash": "_known_hash"}
    )
    merged = records.merge(known, how="left", left_on=key_field, right_on="source_key")
    unchanged = merged["remote_id"].notna() & (merged["source_hash"] == merged["_known_hash"])
    changed = merged["remote_id"].notna() & ~unchanged
    stale = merged.loc[changed, ["source_key", "remote_id"]].reset_index(drop=True)
    to_send = records.loc[~unchanged.to_numpy()].reset_index(drop=True)
    return ChangePlan(to_send=to_send, stale=stale, unchanged=int(unchanged.sum()))


def to_payload(chunk: pd.DataFrame, spec: ResourceSpec) -> list[dict[str, Any]]:
    """Chunk rows as API records: dates as ISO strings, missing optional fields left out."""
    fields = [name for name in spec.record_fields if name in chunk.columns]
    frame = chunk[fields].copy()
    for name in spec.date_fields:
        if name in frame.columns:
            frame[name] = pd.to_datetime(frame[name]).dt.strftime("%Y-%m-%d")
    frame = frame.astype(object).where(frame.notna(), None)
    return [
        {str(key): value for key, value in row.items() if value is not None}
        for row in frame.to_dict("records")
    ]


def iter_chunks(frame: pd.DataFrame, size: int) -> Iterator[pd.DataFrame]:
    """Consecutive slices of at most ``size`` rows."""
    for start in range(0, len(frame), size):
        yield frame.iloc[start : start + size].reset_index(drop=True)


def service_rejects(
    chunk: pd.DataFrame, error: ValidationFailedError, spec: ResourceSpec
) -> pd.DataFrame:
    """The service's per-record 422 errors as rejects at the rows a person can fix."""
    rows = []
    for entry in error.errors:
        index = entry.get("index")
        if not isinstance(index, int) or not 0 <= index < len(chunk):
            continue
        source = chunk.iloc[index]
        api_field = str(entry.get("field") or "")
        column = spec.input_column_of_field.get(api_field, api_field)
        value = source.get(api_field, "")
        rows.append(
            {
                "file": source["_file"],
                "sheet": source["_sheet"],
                "row": int(source["_row"]),
                "column": column,
                "value": "" if value is None else str(value),
                "code": RejectCode.REJECTED_BY_SERVICE.value,
                "message": f"The service rejected this value ({entry.get('code')}): "
                f"{entry.get('message')}",
            }
        )
    return pd.DataFrame(rows, columns=list(REJECT_COLUMNS))


class Uploader:
    """Sends one resource's records for one load run, recording every step in the warehouse."""

    def __init__(
        self,
        api: BulkApi,
        get_json: GetJson,
        writer: Any,
        spec: ResourceSpec,
        run_id: str,
        *,
        clock: StageClock | None = None,
    ) -> None:
        self._clock = clock or StageClock()
        self.spec = spec
        self._api = api
        self._get_json = get_json
        self._writer = writer
        self._run_id = run_id

    def delete_stale(self, stale: pd.DataFrame) -> int:
        """Delete the records of changed rows and forget them; returns how many were deleted."""
        if stale.empty:
            return 0
        ids = stale["remote_id"].astype(str).tolist()
        self._delete_remote(ids)
        self._writer.delete_mapping(self.spec.name, stale["source_key"].tolist())
        self._writer.remove_remote_records(self.spec.name, ids)
        return len(ids)

    def _delete_remote(self, ids: Sequence[str]) -> None:
        """Delete records by id, a chunk per ingest job, each key derived from its ids."""
        for start in range(0, len(ids), self.spec.chunk_size):
            part = sorted(ids[start : start + self.spec.chunk_size])
            key = idempotency_key(self.spec.name, "delete", [{"id": i} for i in part])
            job = self._api.delete_wastes(part, idempotency_key=key)
            self._api.wait_for_ingest_job(str(job["id"]))

    def validate_remotely(self, records: pd.DataFrame) -> UploadResult:
        """``dry_run=true`` for every chunk: the service's verdict, nothing written."""
        result = UploadResult()
        for chunk in iter_chunks(records, self.spec.chunk_size):
            payload = to_payload(chunk, self.spec)
            key = idempotency_key(self.spec.name, "dry-run", payload)
            try:
                self._api.create_wastes(payload, idempotency_key=key, dry_run=True)
            except ValidationFailedError as error:
                result.rejects.append(service_rejects(chunk, error, self.spec))
        return result

    def create(self, records: pd.DataFrame) -> UploadResult:
        """Create ``records`` chunk by chunk, then follow every job and land what it made."""
        result = UploadResult()
        accepted: list[tuple[str, pd.DataFrame, dict[str, Any]]] = []
        for chunk in iter_chunks(records, self.spec.chunk_size):
            with self._clock.stage("upload"):
                accepted.extend(self._send_chunk(chunk, result))
        for key, chunk, job in accepted:
            with self._clock.stage("calculate"):
                finished = self._api.wait_for_ingest_job(str(job["id"]))
            result.jobs.append(finished)
            with self._clock.stage("land"):
                self._land_job(key, chunk, finished, result)
        return result

    def _send_chunk(
        self, chunk: pd.DataFrame, result: UploadResult
    ) -> list[tuple[str, pd.DataFrame, dict[str, Any]]]:
        """POST one chunk; on a whole-request 422, reject the named rows and send the rest."""
        while not chunk.empty:
            payload = to_payload(chunk, self.spec)
            key = idempotency_key(self.spec.name, "create", payload)
            pending = chunk[[self.spec.key_field, "source_hash"]].rename(
                columns={self.spec.key_field: "source_key"}
            )
            self._writer.add_pending(self.spec.name, self._run_id, key, pending)
            try:
                job = self._api.create_wastes(payload, idempotency_key=key)
            except ValidationFailedError as error:
                self._writer.clear_pending(self.spec.name, key)
                rejected = service_rejects(chunk, error, self.spec)
                if rejected.empty:
                    raise  # the service refused the request for a reason no row explains
                result.rejects.append(rejected)
                bad_rows = {int(entry["index"]) for entry in error.errors if "index" in entry}
                keep = [i for i in range(len(chunk)) if i not in bad_rows]
                chunk = chunk.iloc[keep].reset_index(drop=True)
                continue
            result.sent += len(chunk)
            return [(key, chunk, job)]
        return []

    def _land_job(
        self, key: str, chunk: pd.DataFrame, job: dict[str, Any], result: UploadResult
    ) -> None:
        """Map the job's records back to source rows, land them, and clear the pending mark."""
        items = list(iter_all_items(self._get_json, "/v2/wastes", {"ingest_job_id": job["id"]}))
        remote = remote_frame(items, self.spec)
        hashes = chunk[[self.spec.key_field, "source_hash"]].rename(
            columns={self.spec.key_field: "source_key"}
        )
        mapping = remote[["source_key", "remote_id"]].merge(hashes, on="source_key", how="inner")
        mapping["ingest_job_id"] = str(job["id"])
        self._writer.upsert_mapping(self.spec.name, mapping)
        self._writer.land_remote_records(self.spec.name, remote)
        self._writer.clear_pending(self.spec.name, key)
        result.loaded += len(mapping)
        result.failed += int((remote["status"] == "error").sum())
        result.co2e_kg += float(remote["co2e_kg"].fillna(0).sum())

    def recover(self) -> int:
        """Repair a previous run that crashed between sending chunks and landing their results.

        Chunks marked pending may or may not have reached the service. The service is asked
        which of their rows exist (by ``client_row_id``); those are adopted into the mapping with
        the hash that was sent, so this run skips them instead of creating them again. Should a
        row somehow exist twice, the newest record is kept and the others are deleted.
        Returns how many records were adopted.
        """
        pending = self._writer.pending(self.spec.name)
        if pending.empty:
            return 0
        latest = pending.sort_values("created_at").drop_duplicates("source_key", keep="last")
        keys = latest["source_key"].astype(str).tolist()
        items: list[dict[str, Any]] = []
        for start in range(0, len(keys), RECOVERY_KEYS_PER_REQUEST):
            part = keys[start : start + RECOVERY_KEYS_PER_REQUEST]
            items.extend(iter_all_items(self._get_json, "/v2/wastes", {self.spec.key_field: part}))
        remote = remote_frame(items, self.spec).sort_values("remote_updated_at", kind="stable")
        keep = remote.drop_duplicates("source_key", keep="last")
        duplicates = remote.loc[~remote["remote_id"].isin(keep["remote_id"]), "remote_id"].tolist()
        self._delete_remote(duplicates)
        adopted = keep.assign(
            ingest_job_id=[json.loads(payload).get("ingest_job_id") for payload in keep["payload"]]
        )
        mapping = adopted[["source_key", "remote_id", "ingest_job_id"]].merge(
            latest[["source_key", "source_hash"]], on="source_key", how="inner"
        )
        self._writer.upsert_mapping(self.spec.name, mapping)
        self._writer.land_remote_records(self.spec.name, keep)
        for key in pending["idempotency_key"].unique():
            self._writer.clear_pending(self.spec.name, str(key))
        return len(mapping)
