"""Find a sheet's error cells (``<c t="e">``), which calamine reads as empty cells.

A cell whose formula failed is stored with ``t="e"`` and the error as its cached value
(``<v>#DIV/0!</v>``). calamine hands such a cell on as an empty one, and refuses the whole sheet
for an error value outside the seven it knows (``#SPILL!``, ``#CALC!``...). So the measuring
pass over each sheet's XML (``xlsx_package``) also notes whether ``t="e"`` occurs at all (two
``bytes.find`` per inflated megabyte); only a sheet where it does is streamed once more, through
expat, to learn where its error cells are. Their positions follow calamine's rules, like the
exact pass of ``xlsx_extent``: a cell without ``r`` takes the next column, a row without ``r``
the next row. Positions are kept in arrays (13 bytes a cell), so a whole column of ``#N/A``
costs little.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from emissions_etl.sources.xlsx_extent import CellPosition, stream_xml

#: How an error cell's type attribute is written (attributes carry no namespace prefix).
MARKERS = (b't="e"', b"t='e'")
_MARKER_LENGTH = 5


#: Bytes of a chunk's end to carry to the next one, so a marker cut in two is still seen.
MARKER_TAIL = _MARKER_LENGTH - 1


def has_marker(chunk: bytes, tail: bytes) -> bool:
    """True when ``t="e"`` occurs in ``chunk``, or across from ``tail`` (the last MARKER_TAIL
    bytes of the chunk before it); the chunk itself is searched in place, never copied."""
    joint = tail + chunk[:MARKER_TAIL]
    return any(marker in chunk or marker in joint for marker in MARKERS)


@dataclass(frozen=True)
class ErrorCells:
    """The error cells of one sheet: 0-based rows (ascending) and columns, and the error each
    holds (an index into ``texts``)."""

    rows: np.ndarray
    columns: np.ndarray
    codes: np.ndarray
    texts: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.rows)

    def between(self, start: int, stop: int) -> Iterator[tuple[int, int, str]]:
        """(row, column, error) of the cells in rows ``start`` to ``stop`` (excluded)."""
        first, last = np.searchsorted(self.rows, [start, stop])
        for index in range(int(first), int(last)):
            yield int(self.rows[index]), int(self.columns[index]), self.texts[self.codes[index]]

    def first_of(self, texts: frozenset[str]) -> tuple[int, int, str] | None:
        """The first error cell (in reading order) whose error is not among ``texts``."""
        unknown = [code for code, text in enumerate(self.texts) if text not in texts]
        if not unknown:
            return None
        index = int(np.flatnonzero(np.isin(self.codes, unknown))[0])
        return int(self.rows[index]), int(self.columns[index]), self.texts[self.codes[index]]


NO_ERRORS = ErrorCells(
    np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint8), ()
)


def find_error_cells(chunks: Iterable[bytes]) -> ErrorCells:
    """Every error cell of the sheet XML in ``chunks``, in reading order.

    Raises ``expat.ExpatError`` or ``ValueError`` (a malformed reference) on bad XML.
    """
    state = _ErrorState()
    stream_xml(chunks, state)
    return state.found()


class ErrorCollector:
    """Error cells kept as they are found (any format), in arrays: 13 bytes a cell."""

    def __init__(self) -> None:
        self.rows = array("q")
        self.columns = array("i")
        self.codes = array("B")
        self.texts: dict[str, int] = {}

    def keep(self, row: int, column: int, text: str) -> None:
        """Note the 0-based cell (row, column) showing the error ``text``."""
        text = text[:64]
        if len(self.texts) < 256:
            code = self.texts.setdefault(text, len(self.texts))
        else:  # no real sheet holds 256 kinds of error: the rest share the last kind
            code = self.texts.get(text, 255)
        self.rows.append(row)
        self.columns.append(column)
        self.codes.append(code)

    def found(self) -> ErrorCells:
        """Every cell kept, ordered by row (rows may be written out of order)."""
        if not self.rows:
            return NO_ERRORS
        rows = np.frombuffer(self.rows, dtype=np.int64)
        order = np.argsort(rows, kind="stable")
        texts = tuple(sorted(self.texts, key=self.texts.__getitem__))
        return ErrorCells(
            rows[order],
            np.frombuffer(self.columns, dtype=np.int32)[order],
            np.frombuffer(self.codes, dtype=np.uint8)[order],
            texts,
        )


class _ErrorState(CellPosition, ErrorCollector):
    """calamine's position rules, keeping error cells."""

    def __init__(self) -> None:
        CellPosition.__init__(self)
        ErrorCollector.__init__(self)
        self.is_error = False
        self.value: list[str] | None = None

    def start(self, name: str, attributes: dict[str, str]) -> None:
        local = name.rpartition(":")[2]
        self.follow_start(local, attributes)
        if local == "c":
            self.is_error = attributes.get("t") == "e"
        elif local == "v" and self.cell is not None and self.is_error:
            self.value = []

    def text(self, data: str) -> None:
        if self.value is not None:
            self.value.append(data)

    def end(self, name: str) -> None:
        local = name.rpartition(":")[2]
        if local == "v" and self.value is not None:
            text = "".join(self.value).strip()
            self.value = None
            if text and self.cell is not None:
                self.keep(self.cell[0], self.cell[1], text)
        elif local == "c":
            self.is_error = False
        self.follow_end(local)
