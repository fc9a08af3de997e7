"""Check an OpenDocument spreadsheet (.ods) before calamine opens it.

An .ods is a zip whose ``content.xml`` holds every sheet (``table:table``); calamine parses all of
them when it opens the file, expanding rows and cells repeated by ``number-rows-repeated`` and
``number-columns-repeated`` (a few bytes can claim a million rows), first into a list of each
row's cells and then into a dense grid per sheet. It reads a cell whose formula failed as the
number LibreOffice stores under it (0) or as empty, and reports no merged cells. So
``content.xml`` is streamed here first, following calamine's rules: each sheet's used range and
stored cells are measured and checked against the caps, and its error cells (``calcext:value-type
="error"``, with the error the cell shows) and merged ranges (``number-columns-spanned``,
``number-rows-spanned``) are noted. A file saved with a password is refused as such.
"""

from __future__ import annotations

from pathlib import Path
from xml.parsers import expat

from emissions_etl.errors import (
    CorruptSourceError,
    EncryptedSourceError,
    SourceTooLargeError,
    UnsupportedSourceError,
)
from emissions_etl.sources import limits
from emissions_etl.sources.workbook_package import (
    Merge,
    ScannedSheet,
    ScannedWorkbook,
    check_loaded_at_open,
    describe_over_cap,
    fits,
)
from emissions_etl.sources.xlsx_errors import ErrorCollector
from emissions_etl.sources.xlsx_extent import Extent, stream_xml
from emissions_etl.sources.zip_package import ZIP_MAGIC, Inflater, open_members

MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_MANIFEST = "meta-inf/manifest.xml"
_CONTENT = "content.xml"
#: calamine's own bounds on the rows and columns it expands repeats to.
_ODS_ROWS, _ODS_COLUMNS = 1_048_576, 16_384
#: Attributes that give a cell a value (calamine's ``get_datatype``).
_VALUES = ("office:value", "office:string-value", "office:date-value", "office:time-value",
           "office:boolean-value")  # fmt: skip
_CELLS = ("table:table-cell", "table:covered-table-cell")


def inspect_ods(path: Path) -> ScannedWorkbook:
    """Every sheet of the spreadsheet measured, in calamine's order; a one-line InputError when
    it is damaged, password-protected or over a cap."""
    with path.open("rb") as stream:
        if stream.read(4) != ZIP_MAGIC:
            raise UnsupportedSourceError(str(path), "not an OpenDocument spreadsheet")
        members = open_members(path, stream)
        inflater = Inflater(path, stream, members)
        for needed, shown in (("mimetype", "mimetype"), (_MANIFEST, "META-INF/manifest.xml"),
                              (_CONTENT, "content.xml")):  # fmt: skip
            if needed not in members:
                raise CorruptSourceError(
                    str(path),
                    f"the spreadsheet is damaged (it has no {shown}): save it again in LibreOffice",
                )
        if inflater.read_small(members["mimetype"], 1024)[: len(MIMETYPE)] != MIMETYPE:
            raise UnsupportedSourceError(str(path), "an OpenDocument file, not a spreadsheet")
        if b"encryption-data" in inflater.read_small(members[_MANIFEST]):
            raise EncryptedSourceError(
                str(path),
                "the spreadsheet is password-protected: remove the password and save again",
            )
        scan = _ContentScan(path)
        try:
            stream_xml(inflater.chunks(members[_CONTENT], limits.MAX_SHEET_XML_BYTES), scan)
        except (expat.ExpatError, ValueError) as error:
            raise CorruptSourceError(
                str(path), f"content.xml is not valid spreadsheet XML ({error})"
            ) from None
    check_loaded_at_open(path, scan.sheets)
    return ScannedWorkbook(path, scan.sheets)


class _Table:
    """The sheet being read: where its rows are, what it used and holds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows = 0  # rows so far, repeats counted (calamine's total_rows)
        self.row_start = 0
        self.row_repeats = 1
        self.column = 0  # columns so far in the row, repeats counted
        self.pending = 0  # empty cells not stored yet (only stored before a non-empty one)
        self.last_row = self.last_column = 0  # 1-based extent of cells holding something
        self.stored = 0  # cells calamine keeps before building the grid
        self.errors = ErrorCollector()
        self.merges: list[Merge] = []


class _ContentScan:
    """content.xml, element by element, as calamine's ods reader walks it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sheets: list[ScannedSheet] = []
        self.table: _Table | None = None
        self.stored_total = 0
        self.cell: tuple[int, int, int] | None = None  # row, column, repeats of an error cell
        self.shown: list[str] | None = None

    def start(self, name: str, attributes: dict[str, str]) -> None:
        table = self.table
        if table is None:
            if name == "table:table" and "table:name" in attributes:
                self.table = _Table(attributes["table:name"])
            return
        if name == "table:table-row":
            repeats = min(_count(attributes, "table:number-rows-repeated"),
                          _ODS_ROWS - table.rows)  # fmt: skip
            table.row_start, table.row_repeats = table.rows, repeats
            table.rows += repeats
            table.column = table.pending = 0
        elif name in _CELLS and self.shown is None:
            self._cell(table, attributes)

    def _cell(self, table: _Table, attributes: dict[str, str]) -> None:
        repeats = _count(attributes, "table:number-columns-repeated")
        filled = (
            any(key in attributes for key in _VALUES)
            or bool(attributes.get("table:formula"))
            or attributes.get("office:value-type") == "string"
        )
        if not filled:
            table.pending += repeats
            return
        table.pending = min(table.pending, _ODS_COLUMNS - table.column)
        table.column += table.pending
        table.stored += table.pending
        table.pending = 0
        repeats = min(repeats, _ODS_COLUMNS - table.column)
        column = table.column
        table.column += repeats
        table.stored += repeats
        if repeats:
            table.last_row = max(table.last_row, table.row_start + table.row_repeats)
            table.last_column = max(table.last_column, column + repeats)
        spanned = (_count(attributes, "table:number-rows-spanned"),
                   _count(attributes, "table:number-columns-spanned"))  # fmt: skip
        if spanned != (1, 1):
            row = table.row_start
            table.merges.append(((row, column), (row + spanned[0] - 1, column + spanned[1] - 1)))
        self._check(table)
        if attributes.get("calcext:value-type") == "error" and repeats:
            self.cell, self.shown = (table.row_start, column, repeats), []

    def text(self, data: str) -> None:
        if self.shown is not None:
            self.shown.append(data)

    def end(self, name: str) -> None:
        table = self.table
        if table is None:
            return
        if name in _CELLS and self.shown is not None and self.cell is not None:
            row, column, repeats = self.cell
            shown = "".join(self.shown).strip() or "#VALUE!"
            for r in range(row, row + table.row_repeats):
                for c in range(column, column + repeats):
                    table.errors.keep(r, c, shown)
            self.cell, self.shown = None, None
        elif name == "table:table":
            self.stored_total += table.stored
            extent = Extent(table.last_row, table.last_column, len(table.merges))
            self.sheets.append(ScannedSheet(table.name, extent, table.errors.found(), table.merges))
            self.table = None

    def _check(self, table: _Table) -> None:
        extent = Extent(table.last_row, table.last_column, len(table.merges))
        if not fits(extent):
            raise SourceTooLargeError(str(self.path), describe_over_cap(table.name, extent))
        if self.stored_total + table.stored > limits.MAX_CELLS:
            raise SourceTooLargeError(
                str(self.path),
                f"sheet {table.name!r} repeats its cells into more than {limits.MAX_CELLS:,} "
                "cells, all loaded when the spreadsheet is opened",
            )


def _count(attributes: dict[str, str], name: str) -> int:
    """A repeat or span count (1 when absent); ValueError when it is not a count."""
    text = attributes.get(name)
    if text is None:
        return 1
    if not text.isdigit():
        raise ValueError(f"{name}={text!r} is not a count")
    return int(text)
