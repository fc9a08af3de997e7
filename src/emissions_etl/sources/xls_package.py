"""Check a legacy .xls workbook (BIFF in a compound file) before calamine opens it.

calamine parses every sheet of an .xls when it opens the workbook, each into a dense grid over
the cells it read, after reserving room for the used range the sheet's DIMENSIONS record claims;
and it reads a cell whose formula failed, or that holds an error, as an empty cell. So the
workbook stream is walked here first, record by record as calamine walks it: each sheet's used
range is measured from the same cell records, its claimed range and merged ranges are checked,
and its error cells are noted with the error they show. A workbook saved with a password (its
FILEPASS record) is refused as password-protected.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

from emissions_etl.errors import CorruptSourceError, EncryptedSourceError
from emissions_etl.sources.ole_package import CompoundFile
from emissions_etl.sources.workbook_package import (
    ScannedSheet,
    ScannedWorkbook,
    check_loaded_at_open,
)
from emissions_etl.sources.xlsx_errors import ErrorCollector
from emissions_etl.sources.xlsx_extent import Extent

#: The stream names calamine tries, in its order.
WORKBOOK_STREAMS = ("Workbook", "Book", "WORKBOOK", "BOOK")
#: The most an .xls sheet can hold (BIFF8): a DIMENSIONS record claiming more is damaged.
_GRID_ROWS, _GRID_COLUMNS = 65_536, 256
#: BIFF error codes (MS-XLS 2.5.97 BErr) and the text each shows.
ERROR_TEXTS = {
    0x00: "#NULL!", 0x07: "#DIV/0!", 0x0F: "#VALUE!", 0x17: "#REF!", 0x1D: "#NAME?",
    0x24: "#NUM!", 0x2A: "#N/A", 0x2B: "#GETTING_DATA",
}  # fmt: skip
_EOF, _BOF, _CONTINUE, _FILEPASS, _BOUNDSHEET = 0x000A, 0x0809, 0x003C, 0x002F, 0x0085
_DIMENSIONS, _MERGECELLS, _FORMULA, _STRING = 0x0200, 0x00E5, 0x0006, 0x0207
_BOOLERR, _MULRK = 0x0205, 0x00BD
#: The BOF records a workbook stream starts with (BIFF8/5, and BIFF4, 3, 2).
_BOFS = frozenset({0x0809, 0x0409, 0x0209, 0x0009})
#: Records that are one cell each, and the least length calamine reads of them.
_CELLS = {0x0203: 14, 0x0204: 0, 0x00D6: 0, 0x027E: 10, 0x00FD: 10}
_U16, _U32 = struct.Struct("<H"), struct.Struct("<I")


def inspect_xls(path: Path, compound: CompoundFile) -> ScannedWorkbook:
    """Every sheet of the workbook measured, in calamine's order (a one-line InputError when
    the workbook is damaged or password-protected)."""
    name = next((name for name in WORKBOOK_STREAMS if name in compound.names), None)
    if name is None:
        raise CorruptSourceError(str(path), "the compound file holds no workbook stream")
    stream = compound.stream(name)
    walker = _Walker(path, stream)
    sheets = [walker.sheet(position, name) for position, name in walker.globals()]
    check_loaded_at_open(path, sheets)
    return ScannedWorkbook(path, sheets)


class _Walker:
    """calamine's record iterator (a record, then the CONTINUE records that follow it)."""

    def __init__(self, path: Path, stream: bytes) -> None:
        self.path = path
        self.stream = stream

    def records(self, offset: int) -> Iterator[tuple[int, int, int]]:
        stream, size = self.stream, len(self.stream)
        while offset < size:
            if size - offset < 4:
                raise self._damaged("a record is cut short")
            kind, length = struct.unpack_from("<HH", stream, offset)
            start, offset = offset + 4, offset + 4 + length
            if offset > size:
                raise self._damaged("a record runs past the end of the workbook stream")
            while size - offset > 4 and _U16.unpack_from(stream, offset)[0] == _CONTINUE:
                offset += 4 + _U16.unpack_from(stream, offset + 2)[0]
                if offset > size:
                    raise self._damaged("a record runs past the end of the workbook stream")
            yield kind, start, length

    def globals(self) -> list[tuple[int, str]]:
        """The offset of each sheet's substream and its name, in the order BOUNDSHEET records
        list them."""
        positions: list[tuple[int, str]] = []
        biff8 = True
        if len(self.stream) < 4 or _U16.unpack_from(self.stream)[0] not in _BOFS:
            raise self._damaged("its workbook stream does not start as a workbook does")
        for kind, start, length in self.records(0):
            if kind == _FILEPASS and length >= 2 and _U16.unpack_from(self.stream, start)[0]:
                raise EncryptedSourceError(
                    str(self.path),
                    "the workbook is password-protected: remove the password and save again",
                )
            if kind == _BOF and length >= 2:
                biff8 = _U16.unpack_from(self.stream, start)[0] == 0x0600
            if kind == _BOUNDSHEET:
                if length < 6:
                    raise self._damaged("a sheet's record is cut short")
                record = self.stream[start : start + length]
                positions.append((_U32.unpack_from(record)[0], _sheet_name(record, biff8)))
            elif kind == _EOF:
                break
        if not positions:
            raise self._damaged("it lists no sheet")
        for position, _ in positions:
            if position > len(self.stream):
                raise self._damaged("a sheet starts beyond the end of the workbook stream")
        return positions

    def sheet(self, position: int, name: str) -> ScannedSheet:
        """The sheet whose substream starts at ``position``: its extent as calamine's grid
        will span it, its merged ranges counted, its error cells noted."""
        stream = self.stream
        rows = columns = merged = 0
        errors = ErrorCollector()
        formula_at = (0, 0)
        seen_bof, depth = False, 0
        for kind, start, length in self.records(position):
            if depth:
                depth += 1 if kind == _BOF else -1 if kind == _EOF else 0
                continue
            cells: list[tuple[int, int]] = []
            if kind == _EOF:
                break
            if kind == _BOF:
                depth, seen_bof = (depth + 1 if seen_bof else depth), True
            elif kind in _CELLS:
                if length < max(_CELLS[kind], 4):
                    raise self._damaged("a cell's record is cut short")
                cells.append(_position(stream, start))
            elif kind == _BOOLERR:
                if length < 8:
                    raise self._damaged("a cell's record is cut short")
                cell = _position(stream, start)
                cells.append(cell)
                if stream[start + 7] == 1:
                    errors.keep(*cell, _error_text(self, stream[start + 6]))
            elif kind == _FORMULA:
                if length < 20:
                    raise self._damaged("a formula's record is cut short")
                formula_at = _position(stream, start)
                value = stream[start + 6 : start + 14]
                if value[6:] != b"\xff\xff" or value[0] in (1, 2, 3):
                    cells.append(formula_at)
                if value[6:] == b"\xff\xff" and value[0] == 2:
                    errors.keep(*formula_at, _error_text(self, value[2]))
            elif kind == _STRING:
                cells.append(formula_at)
            elif kind == _MULRK:
                if length < 6:
                    raise self._damaged("a cell's record is cut short")
                row, first = struct.unpack_from("<HH", stream, start)
                (last,) = _U16.unpack_from(stream, start + length - 2)
                if last >= first:
                    cells += [(row, first), (row, last)]
            elif kind == _DIMENSIONS:
                self._check_dimensions(stream[start : start + length])
            elif kind == _MERGECELLS:
                count = _U16.unpack_from(stream, start)[0] if length >= 2 else 0
                if length < 2 + 8 * count:
                    raise self._damaged("its merged cells record is cut short")
                merged += count
            for row, column in cells:
                rows, columns = max(rows, row + 1), max(columns, column + 1)
        return ScannedSheet(name, Extent(rows, columns, merged), errors.found())

    def _check_dimensions(self, record: bytes) -> None:
        """calamine reserves room for the range DIMENSIONS claims (with its arithmetic, which
        wraps around): a claim beyond an .xls sheet's grid is a damaged record."""
        if len(record) == 10:
            first_row, last_row, first_column, last_column = struct.unpack_from("<HHHH", record)
        elif len(record) == 14:
            first_row, last_row, first_column, last_column = struct.unpack_from("<IIHH", record)
        else:
            return  # calamine refuses the workbook itself
        if first_column > 0xFF or last_column < first_column:
            first_column = 0
        if last_row >= 1 and last_column >= 1:
            height = (last_row - 1 - first_row + 1) % 2**32
            width = (last_column - 1 - first_column + 1) % 2**32
            if height > _GRID_ROWS or width > _GRID_COLUMNS:
                raise self._damaged(
                    f"a sheet claims {height:,} rows and {width:,} columns, more than an .xls "
                    "sheet holds"
                )

    def _damaged(self, why: str) -> CorruptSourceError:
        return CorruptSourceError(
            str(self.path),
            f"the .xls workbook is damaged ({why}): open it in Excel and save it again",
        )


def _sheet_name(record: bytes, biff8: bool) -> str:
    """A BOUNDSHEET's name (for messages before calamine names the sheets): BIFF8 writes
    1-byte (Latin-1) or UTF-16 characters, older versions the workbook's code page."""
    count = record[6] if len(record) > 6 else 0
    if not biff8:
        return record[7 : 7 + count].decode("cp1252", "replace")
    wide = len(record) > 7 and record[7] & 1
    text = record[8 : 8 + count * (2 if wide else 1)]
    return text.decode("utf-16-le" if wide else "latin-1", "replace")


def _position(stream: bytes, start: int) -> tuple[int, int]:
    row, column = struct.unpack_from("<HH", stream, start)
    return row, column


def _error_text(walker: _Walker, code: int) -> str:
    text = ERROR_TEXTS.get(code)
    if text is None:  # calamine refuses the workbook for an unknown error code
        raise walker._damaged(f"a cell holds the unknown error code {code:#04x}")
    return text
