"""Measure a sheet's used range from its XML, streamed, before calamine allocates a grid for it.

calamine keeps every cell that holds a value and then allocates one dense grid from the first
to the last row and column, whatever the ``<dimension>`` element says; so the used range is
found by reading every cell reference. Two passes share that job:

* the fast pass looks only at ``<c r="..."`` tags as Excel, openpyxl and xlsxwriter write them,
  with numpy over each inflated chunk; it counts empty cells too, so it can only
  overstate the range;
* the exact pass (expat, much slower) follows calamine's rules: cells without ``r`` take the
  next position, cells without a value do not count. It runs when the fast pass meets a tag it
  does not recognise or finds a range over the caps, and stops at the first cell beyond them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol
from xml.parsers import expat

import numpy as np

#: Bytes of each chunk looked at after a ``<`` (prefix, name, ``r="``, reference, quote).
_WINDOW = 64
_QUOTE, _SLASH, _GT, _COLON = 34, 47, 62, 58
_IS_DELIMITER = np.zeros(256, dtype=bool)
_IS_DELIMITER[[32, 9, 10, 13, _GT, _SLASH]] = True
_IS_UPPER = np.zeros(256, dtype=bool)
_IS_UPPER[65:91] = True
_SPACE_R_EQUALS_QUOTE = np.uint32(int.from_bytes(b' r="', "little"))
_ZEROS = np.uint64(0x3030303030303030)  # "00000000"
_SEVENTY_SIXES = np.uint64(0x7676767676767676)
_HIGH_BITS = np.uint64(0x8080808080808080)
#: A flag below 2**(64 - 8k) means the first k bytes are digits.
_BYTE_LIMITS = np.array([1 << (64 - 8 * k) for k in range(1, 8)], dtype=np.uint64)
_ROOT = re.compile(rb"<(?:([A-Za-z_][\w.\-]{0,30}):)?worksheet[\s>/]")


@dataclass(frozen=True)
class Extent:
    """The used range of a sheet: 1-based last row and column holding a value (0 when empty)."""

    rows: int
    columns: int
    #: ``<mergeCell>`` elements (calamine keeps each; the reader fills each one per batch).
    merged: int = 0

    @property
    def cells(self) -> int:
        return self.rows * self.columns


class OverCap(Exception):
    """Raised inside the exact pass at the first cell beyond a cap (internal)."""

    def __init__(self, extent: Extent) -> None:
        super().__init__("over cap")
        self.extent = extent


def measure_sheet(
    open_chunks: Callable[[], Iterator[bytes]], fits: Callable[[Extent], bool]
) -> Extent:
    """The used range of one sheet; ``open_chunks`` inflates its XML afresh on each call.

    The exact pass is used when the fast one cannot decide or finds a range that does not
    ``fit``; it stops early at the first cell that makes the range not fit.
    """
    fast = _fast_extent(open_chunks(), fits)
    if fast is not None and fits(fast):
        return fast
    return exact_extent(open_chunks(), fits)


def _fast_extent(chunks: Iterable[bytes], fits: Callable[[Extent], bool]) -> Extent | None:
    """The fast pass; None when a tag is not in the canonical form (or the range is too big
    to be sure of, so that the exact pass decides)."""
    head, chunks = _head(chunks, 4096)
    root = _ROOT.search(head)
    if root is None:
        return None
    prefix = (root.group(1) + b":") if root.group(1) else b""
    rows = columns = merged = 0
    carried = np.zeros(0, dtype=np.int64)  # our own ``:c`` found past the previous chunk
    for buffer, limit in _scan(chunks):
        cells = _tags(buffer, limit, b"<" + prefix + b"c")
        if not _canonical_references(buffer, prefix, cells):
            return None
        # A cell tag under another prefix (``<y:c``) would escape ``<c``: every ``:c`` tag
        # name must be one of this prefix's own cell tags (none without a prefix).
        own = carried
        if prefix:
            closing = _tags(buffer, limit, b"</" + prefix + b"c")
            own = np.concatenate((own, cells + len(prefix), closing + len(prefix) + 1))
        carried = own[own >= limit] - limit
        if _colon_c_tags(buffer, limit) != int((own < limit).sum()):
            return None
        found = _references(buffer, cells + len(prefix) + 6)
        if found is None:
            return None
        rows, columns = max(rows, found[0]), max(columns, found[1])
        merged += len(_tags(buffer, limit, b"<" + prefix + b"mergeCell"))
        if not fits(Extent(rows, columns, merged)):
            return None
    return Extent(rows, columns, merged)


def _head(chunks: Iterable[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """The first ``size`` bytes (or all, when fewer) and the whole stream again."""
    iterator = iter(chunks)
    taken: list[bytes] = []
    length = 0
    for chunk in iterator:
        taken.append(chunk)
        length += len(chunk)
        if length >= size:
            break
    head = b"".join(taken)

    def again() -> Iterator[bytes]:
        yield head
        yield from iterator

    return head[:size], again()


def _scan(chunks: Iterable[bytes]) -> Iterator[tuple[np.ndarray, int]]:
    """Each chunk in a numpy byte array (zero-padded) and the end of the part it answers for;
    what starts in its last _WINDOW bytes is looked at again with the next chunk. The array
    is reused from chunk to chunk: fresh allocations cost more than the scan itself."""
    raw = bytearray()
    buffer = np.frombuffer(raw, dtype=np.uint8)
    held = 0  # bytes carried over at the start of buffer
    for chunk in chunks:
        size = held + len(chunk)
        if len(raw) < size + _WINDOW:
            kept = bytes(raw[:held])
            raw = bytearray(size + _WINDOW)
            raw[:held] = kept
            buffer = np.frombuffer(raw, dtype=np.uint8)
        raw[held:size] = chunk
        buffer[size : size + _WINDOW] = 0
        if size <= _WINDOW:
            held = size
            continue
        cut = size - _WINDOW
        yield buffer, cut
        buffer[:_WINDOW] = buffer[cut:size]
        held = _WINDOW
    if held:
        buffer[held : held + _WINDOW] = 0
        yield buffer, held


def _tags(buffer: np.ndarray, limit: int, needle: bytes) -> np.ndarray:
    """Positions before ``limit`` of ``needle`` (``<`` and a tag name) followed by a space,
    ``>`` or ``/``; its first two bytes are compared as 16-bit words, at even then at odd
    offsets (two contiguous passes are much faster than one strided one)."""
    pair = np.frombuffer(needle[:2], dtype=np.uint16)[0]
    even = buffer[: limit + (limit % 2)].view(np.uint16)
    odd = buffer[1 : limit + 1 + (limit % 2)].view(np.uint16)
    matches = np.concatenate(
        (np.flatnonzero(even == pair) * 2, np.flatnonzero(odd == pair) * 2 + 1)
    )
    matches = matches[matches < limit]
    for offset in range(2, len(needle)):
        matches = matches[buffer[matches + offset] == needle[offset]]
    found: np.ndarray = matches[_IS_DELIMITER[buffer[matches + len(needle)]]]
    return found


def _canonical_references(buffer: np.ndarray, prefix: bytes, cells: np.ndarray) -> bool:
    """True when every cell tag reads ``<c r="`` (so no cell can hide from the fast pass)."""
    words = np.lib.stride_tricks.as_strided(buffer[:0].view("<u4"), (len(buffer) - 3,), (1,))
    return bool((words[cells + len(prefix) + 2] == _SPACE_R_EQUALS_QUOTE).all())


def _colon_c_tags(buffer: np.ndarray, limit: int) -> int:
    """``:c`` followed by a space, ``>`` or ``/`` with the colon before ``limit``."""
    colons = np.flatnonzero(buffer[:limit] == _COLON)
    colons = colons[buffer[colons + 1] == ord("c")]
    return int(_IS_DELIMITER[buffer[colons + 2]].sum())


def _references(buffer: np.ndarray, starts: np.ndarray) -> tuple[int, int] | None:
    """The largest row and column (1-based) of ``A1``-style references at ``starts``, each
    followed by a quote; None when one is not of that form (lowercase, ``$``, entities, more
    than 3 letters or 7 digits).

    The digits are handled eight bytes at a time as one big-endian integer: a byte that is
    not a digit is found with bit tricks, and ASCII digits of equal count order as numbers.
    """
    if not len(starts):
        return 0, 0
    first = buffer[starts]
    second = buffer[starts + 1]
    third = buffer[starts + 2]
    if not _IS_UPPER[first].all():
        return None
    two, three = _IS_UPPER[second], _IS_UPPER[second] & _IS_UPPER[third]
    letters = 1 + two.astype(np.int64) + three
    columns = first.astype(np.int32) - 64
    columns = np.where(two, columns * 26 + second - 64, columns)
    columns = np.where(three, columns * 26 + third - 64, columns)
    words = np.lib.stride_tricks.as_strided(buffer[:0].view(">u8"), (len(buffer) - 7,), (1,))
    word = words[starts + letters].astype(np.uint64)  # the 8 bytes after the letters
    offsets = word ^ _ZEROS  # each digit byte becomes 0..9
    flags = ((offsets + _SEVENTY_SIXES) | offsets) & _HIGH_BITS  # high bit of non-digits
    if not flags.all():
        return None  # eight digits or more
    # Digits before the first non-digit byte, whose flag is the most significant one.
    digits = (flags < _BYTE_LIMITS[:, None]).sum(axis=0)
    ends = starts + letters + digits
    if not ((digits >= 1) & (buffer[ends] == _QUOTE)).all():
        return None
    values = word >> ((8 - digits) * 8).astype(np.uint64)
    highest = int(np.argmax(values))
    row = bytes(buffer[ends[highest] - digits[highest] : ends[highest]]).decode("ascii")
    return int(row), int(columns.max())


def exact_extent(chunks: Iterable[bytes], fits: Callable[[Extent], bool]) -> Extent:
    """The used range as calamine computes it; raises OverCap at the first cell beyond.

    Raises ``ValueError`` (from ``parse_reference``) or ``expat.ExpatError`` on bad XML.
    """
    state = _ExactState(fits)
    stream_xml(chunks, state)
    return Extent(state.rows, state.columns, state.merged)


class XmlHandlers(Protocol):
    """What ``stream_xml`` calls for each element's start and end and for its text."""

    def start(self, name: str, attributes: dict[str, str]) -> None: ...
    def end(self, name: str) -> None: ...
    def text(self, data: str) -> None: ...


def stream_xml(chunks: Iterable[bytes], handlers: XmlHandlers) -> None:
    """Parse the XML in ``chunks`` as it streams, element names as written (no namespace
    processing, as calamine matches them), entities never expanded.

    Raises ``expat.ExpatError`` on bad XML, and whatever the handlers raise.
    """
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.StartElementHandler = handlers.start
    parser.EndElementHandler = handlers.end
    parser.CharacterDataHandler = handlers.text
    for chunk in chunks:
        parser.Parse(chunk, False)
    parser.Parse(b"", True)


class CellPosition:
    """calamine's position rules (xlsx cells reader), followed element by element: a row or
    cell with an ``r`` reference is there, one without follows the one before."""

    def __init__(self) -> None:
        self.row = 0  # 0-based, as calamine counts
        self.column = 0
        self.cell: tuple[int, int] | None = None

    def follow_start(self, local: str, attributes: dict[str, str]) -> None:
        if local == "row":
            if "r" in attributes:
                self.row = parse_reference(attributes["r"], row_only=True)[0]
        elif local == "c":
            if "r" in attributes:
                row, self.column = parse_reference(attributes["r"])
                self.cell = (row, self.column)
            else:
                self.cell = (self.row, self.column)

    def follow_end(self, local: str) -> None:
        if local == "c" and self.cell is not None:
            self.column += 1
            self.cell = None
        elif local == "row":
            self.row += 1
            self.column = 0


class _ExactState(CellPosition):
    """The extent of the cells calamine reads, element by element."""

    def __init__(self, fits: Callable[[Extent], bool]) -> None:
        super().__init__()
        self.fits = fits
        self.rows = self.columns = self.merged = 0
        self.has_value = False
        self.in_value = False

    def start(self, name: str, attributes: dict[str, str]) -> None:
        local = name.rpartition(":")[2]
        self.follow_start(local, attributes)
        if local == "c":
            self.has_value = False
        elif local == "is" and self.cell is not None:
            self.has_value = True
        elif local == "v" and self.cell is not None:
            self.in_value = True
        elif local == "mergeCell":
            self.merged += 1
            self._check()

    def text(self, data: str) -> None:
        if self.in_value and data:
            self.has_value = True

    def end(self, name: str) -> None:
        local = name.rpartition(":")[2]
        if local == "v":
            self.in_value = False
        elif local == "c" and self.cell is not None and self.has_value:
            self.rows = max(self.rows, self.cell[0] + 1)
            self.columns = max(self.columns, self.cell[1] + 1)
            self._check()
        self.follow_end(local)

    def _check(self) -> None:
        extent = Extent(self.rows, self.columns, self.merged)
        if not self.fits(extent):
            raise OverCap(extent)


def parse_reference(text: str, *, row_only: bool = False) -> tuple[int, int]:
    """0-based (row, column) of ``B7`` (``7`` alone for a row); ValueError when malformed."""
    match = re.fullmatch(r"([A-Za-z]{0,7})([0-9]{1,10})", text.strip())
    if match is None or (not row_only and not match.group(1)) or int(match.group(2)) < 1:
        raise ValueError(f"{text!r} is not a cell reference")
    column = 0
    for letter in match.group(1).upper():
        column = column * 26 + ord(letter) - 64
    return int(match.group(2)) - 1, column - 1
