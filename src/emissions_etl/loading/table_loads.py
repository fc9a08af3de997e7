"""A table source loaded (``load --from-sql``, a sources file, the nightly): the pipeline a file
goes through, its rows identified by source and key; a dry run plans on the warehouse's parts
that change nothing (``Warehouse.dry_run``), so it leaves no run, no state, no watermark.

Unchanged rows are not sent: each row's hash is compared with the one its record was sent with
(``remote_ids``), so a sync costs what changed. Changed rows update their record as the
interface allows for the resource (an update, or the record deleted and created again), as a
file's do; with ``mirror`` the source's records whose key the query no longer returns are
deleted, under a file's guard.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass

import pandas as pd

from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.loading.options import LoadOptions, ProgressCallback
from emissions_etl.loading.pipeline import LoadApi, LoadSummary, load_rows
from emissions_etl.loading.ports import LoadWarehouse, PlannableWarehouse, WritableWarehouse
from emissions_etl.loading.row_sources import TableRows
from emissions_etl.loading.validated import ValidationSummary
from emissions_etl.loading.writing import JobCompletion
from emissions_etl.resources import ResourceSpec, resource_spec
from emissions_etl.tables import TableSource


@dataclass(frozen=True)
class PlannedTable:
    """A table source ready to load: its definition and its resource's spec."""

    source: TableSource
    spec: ResourceSpec

    @classmethod
    def of(cls, source: TableSource) -> PlannedTable:
        """``source`` with its resource's spec (ValueError for an unknown resource)."""
        return cls(source, resource_spec(source.resource))

    @property
    def label(self) -> str:
        return self.source.source_name


@dataclass(frozen=True)
class _Planning:
    """A warehouse whose writer is its dry run: what ``load_rows`` writes into changes nothing."""

    warehouse: PlannableWarehouse

    def writer(self) -> AbstractContextManager[LoadWarehouse]:
        return self.warehouse.dry_run()


def load_table(
    source: TableSource,
    *,
    api: LoadApi,
    warehouse: PlannableWarehouse,
    spec: ResourceSpec,
    options: LoadOptions,
    progress: ProgressCallback | None = None,
    completion: JobCompletion | None = None,
) -> LoadSummary:
    """Load ``source``'s rows as ``spec``'s records; with ``options.dry_run``, say what would
    be created, updated and deleted, and change nothing."""
    target: WritableWarehouse = _Planning(warehouse) if options.dry_run else warehouse
    return load_rows(TableRows(source, spec, options), api=api, warehouse=target, spec=spec,
                     options=options, progress=progress, completion=completion)  # fmt: skip


def validate_table(
    source: TableSource, *, spec: ResourceSpec, options: LoadOptions | None = None
) -> ValidationSummary:
    """Read and validate a table source without the service (``validate --from-sql``)."""
    summary = ValidationSummary(0, 0, empty_rejects())
    found = [summary.rejects]
    for read, valid, rejects in TableRows(source, spec, options or LoadOptions()).validated():
        summary.rows_read += read
        summary.rows_valid += len(valid)
        found.append(rejects)
    summary.rejects = pd.concat(found, ignore_index=True)
    summary.read_by_sheet[""] = summary.rows_read
    summary.valid_by_sheet[""] = summary.rows_valid
    return summary


__all__ = ["PlannedTable", "load_table", "validate_table"]
