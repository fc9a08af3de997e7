"""One file, end to end: read -> validate -> resolve -> upsert -> land, as a recorded load run.

Batches stream through so memory stays bounded by the batch size, not the file size. Every input
row ends either loaded (mapped to its remote id) or rejected with a reason; the run row in the
warehouse says which, with counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

from emissions_etl.errors import StrictModeError
from emissions_etl.lookups import ReferenceApi, WasteLookups, fetch_waste_lookups
from emissions_etl.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.resolution import resolve_wastes
from emissions_etl.resources import WASTES, ResourceSpec
from emissions_etl.sources import read_source
from emissions_etl.stages import StageClock
from emissions_etl.upsert import BulkApi, Uploader, plan_changes
from emissions_etl.validation import validate_wastes
from emissions_etl.warehouse import Warehouse, WarehouseWriter
from emissions_etl_schemas import INPUT_ALIASES, REQUIRED_INPUT_COLUMNS, SCHEMAS

#: Called as work advances: (stage, rows just processed).
ProgressCallback = Callable[[str, int], None]


@dataclass(frozen=True)
class LoadOptions:
    """How to load one file; the same knobs the CLI and the flow expose."""

    sheet: str | None = None
    strict: bool = False
    dry_run: bool = False
    encoding: str | None = None
    delimiter: str | None = None
    batch_rows: int = 100_000


@dataclass
class LoadSummary:
    """What happened to a file's rows in one run."""

    run_id: str
    resource: str
    source: str
    outcome: str = "running"
    rows_read: int = 0
    rows_rejected: int = 0
    rows_unchanged: int = 0
    rows_sent: int = 0
    rows_loaded: int = 0
    rows_deleted: int = 0
    rows_failed: int = 0
    rows_recovered: int = 0
    co2e_kg: float = 0.0
    job_ids: list[str] = field(default_factory=list)
    rejects: pd.DataFrame = field(default_factory=lambda: empty_rejects())
    #: Wall-clock seconds per stage: read_validate, resolve, upload, calculate, land.
    seconds: dict[str, float] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """The integer counters, as stored on the run row."""
        return {k: v for k, v in asdict(self).items() if k.startswith("rows_")}


@dataclass
class ValidationSummary:
    """Offline verdict on a file: how many rows, and the rejects."""

    rows_read: int
    rows_valid: int
    rejects: pd.DataFrame


def _expected_columns(spec: ResourceSpec) -> list[str]:
    return list(SCHEMAS[spec.name].to_schema().columns)


def iter_validated(
    path: Path, spec: ResourceSpec, options: LoadOptions
) -> Iterator[tuple[int, pd.DataFrame, pd.DataFrame]]:
    """(rows read, valid rows, rejects) per batch; a key repeated across batches is rejected."""
    seen: set[str] = set()
    for batch in read_source(
        path,
        sheet=options.sheet,
        expected_columns=_expected_columns(spec),
        required_columns=REQUIRED_INPUT_COLUMNS,
        aliases=INPUT_ALIASES,
        encoding=options.encoding,
        delimiter=options.delimiter,
        batch_rows=options.batch_rows,
    ):
        result = validate_wastes(batch)
        valid, rejects = result.valid, result.rejects
        repeated = valid[spec.key_field].isin(seen)
        if repeated.any():
            rejects = pd.concat([rejects, _duplicate_rejects(valid[repeated], spec, batch)])
            valid = valid[~repeated]
        seen.update(valid[spec.key_field].astype(str))
        yield len(batch), valid, rejects


def _duplicate_rejects(rows: pd.DataFrame, spec: ResourceSpec, batch: pd.DataFrame) -> pd.DataFrame:
    keys = rows[spec.key_field].astype(str)
    return make_rejects(
        rows,
        column=batch.attrs.get("headers", {}).get(spec.key_field, spec.key_field),
        value=keys,
        code=RejectCode.DUPLICATE_ROW_ID,
        message="Row id '" + keys + "' was already used by an earlier row of the file; "
        "give each row its own id.",
    )


def validate_file(
    path: Path, *, spec: ResourceSpec = WASTES, options: LoadOptions | None = None
) -> ValidationSummary:
    """Read and validate a file without the service (``emissions-etl validate``)."""
    options = options or LoadOptions()
    rows_read, rows_valid, rejects = 0, 0, [empty_rejects()]
    for read, valid, batch_rejects in iter_validated(path, spec, options):
        rows_read += read
        rows_valid += len(valid)
        rejects.append(batch_rejects)
    return ValidationSummary(rows_read, rows_valid, pd.concat(rejects, ignore_index=True))


def rejected_rows(rejects: pd.DataFrame) -> int:
    """Distinct rows among rejects (a row with two bad cells counts once)."""
    if rejects.empty:
        return 0
    return int(rejects[["file", "sheet", "row"]].drop_duplicates().shape[0])


class LoadApi(BulkApi, ReferenceApi, Protocol):
    """Everything a load asks of the service (``EmissionsClient`` provides it)."""

    def get_json(self, path: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]: ...


def load_file(
    path: Path,
    *,
    api: LoadApi,
    warehouse: Warehouse,
    spec: ResourceSpec = WASTES,
    options: LoadOptions | None = None,
    progress: ProgressCallback | None = None,
) -> LoadSummary:
    """Load one file into the service and the warehouse; returns what happened to its rows.

    Raises StrictModeError when ``options.strict`` and a row is rejected (nothing is sent
    then, and the rejects are kept), and the typed errors of the reader, client and
    warehouse; the run row records the failure either way.
    """
    options = options or LoadOptions()
    notify = progress or (lambda stage, rows: None)
    clock = StageClock()
    with warehouse.writer() as writer:
        run_id = writer.start_run(spec.name, str(path), _parameters(path, options))
        summary = LoadSummary(run_id=run_id, resource=spec.name, source=str(path))
        try:
            uploader = Uploader(api, api.get_json, writer, spec, run_id, clock=clock)
            summary.rows_recovered = uploader.recover()
            lookups = fetch_waste_lookups(api)
            writer.land_facilities(_facility_frame(lookups))
            if options.strict:
                _check_strict(path, spec, options, lookups, writer, run_id)
            all_rejects = [summary.rejects]
            batches = clock.timed("read_validate", iter_validated(path, spec, options))
            for read, valid, rejects in batches:
                all_rejects.append(
                    _load_batch(valid, rejects, lookups, writer, uploader, summary, clock, options)
                )
                summary.rows_read += read
                notify("load", read)
            summary.rejects = pd.concat(all_rejects, ignore_index=True)
            summary.seconds = dict(clock.seconds)
            summary.rows_rejected = rejected_rows(summary.rejects)
            summary.outcome = _outcome(summary, options)
            writer.finish_run(
                run_id, outcome=summary.outcome, counts=summary.counts(), co2e_kg=summary.co2e_kg
            )
        except Exception as error:
            summary.outcome = "failed"
            writer.finish_run(
                run_id,
                outcome="failed",
                counts=summary.counts(),
                co2e_kg=summary.co2e_kg,
                error=f"{type(error).__name__}: {error}",
            )
            raise
    return summary


def _load_batch(
    valid: pd.DataFrame,
    rejects: pd.DataFrame,
    lookups: WasteLookups,
    writer: WarehouseWriter,
    uploader: Uploader,
    summary: LoadSummary,
    clock: StageClock,
    options: LoadOptions,
) -> pd.DataFrame:
    """Resolve, diff, send and land one batch; adds to ``summary`` and returns its rejects."""
    spec = uploader.spec
    with clock.stage("resolve"):
        records, unresolved = _resolve(valid, lookups)
    with clock.stage("land"):
        writer.land_source_rows(summary.run_id, spec.name, _source_rows(valid, spec))
        known = writer.mapping(spec.name, records[spec.key_field].tolist())
        plan = plan_changes(records, known, spec.key_field)
    summary.rows_unchanged += plan.unchanged
    if options.dry_run:
        result = uploader.validate_remotely(plan.to_send)
    else:
        summary.rows_deleted += uploader.delete_stale(plan.stale)
        result = uploader.create(plan.to_send)
    summary.rows_sent += result.sent
    summary.rows_loaded += result.loaded
    summary.rows_failed += result.failed
    summary.co2e_kg += result.co2e_kg
    summary.job_ids += [str(job["id"]) for job in result.jobs]
    batch_rejects = pd.concat([rejects, unresolved, *result.rejects], ignore_index=True)
    writer.land_rejects(summary.run_id, spec.name, batch_rejects)
    return batch_rejects


def _check_strict(
    path: Path,
    spec: ResourceSpec,
    options: LoadOptions,
    lookups: WasteLookups,
    writer: WarehouseWriter,
    run_id: str,
) -> None:
    """A pass that validates and resolves without sending, so strict mode sends nothing when
    any row is bad; the rejects it finds are kept for the person who fixes the file."""
    found = [empty_rejects()]
    for _read, valid, rejects in iter_validated(path, spec, options):
        found += [rejects, _resolve(valid, lookups)[1]]
    all_rejects = pd.concat(found, ignore_index=True)
    if not all_rejects.empty:
        writer.land_rejects(run_id, spec.name, all_rejects)
        raise StrictModeError(rejected_rows(all_rejects))


def _resolve(valid: pd.DataFrame, lookups: WasteLookups) -> tuple[pd.DataFrame, pd.DataFrame]:
    result = resolve_wastes(
        valid, facilities=lookups.facilities, waste_efs=lookups.waste_efs, units=lookups.units
    )
    return result.records, result.rejects


def _source_rows(valid: pd.DataFrame, spec: ResourceSpec) -> pd.DataFrame:
    """Valid rows as the person wrote them (canonical columns), keyed for the warehouse."""
    return valid.assign(source_key=valid[spec.key_field])


def _facility_frame(lookups: WasteLookups) -> pd.DataFrame:
    rows = [{**row, "facility_id": row["id"]} for row in lookups.facility_rows]
    return pd.DataFrame(rows, columns=["facility_id", "name", "country", "type", "status"])


def _outcome(summary: LoadSummary, options: LoadOptions) -> str:
    if options.dry_run:
        return "dry_run"
    if summary.rows_rejected or summary.rows_failed:
        return "partial"
    return "succeeded"


def _parameters(path: Path, options: LoadOptions) -> dict[str, Any]:
    return {"path": str(path), **asdict(options)}
