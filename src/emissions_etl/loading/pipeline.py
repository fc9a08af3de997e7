"""One file of one resource, end to end: read -> validate -> resolve -> write -> read back ->
land, as a recorded load run. Written once; a ``ResourceSpec`` says what varies.

Batches stream through so memory stays bounded by the batch size, not the file size. Every input
row ends either loaded (mapped to its remote id) or rejected with a reason; the run row in the
warehouse says which, with counts. The stages are modules of their own: ``options``,
``preparation`` (the resource described, its references), ``refresh``, ``validated`` (read and
validate), ``batch`` (resolve, plan, reconcile, write), ``mirror`` and ``summary``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pandas as pd

from emissions_etl.domain.references import ListingApi
from emissions_etl.errors import EmptySourceError
from emissions_etl.loading.batch import load_batch
from emissions_etl.loading.file_plan import SheetFate
from emissions_etl.loading.mirror import MirrorRequest, finish_interrupted_mirrors, mirror_source
from emissions_etl.loading.options import LoadOptions, ProgressCallback, source_name
from emissions_etl.loading.ports import RunLog, WritableWarehouse
from emissions_etl.loading.prefetch import prefetched
from emissions_etl.loading.preparation import describe, references_of
from emissions_etl.loading.reconcile import Reconciler
from emissions_etl.loading.refresh import refresh_aggregates, refresh_unsettled
from emissions_etl.loading.row_sources import FileRows, RowSource
from emissions_etl.loading.run_keys import source_for_content
from emissions_etl.loading.stages import StageClock
from emissions_etl.loading.summary import LoadSummary, add_written, close_counts, outcome_of
from emissions_etl.loading.validated import (
    ValidationSummary,
    check_strict,
    iter_validated,
    rejected_rows,
    validate_file,
)
from emissions_etl.loading.writing import JobCompletion, WriteContext, Writer, writer_for
from emissions_etl.loading.writing._context import WriteApi
from emissions_etl.resources import ResourceSpec
from emissions_etl.storage import AnyPath
from emissions_etl.webhooks.completion import PollingCompletion


class LoadApi(WriteApi, ListingApi, Protocol):
    """Everything a load asks of the service (``EmissionsClient`` provides it)."""


def load_file(
    path: AnyPath,
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
    rows = FileRows(path, spec, options, workbook)
    return load_rows(rows, api=api, warehouse=warehouse, spec=spec, options=options,
                     progress=progress, completion=completion)  # fmt: skip


def load_rows(
    rows: RowSource,
    *,
    api: LoadApi,
    warehouse: WritableWarehouse,
    spec: ResourceSpec,
    options: LoadOptions,
    progress: ProgressCallback | None = None,
    completion: JobCompletion | None = None,
) -> LoadSummary:
    """Load the rows of a file or a table source (``load_file``, ``table_loads``) as one
    recorded run; what ``load_file`` says of a file holds of any."""
    clock = StageClock()
    digest = rows.digest()  # the document behind the figures, before the writer's turn
    with warehouse.writer() as writer:
        writer.runs.mark_interrupted_runs()
        rows, summary = _started_run(rows, digest, writer.runs, spec, options)
        try:
            context = WriteContext(
                api=api,
                writer=writer,
                spec=spec,
                run_id=summary.run_id,
                clock=clock,
                completion=completion or PollingCompletion(api),
                settle_seconds=options.settle_seconds,
                notify=progress or (lambda stage, count: None),
                source_name=rows.name,
            )
            strategy = writer_for(context)
            _recover(context, strategy, summary)
            _send_every_batch(rows, context, strategy, summary, options)
            _mirror(rows, context, strategy, summary, options)
            close_counts(summary, spec, writer.runs)
            summary.seconds = dict(clock.seconds)
            summary.outcome = outcome_of(summary, options)
            writer.runs.finish_run(summary.run_id, outcome=summary.outcome,
                                   counts=summary.counts(), co2e_kg=summary.co2e_kg)  # fmt: skip
        except Exception as error:
            summary.outcome = "failed"
            writer.runs.finish_run(
                summary.run_id,
                outcome="failed",
                counts=summary.counts(),
                co2e_kg=summary.co2e_kg,
                error=f"{type(error).__name__}: {error}",
            )
            raise
    return summary


def _started_run(
    rows: RowSource, digest: str | None, runs: RunLog, spec: ResourceSpec, options: LoadOptions
) -> tuple[RowSource, LoadSummary]:
    """The run recorded for ``rows``, as the data set their content was first loaded as (a
    note says so when that is another), and its summary so far."""
    own = rows.name
    rows = _keyed_by_content(rows, digest, runs, spec, options)
    run_id = runs.start_run(
        spec.name, rows.location, rows.parameters(), source_name=rows.name, file_sha256=digest
    )
    summary = LoadSummary(
        run_id=run_id, resource=spec.name, source=rows.location, source_name=rows.name
    )
    if rows.name != own:
        summary.notes.append(
            f"its content was loaded before as the source {rows.name!r}: its rows are that "
            "source's, so none is counted twice"
        )
    return rows, summary


def _recover(context: WriteContext, strategy: Writer, summary: LoadSummary) -> None:
    """What an earlier run of the resource left half done: its mirror's deletions, its
    unsent writes, its records still calculating."""
    writer, spec = context.writer, context.spec
    describe(writer, spec)
    with context.clock.stage("recover"):
        summary.rows_deleted += finish_interrupted_mirrors(writer, strategy, spec.name)
        summary.rows_recovered = strategy.recover()
        summary.rows_refreshed = refresh_unsettled(context.api, writer.records, spec)


def _send_every_batch(
    rows: RowSource,
    context: WriteContext,
    strategy: Writer,
    summary: LoadSummary,
    options: LoadOptions,
) -> None:
    """Read, validate and send the rows batch by batch (nothing sent under ``strict`` when
    one is rejected), each batch's rejects landed as it goes; EmptySourceError for no row."""
    writer, spec, run_id = context.writer, context.spec, context.run_id
    references = references_of(context.api, writer.records, spec)
    if options.strict:
        check_strict(rows.validated(), spec, references, writer.runs, run_id)
    reconciler = Reconciler(context, dry_run=options.dry_run)
    all_rejects = [summary.rejects]
    try:
        batches = prefetched(rows.validated(), name="read-ahead")
        for read, valid, rejects in context.clock.timed("read_validate", batches):
            context.notify("read", read)
            result = load_batch(valid, references, context, summary, options, strategy,
                                reconciler)  # fmt: skip
            all_rejects += [rejects, *result.rejects]
            writer.runs.land_rejects(run_id, spec.name, pd.concat([rejects, *result.rejects]))
            summary.rows_read += read
        add_written(summary, strategy.finish())
    finally:
        strategy.close()
    if summary.rows_read == 0:
        raise EmptySourceError(rows.location, rows.empty_reason)
    summary.rejects = pd.concat(all_rejects, ignore_index=True)
    summary.rows_rejected = rejected_rows(summary.rejects)


def _mirror(
    rows: RowSource,
    context: WriteContext,
    strategy: Writer,
    summary: LoadSummary,
    options: LoadOptions,
) -> None:
    """Under ``mirror``, delete the source's records its rows no longer have (``mirror``)."""
    with context.clock.stage("mirror"):
        mirrored = mirror_source(
            context.writer,
            strategy,
            MirrorRequest(
                path=rows.location,
                resource=context.spec.name,
                source_name=rows.name,
                run_id=context.run_id,
                rows_rejected=summary.rows_rejected,
                mirror=options.mirror,
                allow_mass_delete=options.allow_mass_delete,
                dry_run=options.dry_run,
                sheets_refused=rows.sheets_refused,
                holder=rows.holder,
            ),
        )
    summary.rows_gone, summary.notes = mirrored.gone, summary.notes + mirrored.notes
    summary.rows_deleted += mirrored.deleted


def _keyed_by_content(
    rows: RowSource, digest: str | None, runs: RunLog, spec: ResourceSpec, options: LoadOptions
) -> RowSource:
    """``rows`` as the data set their content was first loaded as; AlreadyLoadedError when
    their content is not to be loaded again (``run_keys``). Under the writer's turn, so two
    loads of one content at once are one load."""
    if digest is None or options.source is not None:  # a source given is the person's word
        return rows
    known = runs.content_runs(spec.name, digest, rows.name)
    name = source_for_content(known, digest=digest, name=rows.name, once=options.content_once)
    return rows if name == rows.name else rows.as_source(name)


__all__ = [
    "LoadApi",
    "LoadOptions",
    "LoadSummary",
    "ProgressCallback",
    "ValidationSummary",
    "describe",
    "iter_validated",
    "load_file",
    "load_rows",
    "refresh_aggregates",
    "refresh_unsettled",
    "rejected_rows",
    "source_name",
    "validate_file",
]
