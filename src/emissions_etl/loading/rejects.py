"""Rejected cells: the codes, the frame's columns, and the two ways a person receives them.

A reject names the file, sheet, row and column as the spreadsheet shows them, the cell's text,
a stable code and a sentence saying what to change. JSON is for machines and tickets; the
annotated workbook is for the person who owns the spreadsheet.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.comments import Comment
from openpyxl.styles import PatternFill
from openpyxl.worksheet.worksheet import Worksheet

#: Columns of every rejects frame, in this order.
REJECT_COLUMNS = ("file", "sheet", "row", "column", "value", "code", "message")


class RejectCode(StrEnum):
    """Why a cell (or a row) was rejected; stable, for filtering and translating.

    Schemas may declare further codes for their own checks (``schemas/checks.py``).
    """

    REQUIRED = "REQUIRED"
    #: The cell shows a spreadsheet error (#DIV/0!, #N/A...) instead of a value.
    FORMULA_ERROR = "FORMULA_ERROR"
    INVALID_NUMBER = "INVALID_NUMBER"
    INVALID_INTEGER = "INVALID_INTEGER"
    INVALID_BOOLEAN = "INVALID_BOOLEAN"
    INVALID_TEXT = "INVALID_TEXT"
    NOT_POSITIVE = "NOT_POSITIVE"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    INVALID_CHOICE = "INVALID_CHOICE"
    INVALID_FORMAT = "INVALID_FORMAT"
    INVALID_DATE = "INVALID_DATE"
    DATE_ORDER = "DATE_ORDER"
    INVALID_LER_CODE = "INVALID_LER_CODE"
    INVALID_RD_CODE = "INVALID_RD_CODE"
    INVALID_UNIT = "INVALID_UNIT"
    TOO_LONG = "TOO_LONG"
    DUPLICATE_ROW_ID = "DUPLICATE_ROW_ID"
    UNKNOWN_REFERENCE = "UNKNOWN_REFERENCE"
    UNKNOWN_FACILITY = "UNKNOWN_FACILITY"
    UNKNOWN_WASTE_EF = "UNKNOWN_WASTE_EF"
    PARENT_NOT_LOADED = "PARENT_NOT_LOADED"
    REJECTED_BY_SERVICE = "REJECTED_BY_SERVICE"


def empty_rejects() -> pd.DataFrame:
    """A rejects frame with no rows and the contract's columns."""
    return pd.DataFrame({column: pd.Series(dtype=object) for column in REJECT_COLUMNS})


def make_rejects(
    origin: pd.DataFrame,
    *,
    column: str,
    value: pd.Series,
    code: RejectCode | str,
    message: pd.Series | str,
) -> pd.DataFrame:
    """Rejects for the rows of ``origin`` (which holds ``_file``, ``_sheet``, ``_row``)."""
    if origin.empty:
        return empty_rejects()
    return pd.DataFrame(
        {
            "file": origin["_file"].to_numpy(dtype=object),
            "sheet": origin["_sheet"].to_numpy(dtype=object),
            "row": origin["_row"].to_numpy(dtype="int64"),
            "column": column,
            "value": value.to_numpy(dtype=object),
            "code": str(code),
            "message": message.to_numpy(dtype=object)
            if isinstance(message, pd.Series)
            else message,
        }
    )


def sort_rejects(rejects: pd.DataFrame) -> pd.DataFrame:
    """Rejects in reading order: file, sheet, row, column."""
    frame = rejects[list(REJECT_COLUMNS)].copy()
    frame["row"] = frame["row"].astype("int64")
    return frame.sort_values(["file", "sheet", "row", "column"], kind="stable").reset_index(
        drop=True
    )


def reject_records(rejects: pd.DataFrame) -> list[dict[str, Any]]:
    """Rejects as plain dicts in reading order (JSON-ready: ``row`` int, the rest str)."""
    frame = sort_rejects(rejects)
    frame["value"] = frame["value"].astype(object).where(frame["value"].notna(), "")
    for column in ("file", "sheet", "column", "value", "code", "message"):
        frame[column] = frame[column].astype(str)
    return [
        {str(key): value for key, value in record.items()} | {"row": int(record["row"])}
        for record in frame.to_dict("records")
    ]


def write_rejects_json(rejects: pd.DataFrame, path: Path) -> None:
    """A UTF-8 JSON array of reject objects, sorted by file, sheet, row and column."""
    text = json.dumps(reject_records(rejects), ensure_ascii=False, indent=2)
    Path(path).write_text(text + "\n", "utf-8")


def write_annotated_workbook(source: Path, rejects: pd.DataFrame, out: Path) -> None:
    """A copy of ``source`` (xlsx, or csv turned into xlsx) with bad cells filled light red,
    each carrying its message as a comment, plus a "Rejects" sheet listing them all."""
    source, out = Path(source), Path(out)
    rejects = sort_rejects(rejects)
    if source.suffix.lower() in (".xlsx", ".xlsm"):
        workbook = openpyxl.load_workbook(source)
    else:
        workbook = _workbook_from_csv(source)
    for sheet_name, sheet_rejects in rejects.groupby("sheet", sort=False):
        sheet = _sheet_for(workbook, str(sheet_name))
        if sheet is not None:
            _annotate_sheet(sheet, sheet_rejects)
    _add_rejects_sheet(workbook, rejects)
    workbook.save(out)


_BAD_FILL = PatternFill(start_color="FFC7CE", end_color="FFC7CE", fill_type="solid")
_AUTHOR = "emissions-etl"


def _workbook_from_csv(source: Path) -> Workbook:
    from emissions_etl.sources.csv_reader import read_raw_lines

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = (source.stem or "data")[:31]
    for cells in read_raw_lines(source):
        sheet.append(cells)
    return workbook


def _sheet_for(workbook: Workbook, name: str) -> Worksheet | None:
    if name in workbook.sheetnames:
        return workbook[name]
    return workbook.worksheets[0] if name == "" else None


def _annotate_sheet(sheet: Worksheet, rejects: pd.DataFrame) -> None:
    columns = _header_columns(sheet, set(rejects["column"].astype(str)))
    notes: dict[tuple[int, int], list[str]] = {}
    for reject in reject_records(rejects):
        column = columns.get(reject["column"], 1)
        notes.setdefault((reject["row"], column), []).append(reject["message"])
    for (row, column), messages in notes.items():
        cell = _writable_cell(sheet, row, column)
        cell.fill = _BAD_FILL
        cell.comment = Comment("\n".join(messages), _AUTHOR, width=320, height=110)


def _header_columns(sheet: Worksheet, headers: set[str]) -> dict[str, int]:
    """Header text -> 1-based column, from the top row that holds most of ``headers``."""
    best: dict[str, int] = {}
    for row in sheet.iter_rows(min_row=1, max_row=30):
        found = {
            str(cell.value).strip(): cell.column
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
    title, suffix = "Rejects", 2
    while title in workbook.sheetnames:
        title, suffix = f"Rejects ({suffix})", suffix + 1
    sheet = workbook.create_sheet(title)
    sheet.append(list(REJECT_COLUMNS))
    for reject in reject_records(rejects):
        sheet.append([reject[column] for column in REJECT_COLUMNS])
