"""Read csv exports in bounded memory: encoding and delimiter detected unless given.

ERP exports come as UTF-8 with a BOM, cp1252 or Latin-1, separated by ``,`` ``;`` tabs or ``|``.
Every cell is read as text so that decimal commas and leading zeros survive to validation.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.sources.frames import build_batch
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, HeaderMatch, find_header

_SAMPLE_BYTES = 256 * 1024
_DELIMITERS = ",;\t|"


def read_delimited(
    path: Path,
    *,
    namer: ColumnNamer,
    encoding: str | None,
    delimiter: str | None,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    """Batches of the csv at ``path``; ``_row`` is the line number (header line = 1 usually).

    Encoding, delimiter and header are settled before the first batch, so errors raise here.
    """
    with path.open("rb") as stream:
        sample = stream.read(_SAMPLE_BYTES)
    if b"\x00" in sample:
        raise UnsupportedSourceError(str(path), "not an xlsx or csv file (binary content)")
    encoding = encoding or detect_encoding(sample)
    text = _decode_sample(path, sample, encoding)
    lines = text.splitlines()[: HEADER_SEARCH_ROWS + 1]
    delimiter = delimiter or detect_delimiter(lines, namer)
    header = find_header(_split(lines, delimiter), namer)
    if header is None:
        raise UnsupportedSourceError(str(path), namer.describe_missing())
    return _iter_chunks(path, header, encoding, delimiter, batch_rows)


def _iter_chunks(
    path: Path, header: HeaderMatch, encoding: str, delimiter: str, batch_rows: int
) -> Iterator[pd.DataFrame]:
    width = len(header.names)
    try:
        chunks = pd.read_csv(
            path,
            sep=delimiter,
            encoding=encoding,
            header=None,
            names=list(range(width)),
            index_col=False,
            skiprows=header.index + 1,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            chunksize=batch_rows,
        )
        first_line = header.index + 2
        for chunk in chunks:
            numbers = np.arange(first_line, first_line + len(chunk), dtype="int64")
            first_line += len(chunk)
            yield build_batch(chunk, numbers, header, file=path.name, sheet="")
    except UnicodeDecodeError as error:
        raise UnsupportedSourceError(
            str(path), f"cannot decode as {encoding} ({error.reason}); give the encoding"
        ) from None
    except (pd.errors.ParserError, csv.Error) as error:
        raise UnsupportedSourceError(str(path), f"not a readable csv file ({error})") from None


def read_raw_lines(
    path: Path, *, encoding: str | None = None, delimiter: str | None = None
) -> Iterator[list[str]]:
    """Every record of the file as text cells, blank lines included, so that record ``n``
    is line ``n`` (used to rebuild a csv as a workbook for annotation)."""
    with path.open("rb") as stream:
        sample = stream.read(_SAMPLE_BYTES)
    encoding = encoding or detect_encoding(sample)
    if delimiter is None:
        lines = _decode_sample(path, sample, encoding).splitlines()[: HEADER_SEARCH_ROWS + 1]
        first = next((line for line in lines if line.strip()), "")
        delimiter = max(_DELIMITERS, key=first.count)
    with path.open(encoding=encoding, newline="") as stream:
        for cells in csv.reader(stream, delimiter=delimiter):
            yield cells or [""]


def detect_encoding(sample: bytes) -> str:
    """``utf-8-sig`` when the bytes are UTF-8 (BOM or not), else ``cp1252`` or ``latin-1``."""
    for candidate in ("utf-8-sig", "cp1252"):
        try:
            sample.decode(candidate)
            return candidate
        except UnicodeDecodeError as error:
            # A multi-byte character cut by the end of the sample is not a decoding failure.
            if candidate == "utf-8-sig" and error.start >= len(sample) - 3:
                return candidate
    return "latin-1"


def detect_delimiter(lines: list[str], namer: ColumnNamer) -> str:
    """The one of , ; tab | that splits a line into a recognisable header.

    csv.Sniffer is fooled by decimal commas in ``;`` files, so the header decides; when no
    candidate finds one, the most frequent candidate on the first non-blank line wins.
    """
    best, best_width = "", 0
    for candidate in _DELIMITERS:
        header = find_header(_split(lines, candidate), namer)
        if header is not None and len(header.names) > best_width:
            best, best_width = candidate, len(header.names)
    if best:
        return best
    first = next((line for line in lines if line.strip()), "")
    return max(_DELIMITERS, key=first.count)


def _split(lines: list[str], delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))


def _decode_sample(path: Path, sample: bytes, encoding: str) -> str:
    try:
        return sample.decode(encoding, errors="strict")
    except UnicodeDecodeError as error:
        if error.start >= len(sample) - 3 and len(sample) == _SAMPLE_BYTES:
            return sample[: error.start].decode(encoding)
        raise UnsupportedSourceError(
            str(path), f"cannot decode as {encoding} ({error.reason}); give the encoding"
        ) from None
    except LookupError:
        raise UnsupportedSourceError(str(path), f"unknown encoding {encoding!r}") from None
