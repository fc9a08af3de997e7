"""Read csv exports in bounded memory: encoding and delimiter detected unless given.

ERP exports come as UTF-8 (BOM or not), UTF-16 with a BOM (Excel's "Unicode text", tab
separated), cp1252 or Latin-1, separated by ``,`` ``;`` tabs or ``|``. The text is decoded and
checked as it streams (``text_stream``) into pandas' C parser. Every cell is read as text so
that decimal commas and leading zeros survive to validation; a cell over MAX_CELL_CHARS or a
header cell over MAX_HEADER_CHARS refuses the file with its line and column.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import BinaryIO

import numpy as np
import pandas as pd

from emissions_etl.errors import CorruptSourceError, SourceTooLargeError, UnsupportedSourceError
from emissions_etl.sources.formats import NOT_READ
from emissions_etl.sources.frames import build_batch
from emissions_etl.sources.headers import (
    HEADER_SEARCH_ROWS,
    ColumnNamer,
    HeaderMatch,
    find_header,
    locate_header,
)
from emissions_etl.sources.limits import (
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    MAX_HEADER_CHARS,
    MAX_LINE_CHARS,
    column_letters,
)
from emissions_etl.sources.text_stream import DecodedText
from emissions_etl.storage import AnyPath, open_binary

_SNIFF_BYTES = 64 * 1024
#: The longest line a header can be (MAX_COLUMNS cells of MAX_HEADER_CHARS, quoted).
_HEAD_CHARS = MAX_COLUMNS * (MAX_HEADER_CHARS + 3)
_DELIMITERS = ",;\t|"
#: Control bytes that no text file holds in numbers (tab, line feed, carriage return and form
#: feed aside); a few NULs are cells to reject, many are a binary file.
_CONTROL_BYTES = bytes(set(range(32)) - {9, 10, 12, 13}) + b"\x7f"
_BINARY_SHARE = 0.05
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FIELDS_ERROR = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_EOF_IN_QUOTES = re.compile(r"EOF inside string starting at row (\d+)")

# The csv module refuses fields over 131,072 characters by default; lines are capped (and
# cells checked) here, so it may take any field up to a line.
csv.field_size_limit(max(csv.field_size_limit(), MAX_LINE_CHARS))


def read_delimited(
    path: AnyPath,
    *,
    namer: ColumnNamer,
    encoding: str | None,
    delimiter: str | None,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    """Batches of the csv at ``path``; ``_row`` is the line number (header line = 1 usually).

    Encoding, delimiter and header are settled before the first batch, so errors raise here;
    a line that breaks the encoding later raises while iterating.
    """
    stream = open_binary(path)
    try:
        _refuse_binary(path, stream.read(_SNIFF_BYTES))
        stream.seek(0)
        text = DecodedText(stream, source=str(path), encoding=encoding)
        head = _read_head(text)
        lines = _LINE_BREAK.split(head)[: HEADER_SEARCH_ROWS + 1]
        delimiter = delimiter or detect_delimiter(lines, namer)
        header = find_header(_split(lines, delimiter), namer, source=str(path), label="line {row}")
        if header is None:
            raise UnsupportedSourceError(str(path), namer.describe_missing())
        if len(header.names) > MAX_COLUMNS:
            raise SourceTooLargeError(
                str(path),
                f"line {header.index + 1} has {len(header.names):,} header cells; "
                f"the limit is {MAX_COLUMNS:,}",
            )
        text.unread(head[_end_of_line(head, header.index) :])
    except BaseException:
        stream.close()
        raise
    return _iter_chunks(path, stream, text, header, delimiter, batch_rows)


def _refuse_binary(path: AnyPath, sample: bytes) -> None:
    """A file whose first bytes are largely control characters is not text (UTF-16 without a
    byte-order mark looks so too, one byte in two being NUL)."""
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        return  # UTF-16 or UTF-32 with a byte-order mark
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    if sample and controls / len(sample) > _BINARY_SHARE:
        hint = ""
        if sample.count(b"\x00") > len(sample) // 4:
            hint = " (UTF-16 without a byte-order mark? save it as CSV UTF-8)"
        raise UnsupportedSourceError(str(path), f"{NOT_READ} (binary content){hint}")


def _read_head(text: DecodedText) -> str:
    """The first lines of the file, enough to find the header and the delimiter; it stops
    before a line too long to be a header and once _HEAD_CHARS are read (the header search
    splits these lines several times: they are kept small)."""
    lines: list[str] = []
    total = 0
    for _ in range(HEADER_SEARCH_ROWS + 1):
        line = text.readline()
        if len(line) > _HEAD_CHARS:
            text.unread(line)
            break
        if not line:
            break
        lines.append(line)
        total += len(line)
        if total > _HEAD_CHARS:
            break
    return "".join(lines)


def _end_of_line(text: str, index: int) -> int:
    """Offset just past the line ``index`` (0-based) of ``text``."""
    ends = [match.end() for match in _LINE_BREAK.finditer(text)]
    return ends[index] if index < len(ends) else len(text)


def _iter_chunks(
    path: AnyPath,
    stream: BinaryIO,
    text: DecodedText,
    header: HeaderMatch,
    delimiter: str,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    width = len(header.names)
    first_line = header.index + 2
    try:
        chunks = pd.read_csv(
            text,
            sep=delimiter,
            header=None,
            names=list(range(width)),
            index_col=False,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            chunksize=batch_rows,
        )
        with chunks:
            for chunk in chunks:
                numbers = np.arange(first_line, first_line + len(chunk), dtype="int64")
                _check_cells(path, chunk, numbers, header)
                first_line += len(chunk)
                yield build_batch(chunk, numbers, header, file=path.name, sheet="")
    except pd.errors.EmptyDataError:
        return  # a header and nothing under it
    except (pd.errors.ParserError, csv.Error) as error:
        raise _parser_error(path, str(error), header.index + 1, width) from None
    finally:
        stream.close()


def _check_cells(
    path: AnyPath, chunk: pd.DataFrame, lines: np.ndarray, header: HeaderMatch
) -> None:
    """Refuse the file at the first cell over MAX_CELL_CHARS (no person typed it)."""
    for position, column in enumerate(chunk.columns):
        lengths = chunk[column].str.len().to_numpy(dtype="int64", na_value=0)
        if len(lengths) and lengths.max() > MAX_CELL_CHARS:
            at = int(np.argmax(lengths > MAX_CELL_CHARS))
            name = header.names[position]
            shown = f" {header.originals[name]!r}" if name else ""
            raise SourceTooLargeError(
                str(path),
                f"line {lines[at]}, column {column_letters(position)}{shown}: a cell of "
                f"{lengths[at]:,} characters; the limit is {MAX_CELL_CHARS:,}",
            )


def _parser_error(path: AnyPath, message: str, header_line: int, width: int) -> Exception:
    """pandas' tokenizer messages, with lines counted from the top of the file."""
    if found := _FIELDS_ERROR.search(message):
        line = header_line + int(found.group(2))
        return CorruptSourceError(
            str(path),
            f"line {line} has {found.group(3)} cells but the header has {width}: quote cells "
            "that hold the delimiter",
        )
    if found := _EOF_IN_QUOTES.search(message):
        line = header_line + int(found.group(1)) + 1
        return CorruptSourceError(
            str(path), f"a quoted cell that starts on line {line} never ends: check its quotes"
        )
    return CorruptSourceError(str(path), f"not a readable csv file ({message.strip()})")


def read_raw_lines(
    path: AnyPath, *, encoding: str | None = None, delimiter: str | None = None
) -> Iterator[list[str]]:
    """Every record of the file as text cells, blank lines included, so that record ``n``
    is line ``n`` (used to rebuild a csv as a workbook for annotation, and to peek at a file's
    first rows); binary content is refused as ``read_delimited`` refuses it."""
    with open_binary(path) as stream:
        _refuse_binary(path, stream.read(_SNIFF_BYTES))
        stream.seek(0)
        text = DecodedText(stream, source=str(path), encoding=encoding)
        if delimiter is None:
            head = _read_head(text)
            lines = _LINE_BREAK.split(head)[: HEADER_SEARCH_ROWS + 1]
            first = next((line for line in lines if line.strip()), "")
            delimiter = max(_DELIMITERS, key=first.count)
            text.unread(head)
        for cells in csv.reader(text, delimiter=delimiter):
            yield cells or [""]


def detect_delimiter(lines: list[str], namer: ColumnNamer) -> str:
    """The one of , ; tab | that splits a line into a recognisable header.

    csv.Sniffer is fooled by decimal commas in ``;`` files, so the header decides; when no
    candidate finds one, the most frequent candidate on the first non-blank line wins.
    """
    best, best_width = "", 0
    for candidate in _DELIMITERS:
        rows = _split(lines, candidate)
        index = locate_header(rows, namer)
        if index is not None and len(rows[index]) > best_width:
            best, best_width = candidate, len(rows[index])
    if best:
        return best
    first = next((line for line in lines if line.strip()), "")
    return max(_DELIMITERS, key=first.count)


def _split(lines: list[str], delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
