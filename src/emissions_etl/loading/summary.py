"""What happened to a file's rows in one run: the counts, the co2e and the outcome, as the run
row stores them and the CLI, the flows and the report show them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pandas as pd

from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.loading.options import LoadOptions
from emissions_etl.loading.ports import RunLog
from emissions_etl.loading.writing import WriteResult
from emissions_etl.resources import ResourceSpec


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


def add_written(summary: LoadSummary, result: WriteResult) -> None:
    """Count what a write strategy did (a batch sent, or what ``finish`` landed)."""
    summary.rows_sent += result.sent
    summary.rows_loaded += result.loaded
    summary.rows_failed += result.failed
    summary.rows_deleted += result.deleted
    summary.rows_refused += result.refused
    summary.rows_busy += result.busy
    summary.co2e_kg += result.co2e_kg
    summary.job_ids += [str(job["id"]) for job in result.jobs]


def close_counts(summary: LoadSummary, spec: ResourceSpec, runs: RunLog) -> None:
    """What the counts leave to deduce: rows sent but not landed, and the co2e the file's
    records hold in the service (activity records only)."""
    accounted = summary.rows_loaded + summary.rows_refused + summary.rows_busy
    summary.rows_not_landed = max(summary.rows_sent - accounted, 0)
    summary.is_aggregate = spec.readback.is_aggregate
    if not summary.is_aggregate:
        summary.co2e_in_service_kg = runs.co2e_of_run_rows(spec.name, summary.run_id)


def outcome_of(summary: LoadSummary, options: LoadOptions) -> str:
    """How the run ends: ``dry_run``, ``rejected`` (every row), ``partial`` or ``succeeded``."""
    if options.dry_run:
        return "dry_run"
    if summary.rows_read and summary.rows_rejected >= summary.rows_read:
        return "rejected"
    if summary.rows_rejected or summary.rows_failed:
        return "partial"
    return "succeeded"
