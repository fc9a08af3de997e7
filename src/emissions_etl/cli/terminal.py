"""What the command line prints: one-line errors, live progress per file and stage, the first
rejects with their reasons, load summaries (a workbook's sheet by sheet, with the sheets not
loaded and why), and the rejects files.

Tables fit the terminal; when the output is piped they are printed whole (no 80-column cut).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.text import Text

# The codes are declared once (exit_codes); named here too for the commands that import them here.
from emissions_etl.cli.exit_codes import EXIT_FAILED as EXIT_FAILED
from emissions_etl.cli.exit_codes import EXIT_OK as EXIT_OK
from emissions_etl.cli.exit_codes import EXIT_REJECTS as EXIT_REJECTS
from emissions_etl.cli.exit_codes import EXIT_UNUSABLE

if TYPE_CHECKING:
    import pandas as pd
    from rich.table import Table

    from emissions_etl.errors import InputError
    from emissions_etl.loading.file_loads import FileOutcome, Planned
    from emissions_etl.loading.file_plan import PlannedFile
    from emissions_etl.loading.pipeline import LoadOptions, ValidationSummary
    from emissions_etl.loading.table_loads import PlannedTable
    from emissions_etl.resources import ResourceSpec
    from emissions_etl.settings import Settings
    from emissions_etl.storage import AnyPath
    from emissions_etl.webhooks import WebhookSettings

#: Rejects printed with their reasons before "and N more".
REJECTS_SHOWN = 10
_PIPED_WIDTH = 10_000

# No markup: whatever a file, the warehouse or the service holds is printed as it is (a cell
# reading "[/x]" or "[bold]" is text, never a style nor a crash); styles are given as Text.
out = Console(width=None if sys.stdout.isatty() else _PIPED_WIDTH, markup=False)
err = Console(stderr=True, width=None if sys.stderr.isatty() else _PIPED_WIDTH, markup=False)


def print_result(line: str) -> None:
    """A line of a command's result, on stdout; when stdout and stderr are one terminal, printed
    through stderr's console, where the progress bars are drawn: rich prints a line above a
    live display only through the display's own console (a line of another went over the bar)."""
    console = err if _one_terminal() else out
    console.print(line, highlight=False, markup=False)


def _one_terminal() -> bool:
    """Whether stdout and stderr are the same terminal, as at a person's prompt."""
    if not (out.is_terminal and err.is_terminal):
        return False
    try:
        stdout, stderr = os.fstat(1), os.fstat(2)  # the process's own, under any wrapper
    except OSError:  # closed (an embedding program)
        return False
    return (stdout.st_dev, stdout.st_ino, stdout.st_rdev) == (
        stderr.st_dev, stderr.st_ino, stderr.st_rdev
    )  # fmt: skip


def fail(message: str, code: int) -> typer.Exit:
    """Print one line on stderr and return the Exit to raise."""
    err.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False,
              soft_wrap=True)  # fmt: skip
    return typer.Exit(code)


def warn(message: str) -> None:
    err.print(Text.assemble(("warning:", "yellow"), " ", message), highlight=False,
              soft_wrap=True)  # fmt: skip


def check_rejects_target(target: AnyPath | None) -> None:
    """Refuse a rejects target that cannot be written *before* anything is loaded; its folder
    is created when missing (a store has none to create)."""
    from emissions_etl.storage import ensure_folder, is_folder

    if target is None:
        return
    if is_folder(target):
        raise ValueError(f"--rejects {target} is a folder: give a file name ending .json or .xlsx")
    if target.suffix.lower() not in (".json", ".xlsx"):
        raise ValueError(f"--rejects {target}: the name must end in .json or .xlsx")
    try:
        ensure_folder(target.parent)
    except OSError as error:
        raise ValueError(
            f"--rejects {target}: cannot create its folder ({error.strerror})"
        ) from None


def write_rejects(rejects_by_file: Mapping[AnyPath | str, pd.DataFrame], target: AnyPath) -> None:
    """All rejects as one JSON file, or an annotated workbook per file (``OUT-<file>.xlsx`` when
    several; a table source, named by text, has no original: its workbook lists the rejected
    rows, each with its key and reason). With no rejects the JSON holds ``[]`` and a stale
    workbook is removed, so the file never tells of an earlier run."""
    import pandas as pd

    from emissions_etl.domain.rejects import empty_rejects
    from emissions_etl.errors import InputError
    from emissions_etl.loading.reject_files import write_annotated_workbook, write_rejects_json
    from emissions_etl.storage import remove

    with_rejects = {path: frame for path, frame in rejects_by_file.items() if not frame.empty}
    try:
        if target.suffix.lower() != ".xlsx":
            frames = [empty_rejects(), *with_rejects.values()]
            write_rejects_json(pd.concat(frames, ignore_index=True), target)
            out.print(f"rejects written to {target}")
            return
        if not with_rejects:
            if remove(target):
                out.print(f"no rejects: removed the earlier {target}")
            return
    except (OSError, InputError) as error:
        raise fail(f"--rejects {target}: cannot write it ({_why(error)})", EXIT_UNUSABLE) from None
    for source, frame in with_rejects.items():
        stem = source if isinstance(source, str) else source.stem
        one = target if len(with_rejects) == 1 else target.with_stem(f"{target.stem}-{stem}")
        try:
            original = None if isinstance(source, str) else source
            note = write_annotated_workbook(original, frame, one)
        except (OSError, InputError) as error:
            raise fail(f"--rejects {one}: cannot write it ({_why(error)})", EXIT_UNUSABLE) from None
        if note is not None:
            warn(f"{one}: {note}")
        out.print(f"rejects written to {one}")


def _why(error: OSError | InputError) -> str:
    if isinstance(error, InputError):
        return error.reason
    return str(error.strerror or error)


def print_rejects(rejects: pd.DataFrame, limit: int = REJECTS_SHOWN) -> None:
    """The first rejects, one line each with the reason, and how many more there are."""
    from emissions_etl.domain.rejects import reject_records
    from emissions_etl.sources.cells import escape_control_characters as shown

    records = reject_records(rejects)
    for reject in records[:limit]:
        # A cell's control characters are shown escaped, never sent to the terminal (an ESC
        # from a file would act on it).
        sheet = f" sheet {shown(reject['sheet'])}" if reject["sheet"] else ""
        row = shown(reject["key"]) if reject["key"] else f"row {reject['row']}"
        out.print(
            f"  {shown(reject['file'])}{sheet} {row}, {shown(reject['column'])}: "
            f"{shown(reject['message'])} [{reject['code']}]",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    if len(records) > limit:
        out.print(f"  ... and {len(records) - limit} more (--rejects OUT.json lists them all)")


def load_files(
    planned: Sequence[Planned],
    settings: Settings,
    options: LoadOptions,
    webhooks: WebhookSettings,
) -> list[FileOutcome]:
    """Load with live progress (a bar per file counting its rows to their total, with the
    rows read, sent and calculated and the time left; a line per stage when stderr is not a
    terminal); stops at the first file that fails, as a command line should. What the
    webhook does is printed as it happens (on stderr, above the progress)."""
    from emissions_etl.cli.progress_display import shown_progress
    from emissions_etl.loading.file_loads import load_files as load_in_order
    from emissions_etl.loading.progress import PlannedTotals

    with shown_progress(PlannedTotals(planned), err, say) as progress:
        return load_in_order(planned, settings=settings, options=options, progress=progress,
                             keep_going=False, webhooks=webhooks, notify=say)  # fmt: skip


def say(message: str) -> None:
    """One line of what is happening, on stderr (above a live progress display)."""
    err.print(message, highlight=False, markup=False, soft_wrap=True)


def print_load_report(outcomes: Sequence[FileOutcome], rejects_target: AnyPath | None) -> bool:
    """The summary table (the figures and words of ``loading.figures``, as the flows say
    them), where sent rows went, the sheets not loaded and why, the first rejects with their
    reasons, and the rejects file (a workbook's sheets annotated in one copy); True when any
    row was rejected."""
    from emissions_etl.loading.pipeline import rejected_rows

    out.print(_summary_table(outcomes))
    loaded = [outcome for outcome in outcomes if outcome.summary is not None]
    for outcome in loaded:
        for line in _what_became_of(outcome):
            out.print(line, highlight=False)
    for outcome in outcomes:
        if outcome.skipped:
            out.print(f"{outcome.label}: {outcome.skipped}", highlight=False)
    for outcome in loaded:
        frame = outcome.summary.rejects if outcome.summary is not None else None
        if frame is not None and not frame.empty:
            out.print(f"{outcome.label}: {len(frame)} rejected cell(s) in "
                      f"{rejected_rows(frame)} row(s)", highlight=False)  # fmt: skip
            print_rejects(frame)
    rejects = _by_file(outcomes)
    if rejects_target is not None:
        write_rejects(rejects, rejects_target)
    return any(not frame.empty for frame in rejects.values())


def _summary_table(outcomes: Sequence[FileOutcome]) -> Table:
    """A row per load: its resource, outcome, rows and co2e."""
    from rich.table import Table

    from emissions_etl.loading.figures import CO2E_COLUMNS, NOT_THE_TOTAL, ROW_COLUMNS, count, kg
    from emissions_etl.resources import aggregates_in_words

    table = Table("file", "resource", "outcome", *ROW_COLUMNS, *CO2E_COLUMNS,
                  caption=f"{NOT_THE_TOTAL}; {aggregates_in_words()} carry sums of other "
                  "records (not added)")  # fmt: skip
    for outcome in outcomes:
        s = outcome.summary
        if s is None:
            continue
        table.add_row(
            outcome.label, s.resource, s.outcome,
            *(count(n) for n in (s.rows_read, s.rows_rejected, s.rows_unchanged, s.rows_loaded,
                                 s.rows_failed)),
            kg(s.co2e_loaded_kg), kg(s.co2e_in_service_kg),
        )  # fmt: skip
    return table


def _what_became_of(outcome: FileOutcome) -> list[str]:
    """A load's lines after the table: a dry run's plan, where sent rows went, those adopted,
    and its notes."""
    from emissions_etl.loading.figures import sent_explained

    s = outcome.summary
    assert s is not None
    planned = [] if s.outcome != "dry_run" else [
        f"{outcome.label} (source {s.source_name!r}), dry run: would create {s.rows_new:,} and "
        f"update {s.rows_changed:,}; {s.rows_adopted:,} found in the service, "
        f"{s.rows_unchanged:,} unchanged"
    ]  # fmt: skip
    adopted = f"{s.rows_adopted:,} found in the service and adopted, not created"
    lines = [sent_explained(s), adopted if s.rows_adopted and s.outcome != "dry_run" else ""]
    return planned + [f"{outcome.label}: {line}" for line in [*lines, *s.notes] if line]


def _by_file(outcomes: Sequence[FileOutcome]) -> dict[AnyPath | str, pd.DataFrame]:
    """Each loaded file's rejects, its sheets' together (one annotated copy per workbook), and
    each table source's (by its name)."""
    import pandas as pd

    frames: dict[AnyPath | str, list[pd.DataFrame]] = {}
    for outcome in outcomes:
        if outcome.summary is not None:
            frames.setdefault(outcome.origin, []).append(outcome.summary.rejects)
    return {path: pd.concat(found, ignore_index=True) for path, found in frames.items()}


def validate_tables(
    tables: Sequence[PlannedTable], options: LoadOptions, target: AnyPath | None
) -> None:
    """``validate --from-sql`` (or ``--sources``): each source's rows read and validated
    offline, a line each, the first rejects and the rejects file; exits 1 when rows are
    rejected, 2 when a query returned none (a source that cannot be read raises its
    TableSourceError)."""
    import pandas as pd

    from emissions_etl.loading.pipeline import rejected_rows
    from emissions_etl.loading.table_loads import validate_table

    found: dict[AnyPath | str, pd.DataFrame] = {}
    empty = []
    for table in tables:
        result = validate_table(table.source, spec=table.spec, options=options)
        out.print(
            f"{table.label} ({table.spec.name}): {result.rows_read} rows read, "
            f"{result.rows_valid} valid, {rejected_rows(result.rejects)} rejected",
            highlight=False,
            markup=False,
        )
        found[table.label] = result.rejects
        if result.rows_read == 0:
            empty.append(table.label)
    every = pd.concat(list(found.values()), ignore_index=True)
    if target is not None:
        write_rejects(found, target)
    if not every.empty:
        print_rejects(every)
    for label in empty:
        fail(f"{label}: the query returned no rows", EXIT_UNUSABLE)
    if empty:
        raise typer.Exit(EXIT_UNUSABLE)
    if not every.empty:
        raise typer.Exit(EXIT_REJECTS)


def print_validation(
    planned: Sequence[PlannedFile], results: Mapping[int, ValidationSummary]
) -> list[str]:
    """``file (resource): N rows read, N valid, N rejected`` for each planned entry validated
    (``results`` by its index), sheet by sheet in the workbook's order when the workbook holds
    other sheets, and a line for each sheet skipped; returns the errors of the sheets refused,
    one line each, for the caller to print once the rest is done."""
    from emissions_etl.loading.file_plan import file_label
    from emissions_etl.loading.pipeline import rejected_rows

    lines: dict[str, str] = {}
    refused = []
    for index, entry in enumerate(planned):
        if entry.spec is None:
            if entry.skipped:
                lines[entry.sheets[0]] = f"{entry.label}: {entry.problem}"
            else:
                refused.append(f"{entry.where}: {entry.problem}")
            continue
        if index not in results:
            continue
        result = results[index]
        sheets = entry.shown_sheets or ("",)
        for sheet in sheets:
            found = result.rejects[result.rejects["sheet"] == sheet] if sheet else result.rejects
            read = result.read_by_sheet[sheet] if sheet else result.rows_read
            valid = result.valid_by_sheet[sheet] if sheet else result.rows_valid
            lines[sheet] = (
                f"{file_label(entry.path, (sheet,) if sheet else ())} ({entry.spec.name}): "
                f"{read} rows read, {valid} valid, {rejected_rows(found)} rejected"
            )
    order = [fate.sheet for entry in planned[:1] for fate in entry.workbook]
    for sheet in [*order, *(sheet for sheet in lines if sheet not in order)]:
        if sheet in lines:
            print_result(lines[sheet])  # while the file's bar is drawn
    return refused


def print_resources(specs: Iterable[ResourceSpec]) -> None:
    """Each resource with its columns; required ones marked ``*``."""
    from rich.table import Table

    table = Table("resource", "columns (* required)", "loads after", title="Resources")
    for spec in specs:
        columns = ", ".join(
            f"{name}*" if name in spec.required_columns else name for name in spec.columns
        )
        table.add_row(spec.name, columns, ", ".join(spec.depends_on) or "-")
    out.print(table)
