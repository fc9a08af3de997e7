"""Read an HTML table as a sheet: what SAP GUI's "Spreadsheet" export and many web tools write
and name ``.xls`` (Excel opens it without a word), or a page saved as ``.htm``/``.html``.

The page is streamed with lxml's HTML parser (libxml2, forgiving as browsers are), each row
dropped once read, so memory stays bounded whatever its size. The first table whose header (in
its first rows, below any title rows) fits the columns asked for is read; a page with no table,
or none that fits, is one clear line. Cells are text as the page shows it: numbers and dates
stay in the page's locale (``1.234,5``, ``04.03.2026``) for validation's cell parsers, which
read decimal commas and day-first dates. A cell spanning columns or rows (``colspan``,
``rowspan``) fills each cell it covers with its value, as merged cells are read. Rows are
numbered as counted in their table (its first ``<tr>`` is row 1).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

import numpy as np
import pandas as pd
from lxml import etree

from emissions_etl.errors import SourceTooLargeError, UnsupportedSourceError
from emissions_etl.sources.frames import build_batch
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, HeaderMatch, find_header
from emissions_etl.sources.limits import MAX_CELL_CHARS, MAX_COLUMNS, column_letters

#: The most rows one cell may span downwards (HTML's own limit).
_MAX_ROWSPAN = 65_534
_SPACES = re.compile(r"[\s\u00a0]+")
_CHARSET = re.compile(rb"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_SNIFF_BYTES = 64 * 1024

#: A row of a table: (the table's number in the page, 1-based; the row's number in its table,
#: 1-based; its cells as text).
TableRow = tuple[int, int, list[str]]


def read_html(path: Path, *, namer: ColumnNamer, batch_rows: int) -> Iterator[pd.DataFrame]:
    """Batches of the first table of the page whose header fits ``namer``; ``_row`` is the
    row as counted in that table. The header is found before the first batch, so a page with
    no table, or none that fits, raises at the call."""
    rows = html_rows(path)
    heads: dict[int, list[list[str]]] = {}
    found: tuple[int, HeaderMatch] | None = None
    for table, number, cells in rows:
        head = heads.setdefault(table, [])
        if len(head) >= HEADER_SEARCH_ROWS:
            continue
        head.append(cells)
        label = f"table {table}, row {number}"
        header = find_header([cells], namer, source=str(path), label=label)
        if header is not None:
            found = (table, header)
            break
    if found is None:
        rows.close()
        if not heads:
            raise UnsupportedSourceError(str(path), "an HTML page with no table in it")
        raise UnsupportedSourceError(
            str(path), f"{namer.describe_missing()} of any of its {len(heads)} HTML tables"
        )
    table, header = found
    return _batches(path, rows, table, header, batch_rows)


def _batches(
    path: Path,
    rows: Generator[TableRow, None, None],
    table: int,
    header: HeaderMatch,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    mine = ((number, cells) for index, number, cells in rows if index == table)
    try:
        while batch := list(islice(mine, batch_rows)):
            numbers = np.array([number for number, _ in batch], dtype="int64")
            yield build_batch([cells for _, cells in batch], numbers, header,
                              file=path.name, sheet="")  # fmt: skip
    finally:
        rows.close()


def html_tables(path: Path) -> Iterator[tuple[int, list[list[str]]]]:
    """Each table of the page with its rows, in the order the tables end (for a copy of the
    page)."""
    tables: dict[int, list[list[str]]] = {}
    for table, _, cells in html_rows(path):
        tables.setdefault(table, []).append(cells)
    yield from sorted(tables.items())


@dataclass
class _Table:
    """A table being read: its number, its rows so far, the cells spanning down into the next
    rows (column -> value, rows left)."""

    number: int
    rows: int = 0
    spans: dict[int, tuple[str, int]] = field(default_factory=dict)


def html_rows(path: Path) -> Generator[TableRow, None, None]:
    """Every row of every table of the page, as the parser finishes it (a nested table's rows
    come before the row holding it); each element is dropped once read."""
    events = etree.iterparse(
        str(path),
        events=("start", "end"),
        tag=("table", "tr"),
        html=True,
        encoding=_encoding(path),
        no_network=True,
        huge_tree=False,
    )
    open_tables: list[_Table] = []
    count = 0
    for event, element in events:
        if element.tag == "table":
            if event == "start":
                count += 1
                open_tables.append(_Table(count))
            elif open_tables:
                open_tables.pop()
                _drop(element)
            continue
        if event != "end" or not open_tables:
            continue
        table = open_tables[-1]
        table.rows += 1
        cells = _row_cells(path, element, table)
        _drop(element)
        yield table.number, table.rows, cells


def _row_cells(path: Path, row: etree._Element, table: _Table) -> list[str]:
    """The row's cells as text, laid out as a browser does: a cell spanning columns fills
    each, and cells spanning down from rows above take their columns first."""
    cells: list[str] = []
    column = 0
    for cell in row:
        if cell.tag not in ("td", "th"):
            continue
        column = _skip_spanned(cells, column, table)
        text = _text(cell)
        if len(text) > MAX_CELL_CHARS:
            raise SourceTooLargeError(
                str(path),
                f"table {table.number}, row {table.rows + 1}, column {column_letters(column)}: "
                f"a cell of {len(text):,} characters; the limit is {MAX_CELL_CHARS:,}",
            )
        across = _span(cell.get("colspan"), MAX_COLUMNS)
        down = _span(cell.get("rowspan"), _MAX_ROWSPAN)
        for _ in range(across):
            if column >= MAX_COLUMNS:
                raise SourceTooLargeError(
                    str(path),
                    f"table {table.number}, row {table.rows}: more than {MAX_COLUMNS:,} "
                    "columns; the limit is that many",
                )
            cells.append(text)
            if down > 1:
                table.spans[column] = (text, down - 1)
            column += 1
    _skip_spanned(cells, column, table, to_end=True)
    return cells


def _skip_spanned(cells: list[str], column: int, table: _Table, *, to_end: bool = False) -> int:
    """Fill the columns from ``column`` that cells of rows above still cover (all of them to
    the right with ``to_end``); the next free column."""
    while column in table.spans or (to_end and any(c >= column for c in table.spans)):
        value, left = table.spans.pop(column, ("", 0))
        cells.append(value)
        if left > 1:
            table.spans[column] = (value, left - 1)
        column += 1
    return column


def _span(text: str | None, most: int) -> int:
    """A colspan or rowspan as browsers read it: a number from 1 up to ``most``, else 1."""
    digits = (text or "").strip()
    number = int(digits) if digits.isdigit() else 1
    return min(max(number, 1), most)


def _text(cell: etree._Element) -> str:
    """The cell's text as a browser shows it: white space collapsed, ``<br>`` a line break."""
    for line_break in cell.iter("br"):
        line_break.tail = "\n" + (line_break.tail or "")
    text = etree.tostring(cell, method="text", encoding="unicode", with_tail=False)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n")).strip()


def _drop(element: etree._Element) -> None:
    """Free a finished element and the siblings read before it."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def _encoding(path: Path) -> str | None:
    """The page's encoding when it does not say it: from a byte-order mark, else UTF-8 when
    its start reads as UTF-8, else Windows-1252 (what such exports use); None when the page
    names its charset (libxml2 reads it)."""
    with path.open("rb") as stream:
        head = stream.read(_SNIFF_BYTES)
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):  # fmt: skip
        if head.startswith(bom):
            return name
    if _CHARSET.search(head[:4096]):
        return None
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:  # not a character cut by the end of the sample
            return "windows-1252"
    return "utf-8"
