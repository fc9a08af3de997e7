"""Write strategies: how records reach the service, one implementation per kind of endpoint.

``IngestJobBulk`` (v2 bulk + ingest job), ``PerRecordBulk`` (v1 bulk with per-record results)
and ``SingleCreate`` (one request per record). Each writer has ``write(plan, dry_run=...)``,
``finish()``, ``close()`` and ``recover()``; ``writer_for`` picks it from the resource's
declaration.
"""

from __future__ import annotations

from typing import Protocol

from emissions_etl.loading.writing._context import (
    ChangePlan,
    WriteContext,
    plan_changes,
)
from emissions_etl.loading.writing.bulk_results import BulkResultsWriter
from emissions_etl.loading.writing.ingest_jobs import IngestJobWriter
from emissions_etl.loading.writing.results import WriteResult
from emissions_etl.loading.writing.single_records import SingleRecordWriter
from emissions_etl.resources import IngestJobBulk, PerRecordBulk, SingleCreate
from emissions_etl.webhooks.completion import JobCompletion


class Writer(Protocol):
    """What the loader asks of a write strategy. ``write`` may leave work in flight (ingest
    jobs still calculating); ``finish`` completes it, ``close`` abandons it after a failure
    (the next run recovers it); ``delete`` removes records by id through the interface's
    delete operation (one already gone counts as deleted)."""

    def write(self, plan: ChangePlan, *, dry_run: bool = False) -> WriteResult: ...

    def delete(self, ids: list[str]) -> int: ...

    def finish(self) -> WriteResult: ...

    def close(self) -> None: ...

    def recover(self) -> int: ...


def writer_for(context: WriteContext) -> Writer:
    """The writer of ``context.spec``'s write strategy."""
    strategy = context.spec.write
    if isinstance(strategy, IngestJobBulk):
        return IngestJobWriter(context, strategy)
    if isinstance(strategy, PerRecordBulk):
        return BulkResultsWriter(context, strategy)
    if isinstance(strategy, SingleCreate):
        return SingleRecordWriter(context, strategy)
    raise TypeError(f"no writer for {type(strategy).__name__}")


__all__ = [
    "ChangePlan",
    "JobCompletion",
    "WriteContext",
    "WriteResult",
    "Writer",
    "plan_changes",
    "writer_for",
]
