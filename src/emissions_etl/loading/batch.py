"""One batch of a file's valid rows: resolved to records, landed as source rows, planned
against what the warehouse maps and the service holds, and sent by the write strategy."""

from __future__ import annotations

import pandas as pd

from emissions_etl.domain.references import References
from emissions_etl.loading.options import LoadOptions
from emissions_etl.loading.reconcile import Reconciler
from emissions_etl.loading.summary import LoadSummary, add_written
from emissions_etl.loading.writing import WriteContext, Writer, WriteResult, plan_changes


def load_batch(
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
    add_written(summary, result)
    return result
