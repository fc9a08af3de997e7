"""Check an xlsx's zip before calamine opens it: members, sizes, ratios, parts and sheets.

calamine (Rust) aborts the process when an allocation fails, so nothing it could be asked to
allocate is left unchecked: every member is inflated (``zip_package``) to learn its true size,
whatever the zip declares; shared strings are counted; each sheet's used range is measured
(``xlsx_extent``), and noted when it holds error cells (``xlsx_errors``). Part names are
resolved as calamine resolves them.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

import numpy as np

from emissions_etl.errors import CorruptSourceError, SourceTooLargeError, UnsupportedSourceError
from emissions_etl.sources import limits
from emissions_etl.sources.formula_errors import XLSX_READABLE
from emissions_etl.sources.workbook_package import (
    Merge,
    describe_over_cap,
    describe_total,
    fits,
)
from emissions_etl.sources.xlsx_errors import (
    MARKER_TAIL,
    NO_ERRORS,
    ErrorCells,
    find_error_cells,
    has_marker,
)
from emissions_etl.sources.xlsx_extent import Extent, OverCap, measure_sheet
from emissions_etl.sources.zip_package import (
    ZIP_MAGIC,
    Inflater,
    Members,
    ascii_lower,
    open_members,
)

_WORKBOOK = "xl/workbook.xml"
_WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
_SHARED_STRINGS = "xl/sharedStrings.xml"
_STYLES = "xl/styles.xml"


@dataclass(frozen=True)
class SheetPart:
    """A sheet as workbook.xml lists it, with the zip member holding its XML."""

    name: str
    member: str | None
    visible: bool


@dataclass
class XlsxPackage:
    """What was learned about the workbook (a ``WorkbookPackage``); ``check_sheet`` refuses a
    sheet over the caps. Sheets are named as workbook.xml names them, as calamine does."""

    path: Path
    sheets: list[SheetPart]
    extents: dict[str, Extent] = field(default_factory=dict)
    #: Members whose XML holds ``t="e"``: sheets with error cells to look for.
    with_errors: set[str] = field(default_factory=set)

    def bind(self, names: list[str]) -> None:
        """Nothing to learn: workbook.xml named the sheets as calamine names them."""

    def merged_ranges(self, name: str) -> list[Merge] | None:
        """None: calamine reports an xlsx's merged ranges itself."""
        return None

    def check_sheet(self, name: str) -> None:
        """Raise SourceTooLargeError when calamine would allocate too much for the sheet."""
        part = next((sheet for sheet in self.sheets if sheet.name == name), None)
        if part is None or part.member is None:
            return  # calamine reports a sheet it cannot find; nothing is allocated
        extent = self.extents.get(part.member)
        if extent is not None and not fits(extent):
            raise SourceTooLargeError(str(self.path), describe_over_cap(name, extent))

    def error_cells(self, name: str) -> ErrorCells:
        """The sheet's error cells (calamine reads them as empty); UnsupportedSourceError
        naming the first cell whose error calamine cannot read (it would refuse the sheet)."""
        part = next((sheet for sheet in self.sheets if sheet.name == name), None)
        if part is None or part.member not in self.with_errors:
            return NO_ERRORS
        with self.path.open("rb") as stream, zipfile.ZipFile(stream) as archive:
            members = {ascii_lower(info.filename): info for info in archive.infolist()}
            inflater = Inflater(self.path, stream, members)
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
            raise SourceTooLargeError(str(self.path), describe_total(names, total))


def inspect_xlsx(path: Path) -> XlsxPackage:
    """Check the zip and every part calamine will read; raise a one-line InputError if any is
    damaged, encrypted, another format, or over a cap of ``limits``."""
    with path.open("rb") as stream:
        if stream.read(4) != ZIP_MAGIC:
            raise UnsupportedSourceError(str(path), "not an xlsx workbook")
        members = open_members(path, stream)
        return _inspect_parts(path, stream, members)


def _inspect_parts(path: Path, stream: BinaryIO, members: Members) -> XlsxPackage:
    if _WORKBOOK not in members:
        raise UnsupportedSourceError(
            str(path), "not an xlsx workbook (the zip has no xl/workbook.xml)"
        )
    inflater = Inflater(path, stream, members)
    if _WORKBOOK_RELS not in members:
        raise CorruptSourceError(str(path), f"the workbook has no {_WORKBOOK_RELS}")
    targets = relationships(inflater.read_small(members[_WORKBOOK_RELS]), path)
    sheets = _sheets(inflater.read_small(members[_WORKBOOK]), targets, members, path)
    package = XlsxPackage(path, sheets)
    if _STYLES in members:
        inflater.drain(members[_STYLES], limits.MAX_PART_BYTES)
    shared_strings = members.get(ascii_lower(_SHARED_STRINGS))
    if shared_strings is not None:
        _check_shared_strings(inflater, shared_strings)
    # Every listed sheet, hidden ones too: calamine reads them all for their merged ranges.
    for member in dict.fromkeys(sheet.member for sheet in sheets if sheet.member is not None):
        package.extents[member], errors = _measure(inflater, members[member])
        if errors:
            package.with_errors.add(member)
    return package


def _measure(inflater: Inflater, info: zipfile.ZipInfo) -> tuple[Extent, bool]:
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
        return measure_sheet(chunks, fits), marked
    except OverCap as over:
        return over.extent, marked
    except (expat.ExpatError, ValueError) as error:
        raise CorruptSourceError(
            str(inflater.path), f"{info.filename} is not valid sheet XML ({error})"
        ) from None


def _check_shared_strings(inflater: Inflater, info: zipfile.ZipInfo) -> None:
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


def relationships(xml: bytes, path: Path, part: str = _WORKBOOK_RELS) -> dict[str, str]:
    """Relationship id -> target of a relationships part (xl/_rels/workbook.xml.rels)."""
    found: dict[str, str] = {}

    def start(name: str, attributes: dict[str, str]) -> None:
        if name.rpartition(":")[2] == "Relationship" and "Id" in attributes:
            found[attributes["Id"]] = attributes.get("Target", "")

    _parse(xml, start, path, part)
    return found


def _sheets(xml: bytes, targets: dict[str, str], members: Members, path: Path) -> list[SheetPart]:
    """The sheets of workbook.xml with their members, resolved as calamine does: a target
    ``/xl/...`` or ``xl/...`` is taken as is, anything else is under ``xl/``."""
    sheets: list[SheetPart] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        if name.rpartition(":")[2] != "sheet":
            return
        relation = attributes.get("r:id", attributes.get("relationships:id"))
        target = targets.get(relation or "")
        member = None
        if target is not None:
            if target.startswith("/xl/"):
                target = target[1:]
            elif not target.startswith("xl/"):
                target = f"xl/{target}"
            member = ascii_lower(target)
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
