"""Sources: files people and ERPs produce, read into canonical batches that remember their origin.

``read_source`` is the only entry point; it picks the reader from the file's content
(``formats``: an xlsx, xlsb, xls or ods workbook, an HTML table, or a csv, whatever the file is
called), finds the header row, renames columns to canonical names and yields bounded batches.
Whatever the file holds, a problem with the file is one InputError (``boundary``) and no input
can exhaust memory or time (``limits``: every cap, checked before anything large is built).
A file may be an object in a store (``emissions_etl.storage``): a csv streams from it, a
workbook is read from a local copy; either way errors name the object.

Floor: above storage and errors. May import ``storage`` and ``errors``; never the client, the
warehouse or any other package of the project.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping

import pandas as pd

from emissions_etl.errors import SourceNotFoundError, UnsupportedSourceError
from emissions_etl.sources.boundary import guarded, guarded_batches
from emissions_etl.sources.csv_reader import read_delimited
from emissions_etl.sources.formats import READ_SUFFIXES, SourceFormat, detect_format
from emissions_etl.sources.frames import ORIGIN_COLUMNS
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, normalise_header
from emissions_etl.sources.html_reader import read_html
from emissions_etl.sources.workbook_reader import read_workbook
from emissions_etl.storage import AnyPath, as_path, is_file, local_file, size

__all__ = [
    "HEADER_SEARCH_ROWS",
    "ORIGIN_COLUMNS",
    "READ_SUFFIXES",
    "SourceFormat",
    "is_workbook",
    "normalise_header",
    "read_source",
    "source_format",
]


def read_source(
    path: AnyPath,
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
    path = as_path(path)
    if batch_rows < 1:
        raise ValueError("batch_rows must be at least 1")
    namer = ColumnNamer(expected_columns, aliases or {}, required_columns)
    batches = guarded(path, _open, path, namer, sheet, encoding, delimiter, batch_rows)
    return guarded_batches(path, batches)


def _open(
    path: AnyPath,
    namer: ColumnNamer,
    sheet: str | None,
    encoding: str | None,
    delimiter: str | None,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    kind = _format(path)
    if kind.is_workbook:
        return read_workbook(local_file(path), sheet=sheet, namer=namer, batch_rows=batch_rows)
    if kind is SourceFormat.HTML:
        return read_html(local_file(path), namer=namer, batch_rows=batch_rows)
    return read_delimited(
        path, namer=namer, encoding=encoding, delimiter=delimiter, batch_rows=batch_rows
    )


def source_format(path: AnyPath) -> SourceFormat:
    """What the file is, from its content (``formats``); an InputError for a file that is
    missing, empty, or none of the formats read."""
    path = as_path(path)
    return guarded(path, _format, path)


def _format(path: AnyPath) -> SourceFormat:
    if not is_file(path):
        raise SourceNotFoundError(str(path), "no such file")
    if size(path) == 0:
        raise UnsupportedSourceError(str(path), "the file is empty")
    return detect_format(path)


def is_workbook(path: AnyPath) -> bool:
    """True for a workbook read sheet by sheet (xlsx, xlsb, xls, ods, whatever its name), False
    for a csv or an HTML table; an InputError when the file is none of the formats read."""
    return source_format(path).is_workbook
