"""One file of one resource, end to end: read -> validate -> resolve -> write -> read back ->
land, as a recorded load run. Written once; a ``ResourceSpec`` says what varies.

Batches stream through so memory stays bounded by the batch size, not the file size. Every input
row ends either loaded (mapped to its remote id) or rejected with a reason; the run row in the
warehouse says which, with counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from emissions_etl.domain.references import ListingApi, References, fetch_references
from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.domain.row_keys import ContentKeys
from emissions_etl.errors import EmptySourceError, StrictModeError
from emissions_etl.loading.file_plan import SheetFate
from emissions_etl.loading.inbox import source_of_folder
from emissions_etl.loading.mirror import MirrorRequest, finish_interrupted_mirrors, mirror_source
from emissions_etl.loading.ports import LoadWarehouse, WritableWarehouse
from emissions_etl.loading.prefetch import prefetched
from emissions_etl.loading.readback import read_records, remote_frame
from emissions_etl.loading.reconcile import Reconciler
from emissions_etl.loading.stages import StageClock
from emissions_etl.loading.validation import validate_batch
from emissions_etl.loading.writing import (
    JobCompletion,
    WriteContext,
    Writer,
    WriteResult,
    plan_changes,
    writer_for,
)
from emissions_etl.loading.writing._context import WriteApi
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.profiles.reading import read_batches
from emissions_etl.resources import ResourceSpec
from emissions_etl.webhooks.completion import PollingCompletion

#: Called as work advances: (stage, rows just processed); stages "read", "sent", "calculated".
ProgressCallback = Callable[[str, int], None]


@dataclass(frozen=True)
class LoadOptions:
    """How to load one file; the same knobs the CLI and the flows expose."""

    sheet: str | None = None
    #: The sheets of a workbook to read, in this order, as one load (a workbook's plan gives
    #: each resource its sheets); empty: ``sheet``, else every sheet whose header fits.
    sheets: tuple[str, ...] = ()
    strict: bool = False
    dry_run: bool = False
    encoding: str | None = None
    delimiter: str | None = None
    #: Rows read, validated and sent together. Batches overlap (one is read while the jobs of
    #: the one before calculate), so small ones start sending sooner and hold less memory.
    batch_rows: int = 25_000
    #: Seconds to wait for records the service calculates later (the next run reads the rest).
    settle_seconds: float = 60.0
    #: Export profile the file is read through (``emissions-etl profiles``); None: the
    #: resource's own columns, else its profile whose required headers the file has.
    profile: str | None = None
    #: The user's tables and defaults profiles use; None: the EMISSIONS_* settings.
    profile_inputs: ProfileInputs | None = None
    #: The data set the file is a version of: rows without a key are identified by their
    #: content within it, and ``mirror`` deletes what it no longer has. None: the file's name.
    source: str | None = None
    #: The file is the whole truth for its source: the records of rows it no longer has are
    #: deleted (guarded: see ``loading.mirror``).
    mirror: bool = False
    #: Let a mirror delete more than ``MASS_DELETE_SHARE`` of the source's records.
    allow_mass_delete: bool = False

    def for_sheets(self, sheets: tuple[str, ...]) -> LoadOptions:
        """These options reading ``sheets`` (the same options when none are given)."""
        return replace(self, sheets=sheets) if sheets else self


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
    rows_refreshed: int = 0
    #: Rows without a mapping whose record the service already held (found, not created).
    rows_adopted: int = 0
    #: Rows with no record yet (created; on a dry run: would be created).
    rows_new: int = 0
    #: Rows whose record differs from them (updated; on a dry run: would be updated).
    rows_changed: int = 0
    #: Records of the source whose rows the file no longer has (deleted with ``mirror``).
    rows_gone: int = 0
    #: Rows sent that the service refused (they are among the rejected).
    rows_refused: int = 0
    #: Rows sent whose record the service holds in a state that may not change (counted
    #: failed; the next run sends them again).
    rows_busy: int = 0
    #: Rows sent whose records had not landed when the run ended (ingest jobs the service had
    #: not finished): the next run lands them. Sent = loaded + refused + busy + not landed.
    rows_not_landed: int = 0
    #: co2e of the records this run created or updated (as stored on the run row).
    co2e_kg: float = 0.0
    #: co2e the records of the file's rows hold in the service once the run ended (unchanged
    #: ones too); None for resources whose co2e sums other records'.
    co2e_in_service_kg: float | None = None
    #: The resource's co2e is the sum of other records' (``resources.aggregate_resources``):
    #: never added to a total.
    is_aggregate: bool = False
    job_ids: list[str] = field(default_factory=list)
    rejects: pd.DataFrame = field(default_factory=lambda: empty_rejects())
    #: Wall-clock seconds per stage: read_validate, resolve, reconcile, upload, calculate,
    #: land, mirror.
    seconds: dict[str, float] = field(default_factory=dict)
    #: The data set the rows belong to (``LoadOptions.source`` or the file's name).
    source_name: str = ""
    #: What a person should know about the run beyond its counts (one line each).
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """The integer counters, as stored on the run row."""
        return {k: v for k, v in asdict(self).items() if k.startswith("rows_")}

    @property
    def co2e_loaded_kg(self) -> float | None:
        """co2e of the activity records this run created or updated; None for a resource
        whose co2e sums other records' (it would count them twice)."""
        return None if self.is_aggregate else self.co2e_kg


@dataclass
class ValidationSummary:
    """Offline verdict on a file: how many rows, and the rejects."""

    rows_read: int
    rows_valid: int
    rejects: pd.DataFrame
    #: Rows read and valid per sheet ("" for a csv), in reading order.
    read_by_sheet: Counter[str] = field(default_factory=Counter)
    valid_by_sheet: Counter[str] = field(default_factory=Counter)


class LoadApi(WriteApi, ListingApi, Protocol):
    """Everything a load asks of the service (``EmissionsClient`` provides it)."""


def source_name(path: Path, options: LoadOptions) -> str:
    """The data set ``path`` is a version of: ``options.source``, else the source its folder
    names (``inbox/<resource>/<source>/``), else the file's name."""
    return options.source or source_of_folder(path) or path.name


def iter_validated(
    path: Path, spec: ResourceSpec, options: LoadOptions
) -> Iterator[tuple[int, pd.DataFrame, pd.DataFrame]]:
    """(rows read, valid rows, rejects) per batch; a key repeated across batches is rejected;
    rows without a key are numbered by content across the whole file: across every sheet of
    ``options.sheets``, read one after the other (a batch never spans two sheets)."""
    seen: set[str] = set()
    content_keys = ContentKeys(source_name(path, options))
    for batch, left_out in _read_sheets(path, spec, options):
        result = validate_batch(batch, spec, content_keys)
        valid, rejects = result.valid, pd.concat([left_out, result.rejects], ignore_index=True)
        keys = valid["source_key"].astype(str).tolist()
        # Looked up one by one: Series.isin(set) converts the whole set on every batch, which
        # grew with the file (7 s of a 200,000-row load).
        repeated = np.fromiter((key in seen for key in keys), dtype=bool, count=len(keys))
        if repeated.any():
            rejects = pd.concat([rejects, _repeated_rejects(valid[repeated], spec)])
            valid = valid[~repeated]
        seen.update(valid["source_key"].astype(str))
        yield len(batch) + rejected_rows(left_out), valid, rejects


def _read_sheets(
    path: Path, spec: ResourceSpec, options: LoadOptions
) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """``read_batches`` of each sheet of ``options.sheets`` in turn (each read as the only
    sheet: its own header, its own profile), or of the file as ``options.sheet`` says."""
    if not options.sheets:
        yield from read_batches(path, spec, options)
        return
    for sheet in options.sheets:
        yield from read_batches(path, spec, replace(options, sheet=sheet, sheets=()))


def _repeated_rejects(rows: pd.DataFrame, spec: ResourceSpec) -> pd.DataFrame:
    column = spec.natural_key[0] if spec.natural_key else "client_row_id"
    keys = rows["source_key"].astype(str)
    return make_rejects(
        rows,
        column=rows.attrs.get("headers", {}).get(column, column),
        value=keys,
        code=RejectCode.DUPLICATE_ROW_ID,
        message="'" + keys + "' is already used by an earlier row of the file; "
        "give each row its own.",
    )


def validate_file(
    path: Path, *, spec: ResourceSpec, options: LoadOptions | None = None
) -> ValidationSummary:
    """Read and validate a file without the service (``emissions-etl validate``)."""
    options = options or LoadOptions()
    summary = ValidationSummary(0, 0, empty_rejects())
    rejects = [summary.rejects]
    for read, valid, batch_rejects in iter_validated(path, spec, options):
        summary.rows_read += read
        summary.rows_valid += len(valid)
        rejects.append(batch_rejects)
        # A batch is rows of one sheet: its valid rows or its rejects say which.
        sheet = next(iter([*valid["_sheet"].head(1), *batch_rejects["sheet"].head(1)]), "")
        summary.read_by_sheet[str(sheet)] += read
        summary.valid_by_sheet[str(sheet)] += len(valid)
    summary.rejects = pd.concat(rejects, ignore_index=True)
    return summary


def rejected_rows(rejects: pd.DataFrame) -> int:
    """Distinct rows among rejects (a row with two bad cells counts once)."""
    if rejects.empty:
        return 0
    return int(rejects[["file", "sheet", "row"]].drop_duplicates().shape[0])


def load_file(
    path: Path,
    *,
    api: LoadApi,
    warehouse: WritableWarehouse,
    spec: ResourceSpec,
    options: LoadOptions | None = None,
    progress: ProgressCallback | None = None,
    completion: JobCompletion | None = None,
    workbook: Sequence[SheetFate] = (),
) -> LoadSummary:
    """Load one file into the service and the warehouse; returns what happened to its rows.

    ``workbook``: where each sheet of the workbook went (a resource, or why it was not
    loaded), recorded on the run so the warehouse tells of the sheets no run read.

    Raises StrictModeError when ``options.strict`` and a row is rejected (nothing is sent
    then, and the rejects are kept), and the typed errors of the reader, client and
    warehouse; the run row records the failure either way.
    """
    options = options or LoadOptions()
    notify = progress or (lambda stage, rows: None)
    clock = StageClock()
    name = source_name(path, options)
    with warehouse.writer() as writer:
        writer.runs.mark_interrupted_runs()
        run_id = writer.runs.start_run(
            spec.name, str(path), _parameters(path, options, workbook), source_name=name
        )
        summary = LoadSummary(run_id=run_id, resource=spec.name, source=str(path), source_name=name)
        try:
            context = WriteContext(
                api=api,
                writer=writer,
                spec=spec,
                run_id=run_id,
                clock=clock,
                completion=completion or PollingCompletion(api),
                settle_seconds=options.settle_seconds,
                notify=notify,
                source_name=name,
            )
            strategy = writer_for(context)
            reconciler = Reconciler(context, dry_run=options.dry_run)
            describe(writer, spec)
            with clock.stage("recover"):
                summary.rows_deleted += finish_interrupted_mirrors(writer, strategy, spec.name)
                summary.rows_recovered = strategy.recover()
                summary.rows_refreshed = refresh_unsettled(api, writer, spec)
            references = _references(api, writer, spec)
            if options.strict:
                _check_strict(path, spec, options, references, writer, run_id)
            all_rejects = [summary.rejects]
            try:
                batches = prefetched(iter_validated(path, spec, options), name="read-ahead")
                for read, valid, rejects in clock.timed("read_validate", batches):
                    notify("read", read)
                    result = _load_batch(
                        valid, references, context, summary, options, strategy, reconciler
                    )
                    all_rejects += [rejects, *result.rejects]
                    writer.runs.land_rejects(
                        run_id, spec.name, pd.concat([rejects, *result.rejects])
                    )
                    summary.rows_read += read
                _add(summary, strategy.finish())
            finally:
                strategy.close()
            if summary.rows_read == 0:
                raise EmptySourceError(str(path), "no data rows under the header")
            summary.rejects = pd.concat(all_rejects, ignore_index=True)
            summary.rows_rejected = rejected_rows(summary.rejects)
            with clock.stage("mirror"):
                mirrored = mirror_source(
                    writer,
                    strategy,
                    MirrorRequest(
                        path=str(path),
                        resource=spec.name,
                        source_name=name,
                        run_id=run_id,
                        rows_rejected=summary.rows_rejected,
                        mirror=options.mirror,
                        allow_mass_delete=options.allow_mass_delete,
                        dry_run=options.dry_run,
                        sheets_refused=tuple(fate.sheet for fate in workbook if fate.refused),
                    ),
                )
            summary.rows_gone, summary.notes = mirrored.gone, summary.notes + mirrored.notes
            summary.rows_deleted += mirrored.deleted
            _close_counts(summary, spec, writer)
            summary.seconds = dict(clock.seconds)
            summary.outcome = _outcome(summary, options)
            writer.runs.finish_run(
                run_id, outcome=summary.outcome, counts=summary.counts(), co2e_kg=summary.co2e_kg
            )
        except Exception as error:
            summary.outcome = "failed"
            writer.runs.finish_run(
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
    references: References,
    context: WriteContext,
    summary: LoadSummary,
    options: LoadOptions,
    strategy: Writer,
    reconciler: Reconciler,
) -> WriteResult:
    """Resolve, plan (with what the service already holds) and send one batch (what is still
    calculating lands later, by ``strategy.finish``); adds to ``summary``."""
    spec, writer, clock = context.spec, context.writer, context.clock
    with clock.stage("resolve"):
        records, unresolved = spec.to_records(valid, references)
        records.attrs["headers"] = valid.attrs.get("headers", {})
    with clock.stage("land"):
        writer.runs.land_source_rows(
            summary.run_id, spec.name, valid, source_name=summary.source_name
        )
        known = writer.mappings.mapping(spec.name, records["source_key"].tolist())
        # Rows now of this source (a vehicle in another fleet list before): only those written.
        moved = known["source_name"].ne(summary.source_name) | known["source_name"].isna()
        keys = known.loc[moved, "source_key"].tolist()
        writer.mappings.touch_mapping(spec.name, keys, summary.source_name)
        plan = plan_changes(records, known)
        plan.new.attrs = plan.changed.attrs = records.attrs
    with clock.stage("reconcile"):
        found = reconciler.reconcile(plan, known.loc[known["source_hash"] == "", "remote_id"])
    plan = found.plan
    summary.rows_adopted += found.adopted
    summary.notes += found.notes
    summary.rows_unchanged += plan.unchanged
    summary.rows_new += len(plan.new)
    summary.rows_changed += len(plan.changed)
    result = strategy.write(plan, dry_run=options.dry_run)
    result.rejects.insert(0, unresolved)
    _add(summary, result)
    return result


def _add(summary: LoadSummary, result: WriteResult) -> None:
    summary.rows_sent += result.sent
    summary.rows_loaded += result.loaded
    summary.rows_failed += result.failed
    summary.rows_deleted += result.deleted
    summary.rows_refused += result.refused
    summary.rows_busy += result.busy
    summary.co2e_kg += result.co2e_kg
    summary.job_ids += [str(job["id"]) for job in result.jobs]


def _close_counts(summary: LoadSummary, spec: ResourceSpec, writer: LoadWarehouse) -> None:
    """What the counts leave to deduce: rows sent but not landed, and the co2e the file's
    records hold in the service (activity records only)."""
    accounted = summary.rows_loaded + summary.rows_refused + summary.rows_busy
    summary.rows_not_landed = max(summary.rows_sent - accounted, 0)
    summary.is_aggregate = spec.readback.is_aggregate
    if not summary.is_aggregate:
        summary.co2e_in_service_kg = writer.runs.co2e_of_run_rows(spec.name, summary.run_id)


def refresh_unsettled(api: LoadApi, writer: LoadWarehouse, spec: ResourceSpec) -> int:
    """Read again the records earlier runs landed before the service had calculated them."""
    stale = writer.records.unsettled_records(spec.name, sorted(spec.readback.unsettled))
    if stale.empty:
        return 0
    keys = dict(zip(stale["remote_id"], stale["source_key"], strict=True))
    fresh = remote_frame(read_records(api, spec.readback, stale), spec, keys)
    writer.records.land_remote_records(spec.name, fresh)
    return len(fresh)


def refresh_aggregates(api: LoadApi, warehouse: WritableWarehouse) -> int:
    """Read again every record whose co2e sums other records' (a facility's wastes, a vehicle's
    consumptions): loaded before their children, they would keep the co2e of that moment."""
    from emissions_etl.resources import RESOURCES

    refreshed = 0
    with warehouse.writer() as writer:
        for spec in RESOURCES.values():
            if not spec.readback.is_aggregate:
                continue
            landed = writer.records.landed_records(spec.name)
            if landed.empty:
                continue
            keys = dict(zip(landed["remote_id"], landed["source_key"], strict=True))
            fresh = remote_frame(read_records(api, spec.readback, landed), spec, keys)
            writer.records.land_remote_records(spec.name, fresh)
            refreshed += len(fresh)
    return refreshed


def _references(api: LoadApi, writer: LoadWarehouse, spec: ResourceSpec) -> References:
    references = fetch_references(api, spec.lookups)
    for table in references.values():
        if table.spec.directory:
            rows = [{**item, "facility_id": item["id"]} for item in table.items]
            writer.records.land_facilities(
                pd.DataFrame(rows, columns=["facility_id", "name", "country", "type", "status"])
            )
    return references


def describe(writer: LoadWarehouse, spec: ResourceSpec) -> None:
    """Record what the resource's co2e means and (re)create its analyst view."""
    writer.catalog.describe_resource(
        spec.name, is_aggregate=spec.readback.is_aggregate, description=spec.description
    )
    writer.catalog.create_resource_view(
        spec.name, [(c.name, c.sql_type, c.path or f"$.{c.name}") for c in spec.view_columns]
    )
    writer.inventory.declare_inventory_rule(spec.name, spec.inventory)


def _check_strict(
    path: Path,
    spec: ResourceSpec,
    options: LoadOptions,
    references: References,
    writer: LoadWarehouse,
    run_id: str,
) -> None:
    """A pass that validates and resolves without sending, so strict mode sends nothing when
    any row is bad; the rejects it finds are kept for the person who fixes the file."""
    found = [empty_rejects()]
    for _read, valid, rejects in iter_validated(path, spec, options):
        found += [rejects, spec.to_records(valid, references)[1]]
    all_rejects = pd.concat(found, ignore_index=True)
    if not all_rejects.empty:
        writer.runs.land_rejects(run_id, spec.name, all_rejects)
        raise StrictModeError(rejected_rows(all_rejects), rejects=all_rejects)


def _outcome(summary: LoadSummary, options: LoadOptions) -> str:
    if options.dry_run:
        return "dry_run"
    if summary.rows_read and summary.rows_rejected >= summary.rows_read:
        return "rejected"
    if summary.rows_rejected or summary.rows_failed:
        return "partial"
    return "succeeded"


def _parameters(
    path: Path, options: LoadOptions, workbook: Sequence[SheetFate]
) -> Mapping[str, Any]:
    """The run's parameters: the options, and where each sheet of the workbook went."""
    parameters: dict[str, Any] = {"path": str(path), **asdict(options)}
    if workbook:
        parameters["workbook"] = [fate.record() for fate in workbook]
    return parameters
