"""Check a workbook's zip before calamine opens it: members, sizes, ratios, parts and sheets.

calamine (Rust) aborts the process when an allocation fails, so nothing it could be asked to
allocate is left unchecked: every member is inflated here (streamed, no extraction) to learn
its true size, whatever the zip declares; shared strings are counted; each sheet's used range
is measured (``xlsx_extent``), and noted when it holds error cells (``xlsx_errors``). Part names
are resolved as calamine resolves them.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

import numpy as np

from emissions_etl.errors import (
    CorruptSourceError,
    EncryptedSourceError,
    SourceTooLargeError,
    UnsupportedSourceError,
)
from emissions_etl.sources import limits
from emissions_etl.sources.formula_errors import XLSX_READABLE
from emissions_etl.sources.xlsx_errors import (
    MARKER_TAIL,
    NO_ERRORS,
    ErrorCells,
    find_error_cells,
    has_marker,
)
from emissions_etl.sources.xlsx_extent import Extent, OverCap, measure_sheet

_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
#: Inflated bytes per chunk, and compressed bytes read at a time (small enough that zlib
#: rarely has input left over, which it would copy on every call).
_INFLATE_CHUNK = 1024 * 1024
_RAW_CHUNK = 64 * 1024
_WORKBOOK = "xl/workbook.xml"
_WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
_SHARED_STRINGS = "xl/sharedStrings.xml"
_STYLES = "xl/styles.xml"
#: Other formats calamine reads whose size cannot be checked cheaply before it allocates.
_OTHER_FORMATS = {
    "xl/workbook.bin": "an .xlsb (binary) workbook",
    "content.xml": "an OpenDocument (.ods) spreadsheet",
    "word/document.xml": "a Word document",
    "ppt/presentation.xml": "a PowerPoint presentation",
}


@dataclass(frozen=True)
class SheetPart:
    """A sheet as workbook.xml lists it, with the zip member holding its XML."""

    name: str
    member: str | None
    visible: bool


@dataclass
class WorkbookPackage:
    """What was learned about the workbook; ``check_sheet`` refuses a sheet over the caps."""

    path: Path
    sheets: list[SheetPart]
    extents: dict[str, Extent] = field(default_factory=dict)
    #: Members whose XML holds ``t="e"``: sheets with error cells to look for.
    with_errors: set[str] = field(default_factory=set)

    def check_sheet(self, name: str) -> None:
        """Raise SourceTooLargeError when calamine would allocate too much for the sheet."""
        part = next((sheet for sheet in self.sheets if sheet.name == name), None)
        if part is None or part.member is None:
            return  # calamine reports a sheet it cannot find; nothing is allocated
        extent = self.extents.get(part.member)
        if extent is not None and not _fits(extent):
            raise SourceTooLargeError(str(self.path), _describe(name, extent))

    def error_cells(self, name: str) -> ErrorCells:
        """The sheet's error cells (calamine reads them as empty); UnsupportedSourceError
        naming the first cell whose error calamine cannot read (it would refuse the sheet)."""
        part = next((sheet for sheet in self.sheets if sheet.name == name), None)
        if part is None or part.member not in self.with_errors:
            return NO_ERRORS
        with self.path.open("rb") as stream, zipfile.ZipFile(stream) as archive:
            members = {_ascii_lower(info.filename): info for info in archive.infolist()}
            inflater = _Inflater(self.path, stream, members)
            chunks = inflater.chunks(members[part.member], limits.MAX_SHEET_XML_BYTES)
            try:
                cells = find_error_cells(chunks)
            except (expat.ExpatError, ValueError) as error:
                raise CorruptSourceError(
                    str(self.path), f"{part.member} is not valid sheet XML ({error})"
                ) from None
        unreadable = cells.first_of(XLSX_READABLE)
        if unreadable is not None:
            row, column, shown = unreadable
            raise UnsupportedSourceError(
                str(self.path),
                f"sheet {name!r}, cell {limits.column_letters(column)}{row + 1} shows {shown}, "
                "an error value that cannot be read: correct its formula (or paste values over "
                "it) and save again",
            )
        return cells

    def check_total(self, names: list[str]) -> None:
        """Raise SourceTooLargeError when the sheets read together exceed the cell cap."""
        members = {sheet.member for sheet in self.sheets if sheet.name in names}
        total = sum(self.extents[member].cells for member in members if member in self.extents)
        if total > limits.MAX_CELLS:
            raise SourceTooLargeError(
                str(self.path),
                f"the sheets {', '.join(map(repr, names))} use {total:,} cells together; "
                f"the limit is {limits.MAX_CELLS:,}: read one at a time with --sheet",
            )


def inspect_workbook(path: Path) -> WorkbookPackage:
    """Check the zip and every part calamine will read; raise a one-line InputError if any is
    damaged, encrypted, another format, or over a cap of ``limits``."""
    with path.open("rb") as stream:
        magic = stream.read(8)
        if magic == _OLE_MAGIC:
            raise _ole_error(path, stream)
        if magic[:4] != _ZIP_MAGIC:
            raise UnsupportedSourceError(str(path), "not an xlsx or csv file")
        declared = _declared_members(stream)
        if declared is not None and declared > limits.MAX_MEMBERS:
            raise SourceTooLargeError(
                str(path),
                f"the zip lists {declared:,} members; the limit is {limits.MAX_MEMBERS:,}",
            )
        try:
            archive = zipfile.ZipFile(stream)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as error:
            raise CorruptSourceError(
                str(path), f"the workbook is damaged or truncated ({error}): save it again"
            ) from None
        with archive:
            members = _check_members(path, archive)
            return _inspect_parts(path, stream, members)


def _declared_members(stream: BinaryIO) -> int | None:
    """Members the zip's end record lists (zip64 too), read before zipfile builds an entry
    for each; None when there is no end record (zipfile then reports the damage)."""
    size = stream.seek(0, 2)
    stream.seek(max(0, size - 65_557))  # the end record and its longest comment
    tail = stream.read()
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) < end + 22:
        return None
    count = int(struct.unpack_from("<H", tail, end + 10)[0])
    locator = end - 20
    if count == 0xFFFF and locator >= 0 and tail[locator : locator + 4] == b"PK\x06\x07":
        (offset,) = struct.unpack_from("<Q", tail, locator + 8)
        stream.seek(offset)
        record = stream.read(56)
        if len(record) == 56 and record[:4] == b"PK\x06\x06":
            count = int(struct.unpack_from("<Q", record, 32)[0])
    stream.seek(0)
    return count


def _ole_error(path: Path, stream: BinaryIO) -> UnsupportedSourceError:
    """An OLE container is either an encrypted xlsx or a legacy .xls workbook."""
    stream.seek(0)
    tail = b""
    while chunk := stream.read(_INFLATE_CHUNK):
        if _ENCRYPTED_PACKAGE in tail + chunk:
            return EncryptedSourceError(
                str(path), "the workbook is password-protected: remove the password and save again"
            )
        tail = chunk[-len(_ENCRYPTED_PACKAGE) :]
    return UnsupportedSourceError(
        str(path), "a legacy .xls workbook is not read: save it as .xlsx (Excel Workbook)"
    )


def _check_members(path: Path, archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """Members by lower-cased name (calamine finds parts ignoring case), declared sizes
    checked; duplicate names and encrypted or exotic members refused."""
    infos = archive.infolist()
    if len(infos) > limits.MAX_MEMBERS:
        raise SourceTooLargeError(
            str(path), f"the zip holds {len(infos):,} members; the limit is {limits.MAX_MEMBERS:,}"
        )
    members: dict[str, zipfile.ZipInfo] = {}
    declared = 0
    for info in infos:
        key = _ascii_lower(info.filename)
        if key in members:
            raise CorruptSourceError(str(path), f"the zip holds {info.filename!r} twice")
        members[key] = info
        if info.flag_bits & 0x1:
            raise EncryptedSourceError(str(path), "the zip's members are encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UnsupportedSourceError(
                str(path), f"zip member {info.filename!r} uses compression {info.compress_type}"
            )
        declared += info.file_size
        _check_ratio(path, info.filename, info.file_size, info.compress_size)
    if declared > limits.MAX_UNCOMPRESSED_BYTES:
        raise SourceTooLargeError(
            str(path),
            f"the zip declares {_size(declared)} uncompressed; the limit is "
            f"{_size(limits.MAX_UNCOMPRESSED_BYTES)}",
        )
    return members


def _check_ratio(path: Path, name: str, inflated: int, compressed: int) -> None:
    if inflated <= limits.RATIO_FLOOR_BYTES:
        return
    ratio = inflated / max(compressed, 1)
    if ratio > limits.MAX_COMPRESSION_RATIO:
        raise SourceTooLargeError(
            str(path),
            f"zip member {name!r} inflates {ratio:,.0f}x ({_size(compressed)} -> "
            f"{_size(inflated)}); the limit is {limits.MAX_COMPRESSION_RATIO}x: a zip bomb, "
            "not a workbook",
        )


def _inspect_parts(
    path: Path, stream: BinaryIO, members: dict[str, zipfile.ZipInfo]
) -> WorkbookPackage:
    if _WORKBOOK not in members:
        kind = next((kind for part, kind in _OTHER_FORMATS.items() if part in members), None)
        if kind is not None:
            reason = f"{kind} is not read: save it as .xlsx (Excel Workbook)"
        else:
            reason = "not an xlsx workbook (the zip has no xl/workbook.xml)"
        raise UnsupportedSourceError(str(path), reason)
    inflater = _Inflater(path, stream, members)
    if _WORKBOOK_RELS not in members:
        raise CorruptSourceError(str(path), f"the workbook has no {_WORKBOOK_RELS}")
    relationships = _relationships(inflater.read_small(members[_WORKBOOK_RELS]), path)
    sheets = _sheets(inflater.read_small(members[_WORKBOOK]), relationships, members, path)
    package = WorkbookPackage(path, sheets)
    if _STYLES in members:
        inflater.drain(members[_STYLES], limits.MAX_PART_BYTES)
    shared_strings = members.get(_ascii_lower(_SHARED_STRINGS))
    if shared_strings is not None:
        _check_shared_strings(inflater, shared_strings)
    # Every listed sheet, hidden ones too: calamine reads them all for their merged ranges.
    for member in dict.fromkeys(sheet.member for sheet in sheets if sheet.member is not None):
        package.extents[member], errors = _measure(inflater, members[member])
        if errors:
            package.with_errors.add(member)
    return package


def _measure(inflater: _Inflater, info: zipfile.ZipInfo) -> tuple[Extent, bool]:
    """The sheet's extent, and whether its XML holds ``t="e"`` (error cells)."""
    marked = False

    def chunks() -> Iterator[bytes]:
        nonlocal marked
        tail = b""
        for chunk in inflater.chunks(info, limits.MAX_SHEET_XML_BYTES):
            marked = marked or has_marker(chunk, tail)
            tail = chunk[-MARKER_TAIL:]
            yield chunk

    try:
        return measure_sheet(chunks, _fits), marked
    except OverCap as over:
        return over.extent, marked
    except (expat.ExpatError, ValueError) as error:
        raise CorruptSourceError(
            str(inflater.path), f"{info.filename} is not valid sheet XML ({error})"
        ) from None


def _fits(extent: Extent) -> bool:
    return (
        extent.columns <= limits.MAX_COLUMNS
        and extent.rows <= limits.MAX_ROWS
        and extent.cells <= limits.MAX_CELLS
        and extent.merged <= limits.MAX_MERGED_RANGES
    )


def _describe(name: str, extent: Extent) -> str:
    if extent.merged > limits.MAX_MERGED_RANGES:
        return (
            f"sheet {name!r} has {extent.merged:,} merged ranges; the limit is "
            f"{limits.MAX_MERGED_RANGES:,}"
        )
    corner = f"{limits.column_letters(extent.columns - 1)}{extent.rows}"
    return (
        f"sheet {name!r} uses A1:{corner} ({extent.columns:,} columns x {extent.rows:,} rows) "
        "or more; "
        f"the limit is {limits.MAX_COLUMNS:,} columns, {limits.MAX_ROWS:,} rows and "
        f"{limits.MAX_CELLS:,} cells: delete what lies beyond the data (Ctrl+End shows the "
        "last used cell) and save again"
    )


def _check_shared_strings(inflater: _Inflater, info: zipfile.ZipInfo) -> None:
    """calamine loads every shared string at open: bound their bytes and their number."""
    count = 0
    tail = b""
    for chunk in inflater.chunks(info, limits.MAX_SHARED_STRINGS_BYTES):
        data = tail + chunk
        # A tag is 4 bytes (``<si>``): the last 3 are counted with the next chunk.
        count += _count_items(data)
        tail = data[-3:]
        if count > limits.MAX_SHARED_STRINGS:
            raise SourceTooLargeError(
                str(inflater.path),
                f"the shared-strings table holds more than {limits.MAX_SHARED_STRINGS:,} "
                "strings; the limit is that many",
            )


def _count_items(data: bytes) -> int:
    """``<si>`` items, with or without a namespace prefix, counted by their ``si`` tag name;
    only tags that start before the last 3 bytes (so that each is counted once)."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    if len(buffer) < 4:
        return 0
    starts = np.flatnonzero(
        ((buffer[:-3] == ord("<")) | (buffer[:-3] == ord(":")))
        & (buffer[1:-2] == ord("s"))
        & (buffer[2:-1] == ord("i"))
    )
    return int(np.isin(buffer[starts + 3], (32, 9, 10, 13, ord(">"), ord("/"))).sum())


class _Inflater:
    """Streams members' bytes from their compressed data, counting what they really inflate
    to (a zip may declare any size), never holding more than a chunk."""

    def __init__(self, path: Path, stream: BinaryIO, members: dict[str, zipfile.ZipInfo]):
        self.path = path
        self.stream = stream
        self.members = members
        self.total = 0

    def read_small(self, info: zipfile.ZipInfo) -> bytes:
        return b"".join(self.chunks(info, limits.MAX_PART_BYTES))

    def drain(self, info: zipfile.ZipInfo, cap: int) -> None:
        for _ in self.chunks(info, cap):
            pass

    def chunks(self, info: zipfile.ZipInfo, cap: int) -> Iterator[bytes]:
        produced = 0
        inflate = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
        for raw in self._raw(info):
            pending = raw
            while pending:
                if inflate is None:
                    out, pending = pending, b""
                else:
                    out = inflate.decompress(pending, _INFLATE_CHUNK)
                    pending = inflate.unconsumed_tail
                produced += len(out)
                self._account(info, produced, len(out), cap)
                if out:
                    yield out
        if inflate is not None:
            rest = inflate.flush()
            produced += len(rest)
            self._account(info, produced, len(rest), cap)
            if rest:
                yield rest
            if not inflate.eof:
                raise self._damaged(info, "its compressed data ends early")
        if produced != info.file_size:
            raise self._damaged(info, f"it inflates to {produced:,} bytes, not {info.file_size:,}")

    def _account(self, info: zipfile.ZipInfo, produced: int, added: int, cap: int) -> None:
        self.total += added
        if produced > info.file_size:
            raise self._damaged(info, f"it inflates to more than the {info.file_size:,} declared")
        if produced > cap:
            raise SourceTooLargeError(
                str(self.path), f"zip member {info.filename!r} is over {_size(cap)} uncompressed"
            )
        if self.total > limits.MAX_UNCOMPRESSED_BYTES:
            raise SourceTooLargeError(
                str(self.path),
                f"the zip inflates to over {_size(limits.MAX_UNCOMPRESSED_BYTES)}",
            )

    def _raw(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        self.stream.seek(info.header_offset)
        header = self.stream.read(30)
        if len(header) < 30 or header[:4] != _ZIP_MAGIC:
            raise self._damaged(info, "its local header is missing")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        self.stream.seek(info.header_offset + 30 + name_length + extra_length)
        remaining = info.compress_size
        while remaining:
            raw = self.stream.read(min(remaining, _RAW_CHUNK))
            if not raw:
                raise self._damaged(info, "the file is truncated")
            remaining -= len(raw)
            yield raw

    def _damaged(self, info: zipfile.ZipInfo, why: str) -> CorruptSourceError:
        return CorruptSourceError(
            str(self.path), f"zip member {info.filename!r} is damaged ({why}): save the file again"
        )


def _relationships(xml: bytes, path: Path) -> dict[str, str]:
    """Relationship id -> target of xl/_rels/workbook.xml.rels."""
    found: dict[str, str] = {}

    def start(name: str, attributes: dict[str, str]) -> None:
        if name.rpartition(":")[2] == "Relationship" and "Id" in attributes:
            found[attributes["Id"]] = attributes.get("Target", "")

    _parse(xml, start, path, _WORKBOOK_RELS)
    return found


def _sheets(
    xml: bytes, relationships: dict[str, str], members: dict[str, zipfile.ZipInfo], path: Path
) -> list[SheetPart]:
    """The sheets of workbook.xml with their members, resolved as calamine does: a target
    ``/xl/...`` or ``xl/...`` is taken as is, anything else is under ``xl/``."""
    sheets: list[SheetPart] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        if name.rpartition(":")[2] != "sheet":
            return
        relation = attributes.get("r:id", attributes.get("relationships:id"))
        target = relationships.get(relation or "")
        member = None
        if target is not None:
            if target.startswith("/xl/"):
                target = target[1:]
            elif not target.startswith("xl/"):
                target = f"xl/{target}"
            member = _ascii_lower(target)
            member = member if member in members else None
        visible = attributes.get("state", "visible") == "visible"
        sheets.append(SheetPart(attributes.get("name", ""), member, visible))

    _parse(xml, start, path, _WORKBOOK)
    return sheets


def _parse(xml: bytes, start: Callable[[str, dict[str, str]], None], path: Path, part: str) -> None:
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as error:
        raise CorruptSourceError(str(path), f"{part} is not valid XML ({error})") from None


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(name: str) -> str:
    """Lower-cased as calamine compares part names (ASCII letters only)."""
    return name.translate(_ASCII_LOWER)


def _size(count: int) -> str:
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} bytes"
