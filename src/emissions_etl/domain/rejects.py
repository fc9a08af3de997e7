"""Rejected cells: the codes and the frame's columns.

A reject names the file, sheet, row and column as the spreadsheet shows them, the cell's text,
a stable code and a sentence saying what to change; a row of a table source is named by its
source (``file``), its place in the key's order (``row``) and its ``key`` (``txn_id=T-0101``),
which is empty for a file's rows. The two ways a person receives them (JSON,
an annotated workbook) are ``loading.reject_files``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import TypedDict

import pandas as pd

#: Columns of every rejects frame, in this order.
REJECT_COLUMNS = ("file", "sheet", "row", "column", "value", "code", "message", "key")


class RejectCode(StrEnum):
    """Why a cell (or a row) was rejected; stable, for filtering and translating. Every code
    says what it means in ``REJECT_CODE_MEANINGS`` (the docs' reference is generated from it).

    Schemas name the codes of their own checks as text (``schemas/checks.py``: they import
    nothing of the pipeline); each is one of these, which the docs' check holds them to.
    """

    REQUIRED = "REQUIRED"
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
    INVALID_COUNTRY = "INVALID_COUNTRY"
    INVALID_WEEKDAYS = "INVALID_WEEKDAYS"
    INVALID_EMAIL = "INVALID_EMAIL"
    INVALID_CUPS = "INVALID_CUPS"
    TOO_LONG = "TOO_LONG"
    ROUTE_REQUIRED = "ROUTE_REQUIRED"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    DUPLICATE_ROW_ID = "DUPLICATE_ROW_ID"
    UNKNOWN_REFERENCE = "UNKNOWN_REFERENCE"
    UNKNOWN_FACILITY = "UNKNOWN_FACILITY"
    UNKNOWN_WASTE_EF = "UNKNOWN_WASTE_EF"
    UNMAPPED_VALUE = "UNMAPPED_VALUE"
    NOT_AN_ACTIVITY = "NOT_AN_ACTIVITY"
    PARENT_NOT_LOADED = "PARENT_NOT_LOADED"
    REJECTED_BY_SERVICE = "REJECTED_BY_SERVICE"


#: What each code means, and what to do about it: the sentence a person fixing the file reads
#: beside the code (the reject's own message names the cell's value and the fix).
REJECT_CODE_MEANINGS: Mapping[RejectCode, str] = MappingProxyType(
    {
        RejectCode.REQUIRED: "A value the row needs is empty: a required column, one of "
        "several columns of which one must be given, or a column another one makes required.",
        RejectCode.FORMULA_ERROR: "The cell shows a spreadsheet error (#DIV/0!, #N/A, #REF!...) "
        "instead of a value: fix the formula, or paste the values.",
        RejectCode.INVALID_NUMBER: "The cell is not a number (12.5 and 12,5 are).",
        RejectCode.INVALID_INTEGER: "The cell is not a whole number.",
        RejectCode.INVALID_BOOLEAN: "The cell is not yes or no (true/false, 1/0 and sí/no are "
        "read too).",
        RejectCode.INVALID_TEXT: "The text holds control characters (a tab or an escape copied "
        "from another program).",
        RejectCode.NOT_POSITIVE: "The number must be greater than 0.",
        RejectCode.OUT_OF_RANGE: "The number is outside the bounds the column takes (the message "
        "gives them).",
        RejectCode.INVALID_CHOICE: "The value is not one the column takes (the message lists "
        "them; common synonyms are read).",
        RejectCode.INVALID_FORMAT: "The value does not have the column's shape (an id like "
        "3f2b...-..., or another check the message names).",
        RejectCode.INVALID_DATE: "The cell is not a date (2026-03-31 and 31/03/2026 are).",
        RejectCode.DATE_ORDER: "Two dates of the row are the wrong way round: the start after "
        "the end.",
        RejectCode.INVALID_LER_CODE: "Not a European Waste List (LER) code: six digits, like "
        "20 01 01.",
        RejectCode.INVALID_RD_CODE: "Not a treatment code: R1 to R13 (recovery) or D1 to D15 "
        "(disposal).",
        RejectCode.INVALID_UNIT: "The unit is not one the column or the service takes for this "
        "record (the message says which are).",
        RejectCode.INVALID_COUNTRY: "Not an ISO 3166-1 country code (ES, ESP, GB...).",
        RejectCode.INVALID_WEEKDAYS: "Not a list of weekdays (Mon-Fri, 0,1,2,3,4 or "
        "Monday;Wednesday).",
        RejectCode.INVALID_EMAIL: "Not an e-mail address.",
        RejectCode.INVALID_CUPS: "Not a list of CUPS codes (electricity supply points, like "
        "ES0021000000000001AB), separated by commas.",
        RejectCode.TOO_LONG: "The text is longer than the service takes (the message gives the "
        "limit).",
        RejectCode.ROUTE_REQUIRED: "The row gives neither a distance nor both places (origin "
        "and destination), or, where only one may be given, both.",
        RejectCode.NOT_APPLICABLE: "A column is filled that applies only to other kinds of row "
        "(a flight's cabin class on a train trip): leave it empty.",
        RejectCode.DUPLICATE_ROW_ID: "Another row of the file has the same key (client_row_id "
        "or the resource's natural key): the row would be the same record twice.",
        RejectCode.UNKNOWN_REFERENCE: "The name (a fuel, a vehicle type, a unit, an employee...) "
        "is not in the service's list for this organization; the message lists the known ones "
        "and the closest.",
        RejectCode.UNKNOWN_FACILITY: "No facility of the organization has that name: create it "
        "in the service, or correct the spelling (the message suggests the closest).",
        RejectCode.UNKNOWN_WASTE_EF: "The service has no emission factor for this LER code and "
        "treatment (the message lists the treatments the code takes).",
        RejectCode.UNMAPPED_VALUE: "An ERP export's value (a material group, a plant) is in no "
        "table of its profile: add it to the file the profile's option names (--sector-map), "
        "or give the default (--default-country).",
        RejectCode.NOT_AN_ACTIVITY: "The profile's table says this value is not an activity of "
        "the resource (a car wash on a fuel card): the row is left out, on purpose.",
        RejectCode.PARENT_NOT_LOADED: "The record the row belongs to (a consumption's vehicle, "
        "a commuting period's employee, a shipment leg's hub) is not in the service: load its "
        "file first, or fix that row's rejects.",
        RejectCode.REJECTED_BY_SERVICE: "The service refused the record; the message gives the "
        "service's own code and reason.",
    }
)


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
    """Rejects for the rows of ``origin`` (which holds ``_file``, ``_sheet``, ``_row``, and
    ``_key`` for a table source's rows)."""
    if origin.empty:
        return empty_rejects()
    keys = origin["_key"] if "_key" in origin.columns else pd.Series("", index=origin.index)
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
            "key": keys.astype(object).where(keys.notna(), "").to_numpy(dtype=object),
        }
    )


def sort_rejects(rejects: pd.DataFrame) -> pd.DataFrame:
    """Rejects in reading order: file, sheet, row, column (a frame made before rejects named
    a key gets an empty one)."""
    frame = rejects.reindex(columns=list(REJECT_COLUMNS)).copy()
    frame["row"] = frame["row"].astype("int64")
    return frame.sort_values(["file", "sheet", "row", "column"], kind="stable").reset_index(
        drop=True
    )


class RejectRecord(TypedDict):
    """A reject as a plain dict, its members in ``REJECT_COLUMNS``' order."""

    file: str
    sheet: str
    row: int
    column: str
    value: str
    code: str
    message: str
    key: str


def reject_records(rejects: pd.DataFrame) -> list[RejectRecord]:
    """Rejects as plain dicts in reading order (JSON-ready: ``row`` int, the rest str)."""
    frame = sort_rejects(rejects)
    for column in ("value", "key"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), "")
    for column in ("file", "sheet", "column", "value", "code", "message", "key"):
        frame[column] = frame[column].astype(str)
    return [
        RejectRecord(
            file=str(record["file"]),
            sheet=str(record["sheet"]),
            row=int(record["row"]),
            column=str(record["column"]),
            value=str(record["value"]),
            code=str(record["code"]),
            message=str(record["message"]),
            key=str(record["key"]),
        )
        for record in frame.to_dict("records")
    ]
