"""What a cell of a source's row holds, as its reader gives it: the one definition readers,
headers and batches (and whoever copies a workbook's values) name it by."""

from __future__ import annotations

import datetime as dt
from typing import TypeAlias

#: A workbook cell's value as python-calamine reads it (of any format): text (an error cell:
#: the error it shows), a number, a boolean, a date, a date and time, a time of day, a duration.
WorkbookValue: TypeAlias = (
    "str | int | float | bool | dt.date | dt.datetime | dt.time | dt.timedelta"
)
#: A cell's value as any reader gives it (a workbook's, a delimited file's or a page's text), or
#: None where a row has no cell (the columns left of a sheet's first used one, a short row).
CellValue: TypeAlias = "WorkbookValue | None"
