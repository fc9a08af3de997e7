"""One set of numbers for a load, worded once: the flow's log lines and end state, the summary
artifact and the command line's table all say them with these words.

Rows: every row read ends rejected, unchanged, loaded, or (rarely) sent but not landed yet:
``read = rejected + unchanged + loaded + busy + not landed``. *Failed* rows are those whose
record the service could not calculate (loaded with status error) or would not change (busy);
*failed* alone never counts files: a file that could not be loaded is a *failed file*.

co2e: of activity records only. The aggregate resources (``resources.aggregates_in_words``) carry
the sum of other records' co2e, so theirs is never added (``LoadSummary.is_aggregate``). Two
figures sit side by side: the co2e of the records this run created or updated (*loaded*), and
the co2e the records of the files' rows hold in the service once the run ended (*in the
service*, unchanged rows included): an unchanged re-load loads 0 kg and still holds it all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emissions_etl.resources import aggregates_in_words

if TYPE_CHECKING:
    from emissions_etl.loading.file_loads import FileOutcome
    from emissions_etl.loading.pipeline import LoadSummary

#: Column names of the per-file figures, in the order every table shows them.
ROW_COLUMNS = ("read", "rejected", "unchanged", "loaded", "failed")
CO2E_COLUMNS = ("co2e loaded (kg)", "co2e in the service (kg)")
#: What a load's co2e is beside the GHG inventory: never its one total (which leaves out what
#: no scope holds, such as own-fleet legs, and follows the consolidation approach).
NOT_THE_TOTAL = (
    "activity co2e, in the GHG inventory or not: not the inventory's total "
    "(emissions-etl inventory)"
)
#: What each name means, for the legend under a table.
LEGEND = (
    "read: data rows in the file; rejected: rows not loaded, with their cells in the rejects; "
    "unchanged: rows whose record already stands as they say; loaded: rows whose record this "
    "run created or updated; failed: rows whose record the service could not calculate or "
    f"would not change now. co2e of activity records only ({aggregates_in_words()} carry sums "
    "of other records: not added): loaded by this run, and held in the service by the records "
    f"of the file's rows; {NOT_THE_TOTAL}."
)


@dataclass(frozen=True)
class Figures:
    """The numbers of one file or of a whole run (files with a summary)."""

    files: int = 0
    files_failed: int = 0
    #: Sheets of workbooks not loaded because they hold no resource (notes, a summary).
    sheets_skipped: int = 0
    #: Files (or a workbook's sheets of one resource) whose content was loaded before.
    files_already_loaded: int = 0
    rows_read: int = 0
    rows_rejected: int = 0
    rows_unchanged: int = 0
    rows_loaded: int = 0
    rows_failed: int = 0
    co2e_loaded_kg: float = 0.0
    co2e_in_service_kg: float = 0.0

    @classmethod
    def of(cls, outcomes: Sequence[FileOutcome]) -> Figures:
        """The run's figures: sums over its files (a workbook loaded sheet by sheet is one
        file; a table source counts as one), co2e over activity files only."""
        done = [o.summary for o in outcomes if o.summary is not None]
        return cls(
            files=len({o.origin for o in outcomes}),
            files_failed=len({o.origin for o in outcomes if o.outcome == "failed"}),
            sheets_skipped=sum(bool(o.skipped) and not o.already_loaded for o in outcomes),
            files_already_loaded=sum(o.already_loaded for o in outcomes),
            rows_read=sum(s.rows_read for s in done),
            rows_rejected=sum(s.rows_rejected for s in done),
            rows_unchanged=sum(s.rows_unchanged for s in done),
            rows_loaded=sum(s.rows_loaded for s in done),
            rows_failed=sum(s.rows_failed for s in done),
            co2e_loaded_kg=sum(s.co2e_loaded_kg or 0.0 for s in done),
            co2e_in_service_kg=sum(s.co2e_in_service_kg or 0.0 for s in done),
        )

    @property
    def rows_in_service(self) -> int:
        """Rows whose record stands in the service after the run."""
        return self.rows_loaded + self.rows_unchanged

    def rows_text(self) -> str:
        """``read 100, rejected 5, unchanged 10, loaded 85, failed 2``."""
        values = (self.rows_read, self.rows_rejected, self.rows_unchanged, self.rows_loaded,
                  self.rows_failed)  # fmt: skip
        named = zip(ROW_COLUMNS, values, strict=True)
        return ", ".join(f"{name} {value:,}" for name, value in named)

    def co2e_text(self) -> str:
        """``co2e 12.3 kg loaded by this run, 4,567.8 kg in the service for these rows``."""
        return (
            f"co2e {kg(self.co2e_loaded_kg)} kg loaded by this run, "
            f"{kg(self.co2e_in_service_kg)} kg in the service for these rows"
        )

    def files_text(self) -> str:
        """``3 files, 1 failed`` (``1 file``; ``, 2 sheets not loaded`` when sheets were
        skipped; ``, 1 already loaded`` when a file's content was loaded before)."""
        files = f"{self.files:,} file{'' if self.files == 1 else 's'}"
        if self.files_failed:
            files += f", {self.files_failed:,} failed"
        if self.sheets_skipped:
            plural = "" if self.sheets_skipped == 1 else "s"
            files += f", {self.sheets_skipped:,} sheet{plural} not loaded"
        if self.files_already_loaded:
            files += f", {self.files_already_loaded:,} already loaded"
        return files


def file_line(outcome: FileOutcome) -> str:
    """One line for a file: its outcome, its figures, its co2e, and what sent and loaded
    leave unexplained; or the reason it failed."""
    s = outcome.summary
    head = f"{outcome.label} ({outcome.resource})"
    if outcome.skipped:
        return f"{outcome.label}: {outcome.skipped}"
    if s is None:
        return f"{head}: {outcome.outcome} {outcome.reason}"
    figures = Figures.of([outcome])
    parts = [f"{head}: {s.outcome}; rows {figures.rows_text()}", co2e_of(s)]
    sent = sent_explained(s)
    if sent:
        parts.append(sent)
    return "; ".join(parts)


def co2e_of(summary: LoadSummary) -> str:
    """The file's co2e in words (never a figure for a resource that sums others)."""
    if summary.is_aggregate:
        return "co2e not added (these records carry the sum of other records')"
    return Figures(
        co2e_loaded_kg=summary.co2e_loaded_kg or 0.0,
        co2e_in_service_kg=summary.co2e_in_service_kg or 0.0,
    ).co2e_text()


def sent_explained(summary: LoadSummary) -> str:
    """Where the rows sent went when they did not all load as calculated records; empty when
    every row sent loaded and calculated."""
    s = summary
    calculation_failed = max(s.rows_failed - s.rows_busy, 0)
    if s.rows_sent == s.rows_loaded and not s.rows_failed:
        return ""
    loaded = f"{s.rows_loaded:,} loaded"
    if calculation_failed:
        loaded += f" ({calculation_failed:,} of them not calculated: the service failed to)"
    parts = [loaded]
    if s.rows_refused:
        parts.append(f"{s.rows_refused:,} refused by the service (among the rejected)")
    if s.rows_busy:
        parts.append(
            f"{s.rows_busy:,} not changed (the service holds the record in a state that may not "
            "change; sent again by the next run)"
        )
    if s.rows_not_landed:
        parts.append(f"{s.rows_not_landed:,} still calculating (the next run lands them)")
    return f"sent {s.rows_sent:,}: " + ", ".join(parts)


def kg(value: float | None) -> str:
    """A co2e figure as every output prints it (empty when there is none)."""
    return "" if value is None else f"{value:,.1f}"


def count(value: int | None) -> str:
    """A count as every output prints it (empty when there is none)."""
    return "" if value is None else f"{value:,}"
