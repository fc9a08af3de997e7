"""Rejected cells: the codes and the frame's columns.

A reject names the file, sheet, row and column as the spreadsheet shows them, the cell's text,
a stable code and a sentence saying what to change. The two ways a person receives them (JSON,
an annotated workbook) are ``loading.reject_files``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import pandas as pd

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
