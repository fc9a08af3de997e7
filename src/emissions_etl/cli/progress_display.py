"""The progress of the long commands on the terminal: rich's bar with its total and the time
left. ``load`` and ``validate``: a bar per file counting its rows (the total a sheet's measured
size or a csv's bytes promise, ``loading.progress.PlannedTotals``) with its stages' figures;
``rebuild-warehouse``: a bar per resource counting the records it pages (the total its lists
say); ``maintain-warehouse``: its steps. When stderr is not a terminal (a log, CI) nothing is
drawn: a line tells each stage as it starts instead.
"""

from __future__ import annotations

import threading
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
        yield StageLines(totals, say) if sends else silent
        return
    with _bars(console, "rows") as progress:
        bars = Bars(progress, totals, sends=sends)
        try:
            yield bars
        finally:
            bars.finish()


@contextmanager
def shown_work(console: Console, say: Callable[[str], None]) -> Iterator[WorkBars | WorkLines]:
    """The reporter of ``rebuild-warehouse``'s paging or ``maintain-warehouse``'s steps, drawn
    on ``console``: bars on a terminal, elsewhere a line told to ``say`` as each starts."""
    if not console.is_terminal:
        yield WorkLines(say)
        return
    with _bars(console, "") as progress:
        bars = WorkBars(progress)
        try:
            yield bars
        finally:
            bars.finish()


@contextmanager
def _bars(console: Console, unit: str) -> Iterator[Progress]:
    columns = (
        TextColumn("{task.description}", markup=False), BarColumn(), CountColumn(unit),
        TimeElapsedColumn(), TextColumn("elapsed ·"), TimeRemainingColumn(), TextColumn("left"),
    )  # fmt: skip
    with Progress(*columns, console=console, transient=True) as progress:
        yield progress


class CountColumn(ProgressColumn):
    """``25,000 of about 60,000 rows ·`` (``25,000 rows ·`` while the total is not known); a
    task's own ``unit`` field names what it counts, else the column's, and its ``exact`` field
    says its total is no estimate (``2 of 5 steps``)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def render(self, task: Task) -> Text:
        unit = str(task.fields.get("unit", self._unit))
        done = f"{int(task.completed):,}"
        if task.total is None:
            return Text(f"{done} {unit} ·", style="progress.download")
        about = "" if task.fields.get("exact") else "about "
        return Text(f"{done} of {about}{int(task.total):,} {unit} ·", style="progress.download")


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

    def __init__(self, totals: Totals, say: Callable[[str], None]) -> None:
        self._totals = totals
        self._say = say

    def __call__(self, label: str) -> ProgressCallback:
        started: set[str] = set()

        def advance(stage: str, rows: int) -> None:
            if stage in started or rows == 0:
                return
            started.add(stage)
            line = f"{label}: {_STAGE_LINES.get(stage, stage)}"
            if stage == "read":
                total = self._totals(label)
                line += f" (about {total:,} rows)" if total else ""
            self._say(line)

        return advance


class WorkBars:
    """``rebuild-warehouse``'s bar per resource (its total grows as its lists tell theirs) and
    ``maintain-warehouse``'s bar of steps; told from the paging threads too."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._lock = threading.Lock()
        self._task: TaskID | None = None
        self._total = 0
        self._read = 0
        self._steps: int | None = None

    def resource(self, name: str) -> None:
        self.finish()
        with self._lock:
            self._total = self._read = 0
            self._task = self._progress.add_task(name, total=None, unit="records")

    def expect(self, records: int) -> None:
        with self._lock:
            self._total += records
            if self._task is not None:
                self._progress.update(self._task, total=max(self._total, self._read))

    def read(self, records: int) -> None:
        with self._lock:
            self._read += records
            if self._task is not None:
                self._progress.update(self._task, completed=self._read)

    def __call__(self, number: int, steps: int, what: str) -> None:
        """A step of an upkeep starts: the steps before it are done."""
        with self._lock:
            if self._task is None:
                self._steps = steps
                self._task = self._progress.add_task(what, total=steps, unit="steps", exact=True)
            self._progress.update(self._task, completed=number - 1, description=what)

    def finish(self) -> None:
        """The last bar full: its resource paged, or the upkeep done."""
        with self._lock:
            if self._task is not None:
                done = self._read if self._steps is None else self._steps
                self._progress.update(self._task, total=done, completed=done)
            self._task, self._steps = None, None


class WorkLines:
    """A line as each resource starts to be paged, or each step of an upkeep starts."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say

    def resource(self, name: str) -> None:
        self._say(f"{name}: reading its records from the service")

    def expect(self, records: int) -> None:
        pass

    def read(self, records: int) -> None:
        pass

    def __call__(self, number: int, steps: int, what: str) -> None:
        self._say(f"step {number} of {steps}: {what}")
