"""What every write strategy shares: the plan of a batch, its payloads, and how a service refusal
becomes a reject at the row and column a person can fix."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import orjson
import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS, RejectCode, empty_rejects
from emissions_etl.errors import ApiStatusError
from emissions_etl.loading.ports import LoadWarehouse
from emissions_etl.loading.stages import StageClock
from emissions_etl.resources import ResourceSpec
from emissions_etl.webhooks.completion import JobCompletion


class WriteApi(Protocol):
    """What writers ask of the service (``EmissionsClient`` provides it)."""

    def get_json(self, path: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]: ...

    def send_json(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any: ...

    def iter_items(
        self, path: str, params: Mapping[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]: ...

    def wait_for_ingest_job(
        self, job_id: str, *, sleep: Callable[[float], None] = ...
    ) -> dict[str, Any]: ...


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


@dataclass
class WriteResult:
    """Counts and side products of writing one batch.

    Of the rows ``sent``: ``loaded`` landed mapped to their record (``failed`` of them, or of
    earlier ones read again, with status error), ``refused`` by the service (rejects) and
    ``busy`` (held in a state that may not change: counted failed too, sent again next run);
    the rest were not landed yet (ingest jobs still running: the next run lands them).
    """

    sent: int = 0
    loaded: int = 0
    failed: int = 0
    deleted: int = 0
    refused: int = 0
    busy: int = 0
    co2e_kg: float = 0.0
    jobs: list[dict[str, Any]] = field(default_factory=list)
    rejects: list[pd.DataFrame] = field(default_factory=list)

    def add(self, other: WriteResult) -> None:
        self.sent += other.sent
        self.loaded += other.loaded
        self.failed += other.failed
        self.deleted += other.deleted
        self.refused += other.refused
        self.busy += other.busy
        self.co2e_kg += other.co2e_kg
        self.jobs += other.jobs
        self.rejects += other.rejects


class LandsAsItWrites:
    """For writers whose ``write`` returns once everything it sent has landed: nothing is left
    for ``finish`` or ``close``."""

    def finish(self) -> WriteResult:
        return WriteResult()

    def close(self) -> None:
        return None


def land_remote(context: WriteContext, chunk: pd.DataFrame, remote: pd.DataFrame) -> WriteResult:
    """Map created or updated records (``remote``, keyed to ``chunk``'s source keys) to their
    rows with the hash that was sent, and land them; the counts of what landed."""
    hashes = dict(zip(chunk["source_key"], chunk["source_hash"], strict=True))
    mapping = remote[["source_key", "remote_id"]].assign(
        source_hash=remote["source_key"].map(hashes), ingest_job_id=None
    )
    context.writer.mappings.upsert_mapping(
        context.spec.name, mapping, source_name=context.source_name
    )
    context.writer.records.land_remote_records(context.spec.name, remote)
    return WriteResult(
        loaded=len(mapping),
        failed=int((remote["status"] == "error").sum()),
        co2e_kg=float(remote["co2e_kg"].fillna(0).sum()),
    )


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


def to_payload(
    chunk: pd.DataFrame, spec: ResourceSpec, *, with_nulls: bool = False
) -> list[dict[str, Any]]:
    """Chunk rows as API records: dates as ISO strings, missing optional fields left out (sent
    as null ``with_nulls``: an update clears what a new version of the row left empty), plain
    Python values. Built column by column: rows sharing which fields are missing share one key
    list, so no per-cell Python work is done."""
    fields = [name for name in spec.record_fields if name in chunk.columns]
    if chunk.empty or not fields:
        return [{} for _ in range(len(chunk))]
    values: dict[str, list[Any]] = {}
    missing = np.zeros((len(chunk), len(fields)), dtype=bool)
    for position, name in enumerate(fields):
        column = chunk[name]
        if name in spec.date_fields:
            column = pd.to_datetime(column).dt.strftime("%Y-%m-%d")
        missing[:, position] = column.isna().to_numpy()
        values[name] = column.tolist()
    records: list[dict[str, Any]] = [{}] * len(chunk)
    if with_nulls:
        missing[:] = False
        values = {
            name: [None if _is_missing(v) else v for v in column] for name, column in values.items()
        }
    codes = missing @ (1 << np.arange(len(fields), dtype=np.int64))  # one int per pattern
    for code in np.unique(codes).tolist():
        keep = [name for bit, name in enumerate(fields) if not code >> bit & 1]
        rows = np.flatnonzero(codes == code).tolist()
        if len(rows) == len(chunk):
            columns = [values[name] for name in keep]
        else:
            columns = [[values[name][row] for row in rows] for name in keep]
        for row, record in zip(rows, zip(*columns, strict=True), strict=True):
            records[row] = dict(zip(keep, record, strict=True))
        if not keep:
            for row in rows:
                records[row] = {}
    return records


def _is_missing(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))


def payload_json(payloads: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each payload as compact JSON with sorted keys (stored with a pending write)."""
    return [orjson.dumps(p, option=orjson.OPT_SORT_KEYS, default=str).decode() for p in payloads]


def iter_chunks(frame: pd.DataFrame, size: int) -> Iterator[pd.DataFrame]:
    """Consecutive slices of at most ``size`` rows."""
    for start in range(0, len(frame), size):
        yield frame.iloc[start : start + size].reset_index(drop=True)


def rejects_at(
    rows: pd.DataFrame, spec: ResourceSpec, entries: Sequence[tuple[int, str, str, str]]
) -> pd.DataFrame:
    """Rejects for ``(position in rows, api field, service code, service message)`` entries,
    at the spreadsheet column a person fixes (``input_column_of_field`` by code, then field)."""
    headers: dict[str, str] = dict(rows.attrs.get("headers", {}))
    out = []
    for position, api_field, code, message in entries:
        if not 0 <= position < len(rows):
            continue
        source = rows.iloc[position]
        api_field = api_field or _field_named(message, source, spec)
        fields = spec.input_column_of_field  # a refusal's code may name the column it is about
        column = fields.get(code) or fields.get(api_field, api_field)
        value = source.get(api_field, source.get(column, ""))
        out.append(
            {
                "file": source["_file"],
                "sheet": source["_sheet"],
                "row": int(source["_row"]),
                "column": headers.get(column, column) if column else "",
                "value": "" if _is_empty(value) else str(value),
                "code": RejectCode.REJECTED_BY_SERVICE.value,
                "message": f"The service refused this row ({code}): {message}",
            }
        )
    return pd.DataFrame(out, columns=list(REJECT_COLUMNS)) if out else empty_rejects()


def _is_empty(value: object) -> bool:
    """An empty cell, however the frame holds it (None, NA, or a float NaN: shown as "nan")."""
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def _field_named(message: str, source: pd.Series, spec: ResourceSpec) -> str:
    """The field a refusal that names none is about: the one whose value the message quotes
    (``Unknown place 'Atlantis'``), else the first one it names (``transport_type train is not
    possible ...``); "" when neither."""
    quoted = {
        text.strip().lower()
        for pair in re.findall(r"'([^']+)'|\"([^\"]+)\"", message)
        for text in pair
        if text.strip()
    }
    for name in spec.record_fields:
        value = source.get(name)
        if isinstance(value, str) and value.strip().lower() in quoted:
            return name
    for name in spec.record_fields:
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", message):
            return name
    return ""


def refusal_entries(error: ApiStatusError) -> list[tuple[str, str, str]]:
    """(api field, code, message) of a record the service refused: the v1 validation list,
    the v2 problem ``errors``, or the one ``{detail, code}``."""
    if error.errors:
        return [
            (_field_of(entry), str(entry.get("code") or error.code or entry.get("type") or ""),
             str(entry.get("message") or entry.get("msg") or error.detail))
            for entry in error.errors
        ]  # fmt: skip
    return [("", str(error.code or error.status), error.detail)]


def _field_of(entry: Mapping[str, Any]) -> str:
    if entry.get("field"):
        return str(entry["field"])
    location = [part for part in entry.get("loc") or () if part not in ("body",)]
    return str(location[-1]) if location and isinstance(location[-1], str) else ""
