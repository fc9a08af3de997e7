"""v1 bulk with per-record results: chunks of at most 5,000 in ``{records, options}``, at most
``in_flight`` requests at once (interface: Limits, 10 per key and endpoint), ``results[]`` and
``errors[]`` mapped back to the source rows by index.

The service keeps its own dedup or upsert key for these records (logistics: ``movement_id`` +
``movement_stretch``; recharges: country, date, quantity, plate), so sending a chunk twice
updates instead of duplicating; pending marks still let the next run adopt what a killed run
created. A changed row's old record is removed with the batch delete first.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from emissions_etl.client.json_types import json_object, json_objects
from emissions_etl.errors import NotFoundError
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.loading.readback import remote_frame
from emissions_etl.loading.writing._context import ChangePlan, WriteContext
from emissions_etl.loading.writing.chunks import iter_chunks
from emissions_etl.loading.writing.payloads import payload_json, to_payload
from emissions_etl.loading.writing.recovery import recover_by_listing
from emissions_etl.loading.writing.refusals import rejects_at
from emissions_etl.loading.writing.results import LandsAsItWrites, WriteResult, land_remote
from emissions_etl.resources import PerRecordBulk


class BulkResultsWriter(LandsAsItWrites):
    """Writes one resource's records through a v1 bulk endpoint."""

    def __init__(self, context: WriteContext, strategy: PerRecordBulk) -> None:
        self.context = context
        self.strategy = strategy

    def write(self, plan: ChangePlan, *, dry_run: bool = False) -> WriteResult:
        """Delete the old records of changed rows, then send every new or changed row."""
        result = WriteResult()
        if dry_run:
            return result
        if not plan.changed.empty:
            result.deleted = self._delete(plan.changed["remote_id"].astype(str).tolist())
        records = plan.to_send
        records.attrs = plan.new.attrs or plan.changed.attrs
        chunks = list(iter_chunks(records, self.strategy.chunk_size))
        with (
            self.context.clock.stage("upload"),
            ThreadPoolExecutor(self.strategy.in_flight, thread_name_prefix="bulk") as pool,
        ):
            marked = [self._mark(chunk) for chunk in chunks]
            answers = list(pool.map(self._send, [payloads for _, payloads in marked]))
        with self.context.clock.stage("land"):
            for chunk, (key, payloads), answer in zip(chunks, marked, answers, strict=True):
                chunk.attrs = records.attrs
                result.add(self._land(chunk, key, payloads, answer))
        return result

    def _mark(self, chunk: pd.DataFrame) -> tuple[str, list[JsonObject]]:
        ctx = self.context
        payloads = to_payload(chunk, ctx.spec)
        key = f"{ctx.run_id}:{chunk['source_key'].iloc[0]}"
        marks = chunk[["source_key", "source_hash"]].assign(payload=payload_json(payloads))
        ctx.writer.marks.add_pending(ctx.spec.name, ctx.run_id, key, marks)
        return key, payloads

    def _send(self, payloads: list[JsonObject]) -> JsonObject:
        body = {"records": payloads, "options": {"continue_on_error": True}}
        path = self.strategy.bulk_path
        return json_object(self.context.api.send_json("POST", path, body), f"POST {path}")

    def _land(
        self, chunk: pd.DataFrame, key: str, payloads: list[JsonObject], answer: JsonObject
    ) -> WriteResult:
        ctx, result = self.context, WriteResult(sent=len(chunk))
        what = f"POST {self.strategy.bulk_path}"
        entries = [
            (int(index), _field(e), str(e.get("code") or ""), _detail(e))
            for e in json_objects(answer.get("errors") or [], f"{what}: errors")
            if isinstance(index := e.get("index"), int)
        ]
        if entries:
            result.rejects.append(rejects_at(chunk, ctx.spec, entries))
            result.refused = len({position for position, *_ in entries})
        created = [
            (index, r)
            for r in json_objects(answer.get("results") or [], f"{what}: results")
            if isinstance(index := r.get("index"), int)
        ]
        if created:
            # Results carry the essential fields; the record sent fills in the rest.
            items = [{**payloads[index], **r} for index, r in created]
            keys = {str(r["id"]): str(chunk["source_key"].iloc[index]) for index, r in created}
            result.add(land_remote(ctx, chunk, remote_frame(items, ctx.spec, keys)))
        ctx.writer.marks.clear_pending(ctx.spec.name, key)
        ctx.notify("sent", len(chunk))
        ctx.notify("calculated", result.loaded)
        return result

    def delete(self, ids: list[str]) -> int:
        """Delete records by id with the batch delete (one already gone is no error)."""
        return self._delete(ids)

    def _delete(self, ids: list[str]) -> int:
        """Batch delete is all or nothing: when an id is already gone, delete one by one."""
        ctx, path, field = self.context, self.strategy.batch_delete_path, self.strategy.delete_field
        try:
            ctx.api.send_json("POST", path, {field: ids})
        except NotFoundError:
            for remote_id in ids:
                with contextlib.suppress(NotFoundError):
                    ctx.api.send_json("POST", path, {field: [remote_id]})
        ctx.writer.records.remove_remote_records(ctx.spec.name, ids)
        return len(ids)

    def recover(self) -> int:
        """Adopt what a killed run created (see ``recovery``)."""
        return recover_by_listing(self.context)


def _detail(entry: JsonObject) -> str:
    """The entry's detail, with the first validation message when it carries a list (the
    detail alone says only "invalid record")."""
    detail = str(entry.get("detail") or entry)
    first = _first_nested(entry)
    if first is not None and first.get("msg"):
        return f"{detail}: {first['msg']}"
    return detail


def _field(entry: JsonObject) -> str:
    first = _first_nested(entry)
    if first is not None:
        loc = first.get("loc")
        location = [part for part in loc if isinstance(part, str)] if isinstance(loc, list) else []
        return location[-1] if location else ""
    return str(entry.get("field") or "")


def _first_nested(entry: JsonObject) -> JsonObject | None:
    """The first of the validation errors an entry carries, when it carries a list of them."""
    nested: JsonValue = entry.get("errors")
    if isinstance(nested, list) and nested and isinstance(nested[0], dict):
        return nested[0]
    return None
