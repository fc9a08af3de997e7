"""v2 bulk ingest jobs: chunks of at most 5,000 with a content-derived ``Idempotency-Key``, each
job followed to its end, its records mapped back to the rows by ``client_row_id``.

A changed row replaces its record (delete job, then create). Chunks are marked pending in the
warehouse *before* they are sent, so a crash between upload and landing is repaired by the next
run (``recover``): the records that exist are found by ``client_row_id`` and adopted.
"""

from __future__ import annotations

import json
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import orjson
import pandas as pd

from emissions_etl.client.json_types import json_object
from emissions_etl.errors import ValidationFailedError
from emissions_etl.json_values import JsonObject
from emissions_etl.loading.idempotency import canonical_json, idempotency_key, idempotency_key_of
from emissions_etl.loading.readback import READ_THREADS, remote_frame, settle
from emissions_etl.loading.writing._context import ChangePlan, WriteContext
from emissions_etl.loading.writing.chunks import iter_chunks
from emissions_etl.loading.writing.payloads import to_payload
from emissions_etl.loading.writing.refusals import rejects_at
from emissions_etl.loading.writing.results import WriteResult
from emissions_etl.resources import IngestJobBulk

#: Ingest jobs followed (waited for and read back) at once while later chunks are sent.
JOBS_FOLLOWED = 2
#: Rows of finished jobs landed together (a statement per table for each such group).
LAND_ROWS = 25_000
#: ``client_row_id`` values per recovery look-up, so the query string stays well under 8 KB.
RECOVERY_KEYS_PER_REQUEST = 100


@dataclass
class EncodedChunk:
    """Rows of one POST, their records as canonical JSON, and the key derived from it."""

    rows: pd.DataFrame
    payload: bytes
    key: str
    #: The ingest job the service answered with, once sent.
    job: JsonObject = field(default_factory=dict)


class _Landing:
    """Finished jobs landed in order, ``LAND_ROWS`` at a time, on the writer's thread (the
    warehouse writer is one connection)."""

    def __init__(self, writer: IngestJobWriter) -> None:
        self._writer = writer
        self._followed: deque[tuple[EncodedChunk, Future[tuple[JsonObject, pd.DataFrame]]]]
        self._followed = deque()
        self._ready: list[tuple[EncodedChunk, JsonObject, pd.DataFrame]] = []

    def follow(self, chunk: EncodedChunk, future: Future[tuple[JsonObject, pd.DataFrame]]) -> None:
        self._followed.append((chunk, future))

    def collect(self, into: WriteResult, *, wait: bool) -> None:
        """Take the finished jobs at the head of the queue (all of them with ``wait``), and
        land them once they hold ``LAND_ROWS`` rows or nothing is left to wait for."""
        clock = self._writer.context.clock
        while self._followed and (wait or self._followed[0][1].done()):
            chunk, future = self._followed.popleft()
            with clock.stage("calculate"):
                job, remote = future.result()
            self._ready.append((chunk, job, remote))
            if sum(len(frame) for _, _, frame in self._ready) >= LAND_ROWS:
                self._land(into)
        if wait:
            self._land(into)

    def _land(self, into: WriteResult) -> None:
        if self._ready:
            with self._writer.context.clock.stage("land"):
                self._writer.land_jobs(self._ready, into)
            self._ready = []


class IngestJobWriter:
    """Writes one resource's records through v2 bulk ingest jobs."""

    def __init__(self, context: WriteContext, strategy: IngestJobBulk) -> None:
        self.context = context
        self.strategy = strategy
        self._landing = _Landing(self)
        self._pool: ThreadPoolExecutor | None = None

    def write(self, plan: ChangePlan, *, dry_run: bool = False) -> WriteResult:
        """Send new and changed rows; a changed row's old record is deleted first.

        Every chunk is encoded once (its canonical JSON is both the body and the source of its
        key) and the whole batch is marked pending in one statement before the first POST. Jobs
        are followed and read back while later chunks, and later batches, are sent: what they
        wrote lands ``LAND_ROWS`` at a time, one statement per table, here or in ``finish``
        (per-chunk statements cost seconds at 200,000 rows; waiting for a batch's last job
        before reading the next left the service idle)."""
        if dry_run:
            return self._validate_remotely(plan.to_send)
        result = WriteResult()
        if not plan.changed.empty:
            result.deleted = self._delete(plan.changed["remote_id"].astype(str).tolist())
            ctx = self.context
            ctx.writer.mappings.delete_mapping(ctx.spec.name, plan.changed["source_key"].tolist())
            ctx.writer.records.remove_remote_records(
                ctx.spec.name, plan.changed["remote_id"].tolist()
            )
        with self.context.clock.stage("upload"):
            chunks = [
                self._encoded(chunk)
                for chunk in iter_chunks(plan.to_send, self.strategy.chunk_size)
            ]
            self._mark_pending(chunks)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(JOBS_FOLLOWED, thread_name_prefix="jobs")
        for chunk in chunks:
            with self.context.clock.stage("upload"):
                sent = self._send_chunk(chunk, result)
            if sent is not None:
                self._landing.follow(sent, self._pool.submit(self._follow, str(sent.job["id"])))
            self._landing.collect(result, wait=False)
        return result

    def finish(self) -> WriteResult:
        """Wait for the jobs still followed and land what they wrote."""
        result = WriteResult()
        try:
            self._landing.collect(result, wait=True)
        finally:
            self.close()
        return result

    def close(self) -> None:
        """Stop following (a failed load): the next run recovers what was sent."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _follow(self, job_id: str) -> tuple[JsonObject, pd.DataFrame]:
        """Wait for the job to finish, then read the records it wrote."""
        finished = self.context.completion.wait(job_id)
        items = list(
            self.context.api.iter_items(self.strategy.list_path, {"ingest_job_id": job_id})
        )
        return finished, remote_frame(items, self.context.spec)

    def _encoded(self, rows: pd.DataFrame) -> EncodedChunk:
        payload = canonical_json(to_payload(rows, self.context.spec))
        return EncodedChunk(
            rows, payload, idempotency_key_of(self.context.spec.name, "create", payload)
        )

    def _mark_pending(self, chunks: list[EncodedChunk]) -> None:
        if not chunks:
            return
        ctx = self.context
        rows = pd.concat([chunk.rows[["source_key", "source_hash"]] for chunk in chunks])
        keys = [chunk.key for chunk in chunks for _ in range(len(chunk.rows))]
        ctx.writer.marks.add_pending(ctx.spec.name, ctx.run_id, keys, rows)

    def _send_chunk(self, chunk: EncodedChunk, result: WriteResult) -> EncodedChunk | None:
        """POST one chunk; on a whole-request 422, reject the named rows and send the rest
        (under the key of what is left, marked pending before it is sent)."""
        ctx = self.context
        while not chunk.rows.empty:
            try:
                answer = ctx.api.send_json(
                    "POST",
                    self.strategy.create_path,
                    {"records": orjson.Fragment(chunk.payload)},
                    headers={"Idempotency-Key": chunk.key},
                )
                chunk.job = json_object(answer, f"POST {self.strategy.create_path}")
            except ValidationFailedError as error:
                ctx.writer.marks.clear_pending(ctx.spec.name, chunk.key)
                refused = self._refused(chunk.rows, error)
                if refused.empty:
                    raise  # the service refused the request for a reason no row explains
                result.rejects.append(refused)
                bad = {
                    int(index)
                    for entry in error.errors
                    if isinstance(index := entry.get("index"), int)
                }  # the rows _refused made rejects of
                result.sent += len(bad)  # sent once, and refused: rejects, not sent again
                result.refused += len(bad)
                chunk = self._encoded(chunk.rows.drop(index=list(bad)).reset_index(drop=True))
                self._mark_pending([chunk])
                continue
            result.sent += len(chunk.rows)
            ctx.notify("sent", len(chunk.rows))
            return chunk
        return None

    def _refused(self, chunk: pd.DataFrame, error: ValidationFailedError) -> pd.DataFrame:
        entries = [
            (int(index), str(e.get("field") or ""), str(e.get("code")), str(e.get("message")))
            for e in error.errors
            if isinstance(index := e.get("index"), int)
        ]
        return rejects_at(chunk, self.context.spec, entries)

    def _validate_remotely(self, records: pd.DataFrame) -> WriteResult:
        """``dry_run=true`` for every chunk: the service's verdict, nothing written."""
        result = WriteResult()
        for chunk in iter_chunks(records, self.strategy.chunk_size):
            payload = to_payload(chunk, self.context.spec)
            key = idempotency_key(self.context.spec.name, "dry-run", payload)
            try:
                self.context.api.send_json(
                    "POST",
                    self.strategy.create_path,
                    {"records": payload},
                    params={"dry_run": "true"},
                    headers={"Idempotency-Key": key},
                )
            except ValidationFailedError as error:
                result.rejects.append(self._refused(chunk, error))
        return result

    def land_jobs(
        self, finished: list[tuple[EncodedChunk, JsonObject, pd.DataFrame]], result: WriteResult
    ) -> None:
        """Map the jobs' records back to source rows, land them, and clear the pending marks."""
        if not finished:
            return
        ctx = self.context
        sent = pd.concat(
            [chunk.rows[["source_key", "source_hash"]] for chunk, _, _ in finished],
            ignore_index=True,
        )
        remote = pd.concat([frame for _, _, frame in finished], ignore_index=True)
        job_of = pd.Series(
            [str(job["id"]) for _, job, frame in finished for _ in range(len(frame))],
            dtype="string",
        )
        mapping = remote[["source_key", "remote_id"]].assign(ingest_job_id=job_of.to_numpy())
        mapping = mapping.merge(sent, on="source_key", how="inner")
        ctx.writer.mappings.upsert_mapping(ctx.spec.name, mapping, source_name=ctx.source_name)
        ctx.writer.records.land_remote_records(ctx.spec.name, remote)
        ctx.writer.marks.clear_pending(ctx.spec.name, [chunk.key for chunk, _, _ in finished])
        result.jobs += [job for _, job, _ in finished]
        result.loaded += len(mapping)
        result.failed += int((remote["status"] == "error").sum())
        result.co2e_kg += float(remote["co2e_kg"].fillna(0).sum())
        ctx.notify("calculated", len(mapping))

    def delete(self, ids: list[str]) -> int:
        """Delete records by id (``operation`` ``delete`` ingest jobs, waited for)."""
        return self._delete(ids)

    def _delete(self, ids: list[str]) -> int:
        """Delete records by id, a chunk per ingest job, each key derived from its ids."""
        ctx = self.context
        for start in range(0, len(ids), self.strategy.chunk_size):
            part = sorted(ids[start : start + self.strategy.chunk_size])
            key = idempotency_key(ctx.spec.name, "delete", [{"id": i} for i in part])
            answer = ctx.api.send_json(
                "POST",
                self.strategy.delete_path,
                {self.strategy.delete_field: part},
                headers={"Idempotency-Key": key},
            )
            job = json_object(answer, f"POST {self.strategy.delete_path}")
            ctx.completion.wait(str(job["id"]))
        return len(ids)

    def recover(self) -> int:
        """Repair a run that crashed between sending chunks and landing their results.

        The service is asked which pending rows exist (by ``client_row_id``, in concurrent
        batches); those are adopted with the hash that was sent and read until calculated, so
        this run skips them instead of creating them again. Should a row exist twice, the newest
        record is kept and the others deleted. Returns how many records were adopted.
        """
        ctx = self.context
        pending = ctx.writer.marks.pending(ctx.spec.name)
        if pending.empty:
            return 0
        latest = pending.sort_values("created_at").drop_duplicates("source_key", keep="last")
        keys = latest["source_key"].astype(str).tolist()
        batches = [
            keys[start : start + RECOVERY_KEYS_PER_REQUEST]
            for start in range(0, len(keys), RECOVERY_KEYS_PER_REQUEST)
        ]
        path, key_field = self.strategy.list_path, self.strategy.key_field
        with ThreadPoolExecutor(READ_THREADS, thread_name_prefix="recovery") as pool:
            found = pool.map(
                lambda part: list(ctx.api.iter_items(path, {key_field: part})), batches
            )
            items = [item for part in found for item in part]
        remote = remote_frame(items, ctx.spec).sort_values("remote_updated_at", kind="stable")
        keep = remote.drop_duplicates("source_key", keep="last")
        duplicates = remote.loc[~remote["remote_id"].isin(keep["remote_id"]), "remote_id"]
        if not duplicates.empty:
            self._delete(duplicates.tolist())
        keep = settle(
            ctx.api, ctx.spec, keep.reset_index(drop=True), wait_seconds=ctx.settle_seconds
        )
        job_ids = [json.loads(payload).get("ingest_job_id") for payload in keep["payload"]]
        mapping = keep.assign(ingest_job_id=job_ids)[["source_key", "remote_id", "ingest_job_id"]]
        mapping = mapping.merge(latest[["source_key", "source_hash"]], on="source_key", how="inner")
        ctx.writer.mappings.upsert_mapping(ctx.spec.name, mapping, source_name=ctx.source_name)
        ctx.writer.records.land_remote_records(ctx.spec.name, keep)
        ctx.writer.marks.clear_pending(ctx.spec.name, pending["idempotency_key"].unique().tolist())
        return len(mapping)
