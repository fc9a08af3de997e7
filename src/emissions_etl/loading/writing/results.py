"""What writing a batch came to (``WriteResult``), and the records a writer lands as soon as the
service answered with them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from emissions_etl.json_values import JsonObject
from emissions_etl.loading.writing._context import WriteContext


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
    jobs: list[JsonObject] = field(default_factory=list)
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
