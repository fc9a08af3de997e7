"""Turn raw rows under a header into a batch frame that remembers where each row came from.

Every reader ends here, so origin columns and empty-row handling are the same for xlsx and csv.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from emissions_etl.sources.cell_values import CellValue
from emissions_etl.sources.headers import HeaderMatch

#: Origin columns added to every batch (file name, sheet name or "", row as the file shows it).
ORIGIN_COLUMNS = ("_file", "_sheet", "_row")
#: The row's key as its source names it, beside the origin of a table source's rows
#: (``txn_id=T-0101``): where a person finds the row in the ERP. Files' batches have none.
ROW_KEY_COLUMN = "_key"
#: Beside each row of a table source's batch: how many rows of the result hold its key.
KEY_ROWS_COLUMN = "_key_rows"


def carried_origin(frame: pd.DataFrame) -> list[str]:
    """The origin columns ``frame`` carries: ``ORIGIN_COLUMNS``, and the row key when it has
    one."""
    return [*ORIGIN_COLUMNS, *([ROW_KEY_COLUMN] if ROW_KEY_COLUMN in frame.columns else [])]


def build_batch(
    rows: Sequence[Sequence[CellValue]] | pd.DataFrame,
    row_numbers: np.ndarray,
    header: HeaderMatch,
    *,
    file: str,
    sheet: str,
    keep_empty: bool = False,
) -> pd.DataFrame:
    """A frame of ``rows`` named by ``header``, fully-empty rows dropped (numbers not reused)
    unless ``keep_empty`` (a table's rows: each is a row of its source, its key says which).

    Cells under a blank header cell are dropped: nobody can say what they mean.
    """
    width = len(header.names)
    if isinstance(rows, pd.DataFrame):
        frame = rows.set_axis(range(rows.shape[1]), axis=1)
    else:
        frame = pd.DataFrame([list(row) for row in _fit(rows, width)], columns=range(width))
    keep = [position for position, name in enumerate(header.names) if name]
    frame = frame[keep]
    frame.columns = [header.names[position] for position in keep]
    filled = None if keep_empty else _filled_mask(frame)
    if filled is not None:
        frame = frame[filled]
        row_numbers = row_numbers[filled]
    frame = frame.reset_index(drop=True)
    frame["_file"] = file
    frame["_sheet"] = sheet
    frame["_row"] = np.asarray(row_numbers, dtype="int64")
    frame.attrs["headers"] = dict(header.originals)
    return frame


def _fit(rows: Sequence[Sequence[CellValue]], width: int) -> Sequence[Sequence[CellValue]]:
    """Rows cut or padded to the header's width (csv rows may be ragged)."""
    if all(len(row) == width for row in rows):
        return rows
    return [list(row[:width]) + [None] * (width - len(row)) for row in rows]


def _filled_mask(frame: pd.DataFrame) -> np.ndarray | None:
    """True for rows with at least one non-blank cell; None when every row has one."""
    if frame.empty:
        return None
    filled = np.zeros(len(frame), dtype=bool)
    for column in frame.columns:
        values = frame[column]
        present = values.notna().to_numpy().copy()
        if pd.api.types.is_string_dtype(values.dtype) and values.dtype != object:
            present &= (values.str.strip() != "").fillna(False).to_numpy(dtype=bool)
        elif values.dtype == object:
            # Readers give "" for an empty cell; comparing objects is vectorised, str() is not.
            present &= (values != "").to_numpy(dtype=bool)
        filled |= present
    return None if filled.all() else filled
