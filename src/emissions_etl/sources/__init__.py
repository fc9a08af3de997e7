"""Sources: files people and ERPs produce, read into canonical batches that remember their origin.

``read_source`` is the only entry point; it picks the reader from the file's suffix (or its first
bytes), finds the header row, renames columns to canonical names and yields bounded batches.
Whatever the file holds, a problem with the file is one InputError (``boundary``) and no input
can exhaust memory or time (``limits``: every cap, checked before anything large is built).

Floor: above errors only. May import ``errors``; never the client, the warehouse or any other
package of the project.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pandas as pd

from emissions_etl.errors import SourceNotFoundError, UnsupportedSourceError
from emissions_etl.sources.boundary import guarded, guarded_batches
from emissions_etl.sources.csv_reader import read_delimited
from emissions_etl.sources.frames import ORIGIN_COLUMNS
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, normalise_header
from emissions_etl.sources.xlsx_reader import read_workbook

__all__ = [
    "HEADER_SEARCH_ROWS",
    "ORIGIN_COLUMNS",
    "WORKBOOK_SUFFIXES",
    "is_workbook",
    "normalise_header",
    "read_source",
]

#: Suffixes read by calamine; everything else that is text is read as csv.
WORKBOOK_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".xlsb", ".ods"})
_TEXT_SUFFIXES = frozenset({".csv", ".txt", ".tsv"})
_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"


def read_source(
    path: Path,
    *,
    sheet: str | None = None,
    expected_columns: Collection[str],
    aliases: Mapping[str, str] | None = None,
    encoding: str | None = None,
    delimiter: str | None = None,
    batch_rows: int = 100_000,
    required_columns: Collection[str] | None = None,
) -> Iterator[pd.DataFrame]:
    """Yield batches of at most ``batch_rows`` rows with canonical column names.

    Headers match ``expected_columns`` or ``aliases`` ignoring case, spaces, underscores,
    hyphens and dots; other columns keep their normalised header. Each batch adds ``_file``,
    ``_sheet`` ("" for csv) and ``_row`` (the row number the file shows), and
    ``attrs["headers"]`` maps each column to its header text. The header row is the first of
    the top 30 rows naming every ``required_columns`` (or half of ``expected_columns``).

    Raises SourceNotFoundError, SheetNotFoundError and UnsupportedSourceError (or one of its
    subclasses: CorruptSourceError, EncryptedSourceError, SourceTooLargeError,
    SourceEncodingError, DuplicateColumnError), at the call or while iterating; never another
    exception for anything the file holds.
    """
    path = Path(path)
    if batch_rows < 1:
        raise ValueError("batch_rows must be at least 1")
    namer = ColumnNamer(expected_columns, aliases or {}, required_columns)
    batches = guarded(path, _open, path, namer, sheet, encoding, delimiter, batch_rows)
    return guarded_batches(path, batches)


def _open(
    path: Path,
    namer: ColumnNamer,
    sheet: str | None,
    encoding: str | None,
    delimiter: str | None,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    if not path.is_file():
        raise SourceNotFoundError(str(path), "no such file")
    if path.stat().st_size == 0:
        raise UnsupportedSourceError(str(path), "the file is empty")
    if is_workbook(path):
        return read_workbook(path, sheet=sheet, namer=namer, batch_rows=batch_rows)
    return read_delimited(
        path, namer=namer, encoding=encoding, delimiter=delimiter, batch_rows=batch_rows
    )


def is_workbook(path: Path) -> bool:
    """True for a workbook (by suffix, or by zip/OLE magic bytes), False for text; a file that
    is neither by its suffix raises UnsupportedSourceError."""
    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES:
        return True
    with path.open("rb") as stream:
        magic = stream.read(4)
    if magic in (_ZIP_MAGIC, _OLE_MAGIC):
        return True
    if suffix in _TEXT_SUFFIXES or not suffix:
        return False
    raise UnsupportedSourceError(str(path), f"not an xlsx or csv file (suffix {suffix!r})")
