"""How far each load (or validation) is, as it goes: the rows it is expected to read (its total,
``sources.row_counts``) and what its stages did so far.

The engine's loops tell a ``ProgressCallback`` (a stage and the rows it just did) and nothing
else; a ``ProgressReporter`` gives each load, by its label, the callback that listens: the
terminal's bar, a line per stage, a Prefect run's line each tenth of the way (``TenthsLog``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from emissions_etl.loading.file_plan import PlannedFile, file_label
from emissions_etl.loading.options import ProgressCallback
from emissions_etl.sources.row_counts import expected_rows

if TYPE_CHECKING:
    from emissions_etl.storage import AnyPath

#: What the engine tells, in the order a row goes through them.
STAGES = ("read", "sent", "calculated")


class ProgressReporter(Protocol):
    """Gives each load (by its label: ``datos.xlsx sheet Flota``) the callback its stages
    tell; None when nothing listens."""

    def __call__(self, label: str) -> ProgressCallback | None: ...


def silent(label: str) -> ProgressCallback | None:
    """The reporter of a run nobody watches."""
    return None


@dataclass
class LoadProgress:
    """One load's figures so far, and the rows it is expected to read (None: not known).

    ``sends``: a load tells "read" as a batch starts and "sent" as its rows go, so its rows
    done are those of the batches before the last read, or the rows sent when more; a
    validation tells "read" once a batch is validated: its rows read are done."""

    label: str
    total: int | None
    sends: bool = True
    done: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STAGES, 0))
    _batches_done: int = 0

    def add(self, stage: str, rows: int) -> None:
        if stage == "read":
            self._batches_done = self.read
        self.done[stage] = self.done.get(stage, 0) + rows
        if self.total is not None and self.read > self.total:
            self.total = self.read  # the measure was short (rows beyond the used range)

    @property
    def read(self) -> int:
        return self.done["read"]

    @property
    def completed(self) -> int:
        """The rows through: read, for a validation; for a load, see the class."""
        if not self.sends:
            return self.read
        return min(max(self._batches_done, self.done["sent"]), self.read)

    def tenths(self) -> int:
        """Whole tenths of the total done (0 when the total is not known)."""
        if not self.total:
            return 0
        return min(10, self.completed * 10 // self.total)

    def in_words(self) -> str:
        """``read 6,000 · sent 5,000 · calculated 4,000`` (a validation's: ``read 6,000``)."""
        shown = self.done.items() if self.sends else [("read", self.read)]
        return " · ".join(f"{stage} {rows:,}" for stage, rows in shown)


class PlannedTotals:
    """The total of each planned load, by its label, measured only when it is asked for (as
    the load starts): a file's rows from ``expected_rows``; a table source's are not known."""

    def __init__(self, planned: Iterable[object]) -> None:
        self._files: dict[str, tuple[AnyPath, tuple[str, ...]]] = {}
        for entry in planned:
            if isinstance(entry, PlannedFile):
                self._files[entry.label] = (entry.path, entry.sheets)
            elif isinstance(entry, tuple):
                path, _spec = entry
                self._files[file_label(path, ())] = (path, ())

    def __call__(self, label: str) -> int | None:
        if label not in self._files:
            return None
        path, sheets = self._files[label]
        return expected_rows(path, sheets)


@dataclass(frozen=True)
class TenthsLog:
    """A Prefect run's progress: a log line each tenth of a load's total, with its stages'
    figures (``wastes.csv: 30 % of about 60,000 rows (read 18,000 · sent 17,500 · ...)``);
    nothing for a load whose total is not known (its outcome's line says what it did)."""

    log: Callable[[str], None]
    totals: Callable[[str], int | None]

    def __call__(self, label: str) -> ProgressCallback | None:
        progress = LoadProgress(label, self.totals(label))
        if progress.total is None:
            return None
        logged = [0]

        def advance(stage: str, rows: int) -> None:
            progress.add(stage, rows)
            tenths = progress.tenths()
            if tenths > logged[0]:
                logged[0] = tenths
                self.log(f"{label}: {tenths * 10} % of about {progress.total:,} rows "
                         f"({progress.in_words()})")  # fmt: skip

        return advance
