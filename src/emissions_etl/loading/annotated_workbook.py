"""The annotated rejects workbook: a copy of the file with its bad cells marked, for the person
who owns the spreadsheet.

The copy is the workbook itself when openpyxl can open it (an xlsx: formatting kept), else the
values the reader read (a csv; an .xls, .xlsb or .ods, whose format is not written back, or an
HTML table: with a note saying so; a workbook openpyxl refuses), else only the list of rejects
with a note saying why; whatever the file holds, something is written and nothing raises. Every
value goes in as text a workbook can hold: control characters, which XML cannot carry and openpyxl
refuses, are shown escaped (``Madrid\\x00Warehouse``), text is cut at Excel's 32,767
characters, and text starting with ``=`` stays text (a csv cell never becomes a formula).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar, overload

import openpyxl
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.comments import Comment
from openpyxl.styles import PatternFill
from openpyxl.worksheet.worksheet import Worksheet

from emissions_etl.domain.rejects import REJECT_COLUMNS, reject_records, sort_rejects
from emissions_etl.sources.cell_values import CellValue
from emissions_etl.sources.cells import escape_control_characters

#: What XML cannot hold besides the control characters ``escape_control_characters`` shows
#: escaped (the C0 controls but tab, line feed and carriage return, DEL, the C1 controls).
_NOT_XML = re.compile("[\ufffe\uffff]")
#: Excel's limit on the characters of a cell.
MAX_CELL_CHARS = 32_767
#: Characters a sheet title cannot hold, and its length.
_TITLE_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
_TITLE_CHARS = 31
_BAD_FILL = PatternFill(start_color="FFC7CE", end_color="FFC7CE", fill_type="solid")
_AUTHOR = "emissions-etl"

#: A value ``showable`` leaves as it is (a number, a date, None: anything but text).
_Cell = TypeVar("_Cell")
#: One row of a copied sheet: its sheet's name ("" for a csv's one sheet) and its cells.
_Row = tuple[str, Sequence[CellValue]]


@overload
def showable(value: str) -> str: ...
@overload
def showable(value: _Cell) -> _Cell: ...
def showable(value: object) -> object:
    """``value`` as a workbook can hold it: text with control characters escaped (``\\x00``)
    and cut at MAX_CELL_CHARS; anything else as it is."""
    if not isinstance(value, str):
        return value
    text = _NOT_XML.sub(lambda found: f"\\u{ord(found.group()):04x}", value)
    text = escape_control_characters(text)
    if len(text) > MAX_CELL_CHARS:
        text = text[: MAX_CELL_CHARS - 1] + "…"
    return text


def write_annotated(source: Path | None, rejects: pd.DataFrame, out: Path) -> str | None:
    """Write the annotated copy of ``source`` to ``out``: bad cells filled light red, each with
    its message as a comment, and a "Rejects" sheet listing them all. Returns why the copy
    lacks the workbook's formatting or cells (None when it has them). ``source`` None: the
    file could not be fetched from its store (the rejects are listed alone)."""
    rejects = sort_rejects(rejects)
    note: str | None = "the file cannot be read from its store: only the rejects are listed"
    if source is None:
        workbook = _empty()
    else:
        workbook, note = _copy_of(Path(source), rejects)
    for sheet_name, sheet_rejects in rejects.groupby("sheet", sort=False):
        sheet = _sheet_for(workbook, str(sheet_name))
        if sheet is not None:
            _annotate_sheet(sheet, sheet_rejects)
    _add_rejects_sheet(workbook, rejects)
    if note is not None:
        _add_note(workbook, note)
    workbook.save(out)
    return note


def write_listed(rejects: pd.DataFrame, out: Path) -> None:
    """The rejects of a table source's rows, which has no original to annotate: one sheet,
    each rejected cell with its row's key, the column, the value and the reason."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    _add_rejects_sheet(workbook, sort_rejects(rejects))
    workbook.save(out)


def _copy_of(source: Path, rejects: pd.DataFrame) -> tuple[Workbook, str | None]:
    """The workbook to annotate, and a note when it is less than a full copy."""
    from emissions_etl.sources import SourceFormat, source_format

    try:
        kind = source_format(source)
    except Exception:  # noqa: BLE001 - the rejects are still worth writing
        kind = SourceFormat.TEXT
    why: str | None = None
    if kind is SourceFormat.XLSX:
        try:
            return openpyxl.load_workbook(source), None
        except Exception as error:  # noqa: BLE001 - openpyxl raises anything; the values remain
            why = f"openpyxl cannot open it ({type(error).__name__}): its values are copied"
        rows = _workbook_rows(source)
    elif kind.is_workbook:
        why = (
            "the annotated copy is an .xlsx of its values, without its formatting: an "
            f"{kind.value} file is not written back"
        )
        rows = _workbook_rows(source)
    elif kind is SourceFormat.HTML:
        why = "the annotated copy is an .xlsx of the HTML table's values"
        rows = _html_rows(source, rejects)
    else:
        rows = _csv_rows(source)
    try:
        return _workbook_of(rows, default_title=source.stem), why
    except Exception as error:  # noqa: BLE001 - the rejects are still worth writing
        reason = f"the file cannot be copied ({type(error).__name__}): only the rejects are listed"
        return _empty(), reason


def _empty() -> Workbook:
    empty = Workbook()
    empty.active.title = "Source"
    return empty


def _csv_rows(source: Path) -> Iterable[_Row]:
    from emissions_etl.sources.csv_reader import read_raw_lines

    return (("", cells) for cells in read_raw_lines(source))


def _workbook_rows(source: Path) -> Iterable[_Row]:
    from emissions_etl.sources.workbook_reader import iter_sheet_rows

    return iter_sheet_rows(source)


def _html_rows(source: Path, rejects: pd.DataFrame) -> Iterable[_Row]:
    """The rows of the page's table the rejects came from: the first whose top rows name the
    most of their columns (an HTML table's rows are numbered within it)."""
    from emissions_etl.sources.html_reader import html_tables

    wanted = {str(column).strip() for column in rejects["column"]} - {""}
    best: list[list[str]] = []
    best_score = -1
    for _, rows in html_tables(source):
        score = max((len(wanted & {c.strip() for c in row}) for row in rows[:30]), default=0)
        if score > best_score:
            best, best_score = rows, score
    return (("", cells) for cells in best)


def _workbook_of(rows: Iterable[_Row], *, default_title: str) -> Workbook:
    """A workbook of (sheet name, cells) rows; "" names the one sheet of a csv."""
    workbook = Workbook()
    first = workbook.active
    assert first is not None
    sheets: dict[str, Worksheet] = {}
    for name, cells in rows:
        sheet = sheets.get(name)
        if sheet is None:
            sheet = first if not sheets else workbook.create_sheet()
            sheet.title = _title(name or default_title, taken=workbook.sheetnames)
            sheets[name] = sheet
        _append(sheet, cells)
    return workbook


def _append(sheet: Worksheet, cells: Sequence[object]) -> None:
    sheet.append([showable(cell) for cell in cells])
    row = sheet.max_row
    for column, cell in enumerate(cells, start=1):
        if isinstance(cell, str) and cell.startswith("="):
            sheet.cell(row, column).data_type = "s"  # text as written, never a formula


def _title(name: str, *, taken: list[str]) -> str:
    """A sheet title openpyxl and Excel accept (no ``[]:*?/\\``, 31 characters), unique."""
    base = _TITLE_FORBIDDEN.sub("_", str(showable(name))).strip("'") or "data"
    title, suffix = base[:_TITLE_CHARS], 2
    while title in taken:
        tail = f" ({suffix})"
        title, suffix = base[: _TITLE_CHARS - len(tail)] + tail, suffix + 1
    return title


def _sheet_for(workbook: Workbook, name: str) -> Worksheet | None:
    if name in workbook.sheetnames:
        return workbook[name]
    titled = _title(name, taken=[]) if name else ""
    if titled and titled in workbook.sheetnames:
        return workbook[titled]
    return workbook.worksheets[0] if name == "" else None


def _annotate_sheet(sheet: Worksheet, rejects: pd.DataFrame) -> None:
    columns = _header_columns(sheet, {showable(c) for c in rejects["column"].astype(str)})
    notes: dict[tuple[int, int], list[str]] = {}
    for reject in reject_records(rejects):
        column = columns.get(showable(reject["column"]), 1)
        notes.setdefault((reject["row"], column), []).append(showable(reject["message"]))
    for (row, column), messages in notes.items():
        cell = _writable_cell(sheet, row, column)
        cell.fill = _BAD_FILL
        text = showable("\n".join(messages))
        cell.comment = Comment(text, _AUTHOR, width=320, height=110)


def _header_columns(sheet: Worksheet, headers: set[str]) -> dict[str, int]:
    """Header text -> 1-based column, from the top row that holds most of ``headers``."""
    best: dict[str, int] = {}
    for row in sheet.iter_rows(min_row=1, max_row=30):
        found = {
            str(cell.value).strip(): int(cell.column)
            for cell in row
            if cell.value is not None and str(cell.value).strip() in headers
        }
        if len(found) > len(best):
            best = found
    return best


def _writable_cell(sheet: Worksheet, row: int, column: int) -> Cell:
    """The cell itself, or the top-left cell of the merged range that covers it."""
    for merged in sheet.merged_cells.ranges:
        if merged.min_row <= row <= merged.max_row and merged.min_col <= column <= merged.max_col:
            return sheet.cell(merged.min_row, merged.min_col)
    return sheet.cell(row, column)


def _add_rejects_sheet(workbook: Workbook, rejects: pd.DataFrame) -> None:
    sheet = workbook.create_sheet(_title("Rejects", taken=workbook.sheetnames))
    sheet.append(list(REJECT_COLUMNS))
    for reject in reject_records(rejects):
        _append(sheet, list(reject.values()))  # a RejectRecord's members: REJECT_COLUMNS


def _add_note(workbook: Workbook, note: str) -> None:
    sheet = workbook.create_sheet(_title("Note", taken=workbook.sheetnames))
    sheet.append([showable(note)])
