"""One request per record (v1 creates, updates and deletes), several in flight at once.

A record the service refuses (400, 404, 409, 422) rejects its row with the service's code and
message; any other failure stops the load after what was written is landed. Each chunk is marked
pending with its payloads before it is sent, so a killed run's records are found and adopted by
the next run (``recovery``) instead of being created twice. An update sends every field of the
record, the ones a new version of the row left empty as null, so an emptied cell clears its
field. Records the service calculates later land as the service first answered and are read
again once, all together, by ``finish`` (list pages where the resource's read-back has them).
"""

from __future__ import annotations

import contextlib
import string
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pandas as pd

from emissions_etl.client.json_types import json_object
from emissions_etl.errors import ApiStatusError, NotFoundError
from emissions_etl.json_values import JsonObject
from emissions_etl.loading.readback import fill_path, remote_frame, settle
from emissions_etl.loading.writing._context import ChangePlan, WriteContext
from emissions_etl.loading.writing.chunks import iter_chunks
from emissions_etl.loading.writing.payloads import payload_json, to_payload
from emissions_etl.loading.writing.recovery import recover_by_listing
from emissions_etl.loading.writing.refusals import refusal_entries, rejects_at
from emissions_etl.loading.writing.results import WriteResult, land_remote
from emissions_etl.resources import SingleCreate

#: Rows marked pending and sent together; a crash leaves at most this many to look up.
CHUNK_ROWS = 500
#: Statuses whose error is the record's fault: a reject, not a failed load.
REFUSALS = frozenset({400, 404, 409, 422})


@dataclass(frozen=True)
class _Outcome:
    record: JsonObject | None = None
    refusal: ApiStatusError | None = None
    failure: BaseException | None = None
    #: The service holds the record in a state it may not be changed in (``busy_codes``).
    busy: bool = False


class SingleRecordWriter:
    """Writes one resource's records one request each."""

    def __init__(self, context: WriteContext, strategy: SingleCreate) -> None:
        self.context = context
        self.strategy = strategy
        #: Landed records the service had not calculated yet, read again by ``finish``.
        self._unsettled: list[pd.DataFrame] = []

    def write(self, plan: ChangePlan, *, dry_run: bool = False) -> WriteResult:
        """Create new rows and update (or replace) changed ones; nothing is sent on a dry run
        (v1 has no validate-only call: validation and resolution have judged the rows)."""
        result = WriteResult()
        if dry_run:
            return result
        changed = plan.changed
        if not changed.empty and self.strategy.update_method is None:
            ids = changed["remote_id"].astype(str).tolist()
            result.deleted = self._delete(ids, to_payload(changed, self.context.spec))
            changed = changed.assign(remote_id=None)
        work = pd.concat([plan.new.assign(remote_id=None), changed], ignore_index=True)
        work.attrs = plan.new.attrs or plan.changed.attrs
        for chunk in iter_chunks(work, CHUNK_ROWS):
            chunk.attrs = work.attrs
            result.add(self._write_chunk(chunk))
        return result

    def _write_chunk(self, chunk: pd.DataFrame) -> WriteResult:
        ctx, result = self.context, WriteResult()
        payloads = to_payload(chunk, ctx.spec)
        updates = to_payload(chunk, ctx.spec, with_nulls=True)
        key = f"{ctx.run_id}:{chunk['source_key'].iloc[0]}"
        marks = chunk[["source_key", "source_hash", "remote_id"]].assign(
            payload=payload_json(payloads)
        )
        ctx.writer.marks.add_pending(ctx.spec.name, ctx.run_id, key, marks)
        remote_ids = chunk["remote_id"].tolist()
        with (
            ctx.clock.stage("upload"),
            ThreadPoolExecutor(self.strategy.in_flight, thread_name_prefix="write") as pool,
        ):
            outcomes = list(pool.map(self._send, payloads, updates, remote_ids))
        result.sent = len(chunk)
        result.busy = sum(o.busy for o in outcomes)
        result.failed += result.busy  # sent again next run: old hash kept
        ctx.notify("sent", len(chunk))
        created = [(i, o.record) for i, o in enumerate(outcomes) if o.record is not None]
        refused = [
            (i, *entry)
            for i, o in enumerate(outcomes)
            if o.refusal is not None
            for entry in refusal_entries(o.refusal)[:1]
        ]
        if refused:
            result.rejects.append(rejects_at(chunk, ctx.spec, refused))
            result.refused = len(refused)
        with ctx.clock.stage("land"):
            self._land(chunk, created, result)
        ctx.writer.marks.clear_pending(ctx.spec.name, key)
        failure = next((o.failure for o in outcomes if o.failure is not None), None)
        if failure is not None:
            raise failure
        return result

    def _send(self, payload: JsonObject, update: JsonObject, remote_id: str | None) -> _Outcome:
        path, body = _fill_path(self.strategy.create_path, payload)
        method = "POST"
        if remote_id is not None and self.strategy.update_method and self.strategy.item_path:
            method = self.strategy.update_method
            path, body = _fill_path(self.strategy.item_path, {**update, "id": remote_id})
            body.pop("id", None)
        try:
            answer = self.context.api.send_json(method, path, body)
            return _Outcome(
                record=None if answer is None else json_object(answer, f"{method} {path}")
            )
        except ApiStatusError as error:
            if error.status == 409 and error.code in self.strategy.busy_codes:
                return _Outcome(busy=True)
            if error.status in REFUSALS:
                return _Outcome(refusal=error)
            return _Outcome(failure=error)
        except Exception as error:  # transport errors and the like: stop after landing
            return _Outcome(failure=error)

    def _land(
        self, chunk: pd.DataFrame, created: list[tuple[int, JsonObject]], result: WriteResult
    ) -> None:
        ctx = self.context
        if not created:
            return
        keys = {str(record["id"]): str(chunk["source_key"].iloc[i]) for i, record in created}
        remote = remote_frame([record for _, record in created], ctx.spec, keys)
        result.add(land_remote(ctx, chunk, remote))
        unsettled = remote["status"].isin(ctx.spec.readback.unsettled).to_numpy()
        if unsettled.any():  # their co2e (0 so far) is added once read again, by ``finish``
            self._unsettled.append(remote[unsettled])
        ctx.notify("calculated", int((~unsettled).sum()))

    def finish(self) -> WriteResult:
        """Read again, all together, the records the service had not calculated when it
        answered (one list of their date range where the read-back has one), until they
        settle or the wait ends; land them with their co2e."""
        ctx, result = self.context, WriteResult()
        if not self._unsettled:
            return result
        pending = pd.concat(self._unsettled, ignore_index=True)
        self._unsettled = []
        with ctx.clock.stage("calculate"):
            fresh = settle(ctx.api, ctx.spec, pending, wait_seconds=ctx.settle_seconds)
        with ctx.clock.stage("land"):
            ctx.writer.records.land_remote_records(ctx.spec.name, fresh)
        result.failed = int((fresh["status"] == "error").sum())
        result.co2e_kg = float(fresh["co2e_kg"].fillna(0).sum())
        ctx.notify("calculated", len(fresh))
        return result

    def close(self) -> None:
        """A failed load: what is still unsettled was landed as such; the next run reads it."""
        self._unsettled = []

    def delete(self, ids: list[str]) -> int:
        """Delete records by id (see ``_delete``)."""
        return self._delete(ids, [{} for _ in ids])

    def _delete(self, ids: list[str], rows: list[JsonObject]) -> int:
        """Delete records (a record already gone counts as deleted). A path naming a parent
        (``/v1/vehicles/{vehicle_id}/consumptions/{id}``) takes it from the record the service
        holds, as last read, else from ``rows`` (the rows that replace them): a row moved to
        another parent still deletes its old record."""
        ctx, path = self.context, self.strategy.delete_path or self.strategy.item_path
        if path is None:
            return 0
        parents = {name for _, name, _, _ in string.Formatter().parse(path) if name} - {"id"}
        held = ctx.writer.records.remote_payloads(ctx.spec.name, ids) if parents else {}

        def delete(remote_id: str, row: JsonObject) -> None:
            fields = {**row, **held.get(remote_id, {}), "id": remote_id}
            with contextlib.suppress(NotFoundError):
                ctx.api.send_json("DELETE", fill_path(path, fields))

        with ThreadPoolExecutor(self.strategy.in_flight, thread_name_prefix="delete") as pool:
            list(pool.map(delete, ids, rows))
        ctx.writer.records.remove_remote_records(ctx.spec.name, ids)
        return len(ids)

    def recover(self) -> int:
        """Adopt what a killed run created (see ``recovery``)."""
        return recover_by_listing(self.context)


def _fill_path(template: str, payload: JsonObject) -> tuple[str, JsonObject]:
    """``template`` with its ``{field}`` parts taken out of ``payload`` (returned without them)."""
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    body = {key: value for key, value in payload.items() if key not in names}
    return fill_path(template, payload), body
