"""Check an Excel binary workbook (.xlsb) before calamine opens it.

An .xlsb is a zip like an xlsx whose parts hold binary records instead of XML. calamine loads a
sheet into a dense grid over the cells it reads (so one cell in column 4,000,000,000 asks for
an impossible grid), indexes the shared strings with each cell's number without checking it,
reads an error cell as empty, skips a formula whose result is an error, and reports no merged
cells. So each sheet's records are walked here first, as calamine walks them: its used range
is measured, its shared-string numbers checked, its error cells noted with the error each
shows, and its merged ranges kept; the workbook's parts are checked like an xlsx's.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from pathlib import Path

from emissions_etl.errors import CorruptSourceError, SourceTooLargeError, UnsupportedSourceError
from emissions_etl.sources import limits
from emissions_etl.sources.workbook_package import Merge, ScannedSheet, ScannedWorkbook
from emissions_etl.sources.xls_package import ERROR_TEXTS
from emissions_etl.sources.xlsx_errors import ErrorCollector
from emissions_etl.sources.xlsx_extent import Extent
from emissions_etl.sources.xlsx_package import relationships
from emissions_etl.sources.zip_package import (
    ZIP_MAGIC,
    Inflater,
    Members,
    ascii_lower,
    open_members,
)

_WORKBOOK = "xl/workbook.bin"
_RELS = "xl/_rels/workbook.bin.rels"
_STRINGS = "xl/sharedstrings.bin"
_STYLES = "xl/styles.bin"
_SHEET_KINDS = ("worksheets", "chartsheets", "dialogsheets")
# Record types (MS-XLSB 2.3).
_BUNDLE_SH, _END_BUNDLE_SHS, _BEGIN_SST, _SST_ITEM = 0x009C, 0x0090, 0x009F, 0x0013
_ROW_HDR, _WS_DIM, _END_SHEET_DATA, _MERGE_CELL = 0x0000, 0x0094, 0x0092, 0x00B0
_CELL_ERROR, _CELL_ISST, _FMLA_ERROR = 0x0003, 0x0007, 0x000B
#: Cell records calamine reads (BrtCellRk .. BrtFmlaBool), and the formula error it skips.
_CELLS = frozenset(range(0x0002, 0x000C))
#: calamine stops reading a sheet at a row header beyond Excel's last row.
_LAST_ROW = 0x0010_0000


def inspect_xlsb(path: Path) -> ScannedWorkbook:
    """Every sheet of the workbook measured, in calamine's order; a one-line InputError when it
    is damaged or over a cap (each sheet is checked when it is read: calamine loads it then)."""
    with path.open("rb") as stream:
        if stream.read(4) != ZIP_MAGIC:
            raise UnsupportedSourceError(str(path), "not an .xlsb workbook")
        members = open_members(path, stream)
        inflater = Inflater(path, stream, members)
        if _WORKBOOK not in members:
            raise CorruptSourceError(str(path), f"the workbook has no {_WORKBOOK}")
        targets = {}
        if _RELS in members:
            targets = relationships(inflater.read_small(members[_RELS]), path, _RELS)
        named = _sheets(path, inflater.read_small(members[_WORKBOOK]), targets, members)
        if _STYLES in members:
            inflater.drain(members[_STYLES], limits.MAX_PART_BYTES)
        strings = _count_strings(path, inflater, members)
        sheets = [
            _scan_sheet(path, name, inflater.chunks(members[member], limits.MAX_SHEET_XML_BYTES),
                        strings)
            for name, member in named
        ]  # fmt: skip
    return ScannedWorkbook(path, sheets)


def _sheets(
    path: Path, data: bytes, targets: dict[str, str], members: Members
) -> list[tuple[str, str]]:
    """(name, zip member) of each sheet workbook.bin lists, as calamine resolves them."""
    found = []
    for kind, record in _records(path, [data]):
        if kind == _END_BUNDLE_SHS:
            break
        if kind != _BUNDLE_SH:
            continue
        relation, offset = _wide_string(path, record, 8)
        if relation is None:
            continue  # calamine skips a sheet without a relationship
        name, _ = _wide_string(path, record, offset)
        target = targets.get(relation)
        if target is None:
            raise CorruptSourceError(str(path), f"sheet {name!r} has no part in the workbook")
        member = ascii_lower(f"xl/{target}")
        if target.split("/")[0] not in _SHEET_KINDS or member not in members:
            raise CorruptSourceError(str(path), f"sheet {name!r} names a missing part {target!r}")
        found.append((name or "", member))
    return found


def _count_strings(path: Path, inflater: Inflater, members: Members) -> int:
    """The shared strings calamine will hold (the number BrtBeginSst declares), bounded."""
    info = members.get(_STRINGS)
    if info is None:
        return 0
    declared = items = 0
    chunks = inflater.chunks(info, limits.MAX_SHARED_STRINGS_BYTES)
    for kind, record in _records(path, chunks):
        if kind == _BEGIN_SST and len(record) >= 8:
            declared = struct.unpack_from("<I", record, 4)[0]
        elif kind == _SST_ITEM:
            items += 1
            if items > limits.MAX_SHARED_STRINGS:
                raise SourceTooLargeError(
                    str(path),
                    f"the shared-strings table holds more than {limits.MAX_SHARED_STRINGS:,} "
                    "strings; the limit is that many",
                )
    return min(declared, items)


def _scan_sheet(path: Path, name: str, chunks: Iterable[bytes], strings: int) -> ScannedSheet:
    rows = columns = 0
    row = 0
    longest = 0  # calamine reads the dimension from a buffer as long as the longest record yet
    in_data = stopped = False
    errors = ErrorCollector()
    merges: list[Merge] = []
    for kind, record in _records(path, chunks):
        longest = max(longest, len(record))
        if kind == _WS_DIM and longest < 16:
            raise _damaged(path, f"sheet {name!r} has a cut-short dimension record")
        if kind == _MERGE_CELL and len(record) >= 16:
            first_row, last_row, first_column, last_column = struct.unpack_from("<IIII", record)
            merges.append(((first_row, first_column), (last_row, last_column)))
            if len(merges) > limits.MAX_MERGED_RANGES:
                break
        if stopped:
            continue
        if kind == 0x0091:  # BrtBeginSheetData
            in_data = True
        elif not in_data:
            continue
        elif kind == _END_SHEET_DATA:
            stopped = True
        elif kind == _ROW_HDR and len(record) >= 4:
            row = struct.unpack_from("<I", record)[0]
            stopped = row > _LAST_ROW
        elif kind in _CELLS and len(record) >= 4:
            column = struct.unpack_from("<I", record)[0]
            rows, columns = max(rows, row + 1), max(columns, column + 1)
            if kind == _CELL_ISST and struct.unpack_from("<I", record, 8)[0] >= strings:
                raise _damaged(path, f"sheet {name!r} refers to a shared string it lacks")
            if kind in (_CELL_ERROR, _FMLA_ERROR):
                text = ERROR_TEXTS.get(record[8]) if len(record) > 8 else None
                if text is None:
                    raise _damaged(path, f"sheet {name!r} holds an unknown error value")
                errors.keep(row, column, text)
    return ScannedSheet(name, Extent(rows, columns, len(merges)), errors.found(), merges)


def _records(path: Path, chunks: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """(type, payload) of each record: a type of 1-2 bytes and a size of 1-4 bytes, 7 bits
    each, then the payload (MS-XLSB 2.1.4)."""
    buffer = bytearray()
    offset = 0
    source = iter(chunks)
    exhausted = False

    def need(count: int) -> bool:
        nonlocal buffer, offset, exhausted
        while len(buffer) - offset < count and not exhausted:
            chunk = next(source, None)
            if chunk is None:
                exhausted = True
            else:
                del buffer[:offset]
                offset = 0
                buffer += chunk
        return len(buffer) - offset >= count

    while need(1):
        first = buffer[offset]
        kind, offset = first & 0x7F, offset + 1
        if first & 0x80:
            if not need(1):
                raise _damaged(path, "a record is cut short")
            kind, offset = kind + ((buffer[offset] & 0x7F) << 7), offset + 1
        size = 0
        for index in range(4):
            if not need(1):
                raise _damaged(path, "a record is cut short")
            byte, offset = buffer[offset], offset + 1
            size += (byte & 0x7F) << (7 * index)
            if not byte & 0x80:
                break
        if not need(size):
            raise _damaged(path, "a record runs past the end of its part")
        yield kind, bytes(buffer[offset : offset + size])
        offset += size


def _wide_string(path: Path, record: bytes, offset: int) -> tuple[str | None, int]:
    """An XLWideString at ``offset`` (a count of UTF-16 characters, then them; 0xFFFFFFFF for
    none) and the offset after it."""
    if len(record) < offset + 4:
        raise _damaged(path, "a sheet's record is cut short")
    (count,) = struct.unpack_from("<I", record, offset)
    if count == 0xFFFFFFFF:
        return None, offset + 4
    end = offset + 4 + 2 * count
    if len(record) < end:
        raise _damaged(path, "a sheet's record is cut short")
    return record[offset + 4 : end].decode("utf-16-le", "replace"), end


def _damaged(path: Path, why: str) -> CorruptSourceError:
    return CorruptSourceError(
        str(path), f"the .xlsb workbook is damaged ({why}): open it in Excel and save it again"
    )
