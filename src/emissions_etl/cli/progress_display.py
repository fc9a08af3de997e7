"""The progress of ``load`` and ``validate`` (and the other long commands) on the terminal:
rich's bar per load, with its total (the rows a sheet's measured size or a csv's bytes promise,
``loading.progress.PlannedTotals``), its stages' figures and the time left. When stderr is not
a terminal (a log, CI) nothing is drawn: a line tells each stage as it starts instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from emissions_etl.loading.progress import LoadProgress, ProgressReporter, silent

if TYPE_CHECKING:
    from rich.console import Console

    from emissions_etl.loading.options import ProgressCallback

Totals = Callable[[str], "int | None"]

#: What a stage is called in its line, when the output is not a terminal.
_STAGE_LINES = {
    "read": "reading",
    "sent": "sending rows to the service",
    "calculated": "landing the calculated co2e",
}


@contextmanager
def shown_progress(
    totals: Totals, console: Console, say: Callable[[str], None], *, sends: bool = True
) -> Iterator[ProgressReporter]:
    """The reporter for the loads (``sends``) or validations run inside, drawn on
    ``console``: bars on a terminal; elsewhere a line per stage of a load told to ``say`` (a
    validation's line per file is its own)."""
    if not console.is_terminal:
        yield StageLines(totals, say, sends=sends) if sends else silent
        return
    columns = (
        TextColumn("{task.description}", markup=False), BarColumn(), RowsColumn(),
        TimeElapsedColumn(), TextColumn("elapsed ·"), TimeRemainingColumn(), TextColumn("left"),
    )  # fmt: skip
    with Progress(*columns, console=console, transient=True) as progress:
        bars = Bars(progress, totals, sends=sends)
        try:
            yield bars
        finally:
            bars.finish()


class RowsColumn(ProgressColumn):
    """``25,000 of about 60,000 rows ·`` (``25,000 rows ·`` while the total is not known)."""

    def render(self, task: Task) -> Text:
        done = f"{int(task.completed):,}"
        if task.total is None:
            return Text(f"{done} rows ·", style="progress.download")
        return Text(f"{done} of about {int(task.total):,} rows ·", style="progress.download")


class Bars:
    """A bar per load, counting to its total; a load's bar is full once the next starts (or
    the command ends)."""

    def __init__(self, progress: Progress, totals: Totals, *, sends: bool) -> None:
        self._progress = progress
        self._totals = totals
        self._sends = sends
        self._current: tuple[TaskID, LoadProgress] | None = None

    def __call__(self, label: str) -> ProgressCallback:
        self.finish()
        figures = LoadProgress(label, self._totals(label), sends=self._sends)
        task = self._progress.add_task(label, total=figures.total)
        self._current = task, figures

        def advance(stage: str, rows: int) -> None:
            figures.add(stage, rows)
            self._progress.update(task, completed=figures.completed, total=figures.total,
                                  description=f"{label}: {figures.in_words()}")  # fmt: skip

        return advance

    def finish(self) -> None:
        """The last load's bar full (its rows all through, whatever the measure said)."""
        if self._current is None:
            return
        task, figures = self._current
        self._progress.update(task, total=figures.read, completed=figures.read)
        self._current = None


class StageLines:
    """A line on stderr as each stage of a load starts, with the rows expected when known:
    ``wastes.csv: reading (about 60,000 rows)``; nothing for a load that reads no row."""

    def __init__(self, totals: Totals, say: Callable[[str], None], *, sends: bool) -> None:
        self._totals = totals
        self._say = say
        self._sends = sends

    def __call__(self, label: str) -> ProgressCallback:
        figures = LoadProgress(label, None, sends=self._sends)
        started: set[str] = set()

        def advance(stage: str, rows: int) -> None:
            figures.add(stage, rows)
            if stage in started or rows == 0:
                return
            started.add(stage)
            line = f"{label}: {_STAGE_LINES.get(stage, stage)}"
            if stage == "read":
                total = self._totals(label)
                line += f" (about {total:,} rows)" if total else ""
            self._say(line)

        return advance
