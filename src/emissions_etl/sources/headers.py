"""Find the header row of a sheet and map its cells to canonical column names.

People put titles and blank lines above their headers and spell headers their own way
(``Start Date``, ``start-date``, ``LER-Code``); this module is the one place that forgives it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from emissions_etl.errors import DuplicateColumnError, SourceTooLargeError
from emissions_etl.sources.cell_values import CellValue
from emissions_etl.sources.limits import MAX_HEADER_CHARS, column_letters

#: How far down a sheet the header row is looked for.
HEADER_SEARCH_ROWS = 30

_IGNORED = re.compile(r"[\s_\-.]+")


def normalise_header(text: CellValue) -> str:
    """Lowercase without spaces, underscores, hyphens or dots: ``Start-Date`` -> ``startdate``."""
    if text is None:
        return ""
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    return _IGNORED.sub("", str(text)).lower()


@dataclass(frozen=True)
class HeaderMatch:
    """Where the header is and what each of its cells becomes."""

    #: 0-based position of the header row among the rows searched.
    index: int
    #: One output name per header cell ("" for a blank header cell).
    names: tuple[str, ...]
    #: Output name -> the header text as the spreadsheet shows it.
    originals: dict[str, str]


class ColumnNamer:
    """Maps header texts to canonical names (directly or through aliases) or normalised names."""

    def __init__(
        self,
        expected_columns: Collection[str],
        aliases: Mapping[str, str],
        required_columns: Collection[str] | None = None,
    ) -> None:
        self.expected = list(expected_columns)
        self._lookup = {normalise_header(name): name for name in self.expected}
        for alias, canonical in aliases.items():
            self._lookup.setdefault(normalise_header(alias), canonical)
        self.required = list(required_columns) if required_columns is not None else None

    def canonical(self, header: CellValue) -> str | None:
        """The canonical column a header cell stands for, or None."""
        return self._lookup.get(normalise_header(header))

    def is_header(self, cells: Sequence[CellValue]) -> bool:
        """A row is the header when it names every required column (or, without a required
        list, at least half of the expected ones)."""
        found = {self.canonical(cell) for cell in cells} - {None}
        if self.required is not None:
            return set(self.required) <= found
        return len(found) >= max(2, -(-len(self.expected) // 2))

    def describe_missing(self) -> str:
        """The one-line reason used when no header row is found."""
        wanted = self.required if self.required is not None else self.expected
        return (
            f"no header row with {', '.join(wanted)} found in the first {HEADER_SEARCH_ROWS} rows"
        )

    def name_row(
        self,
        index: int,
        cells: Sequence[CellValue],
        *,
        source: str = "",
        where: str = "",
        first_column: int = 0,
    ) -> HeaderMatch:
        """Output names for each cell of the header row.

        Two cells meaning the same canonical column are refused (DuplicateColumnError): a row
        would hold two values for one field and nobody can say which is meant. Two cells with
        the same unknown header keep ``_2``, ``_3``... suffixes: unknown columns are carried
        along but never loaded, so they harm nothing. A header cell over MAX_HEADER_CHARS is
        refused (SourceTooLargeError). ``where`` (e.g. ``line 3``) and ``first_column`` (the
        0-based sheet column of ``cells[0]``) only serve the messages.
        """
        names: list[str] = []
        originals: dict[str, str] = {}
        positions: dict[str, int] = {}
        for position, cell in enumerate(cells):
            text = "" if cell is None else str(cell).strip()
            if not text:
                names.append("")
                continue
            letter = column_letters(first_column + position)
            if len(text) > MAX_HEADER_CHARS:
                raise SourceTooLargeError(
                    source,
                    f"{where}, column {letter}: a header of {len(text):,} characters; "
                    f"the limit is {MAX_HEADER_CHARS:,}",
                )
            canonical = self.canonical(text)
            if canonical is not None and canonical in positions:
                first = positions[canonical]
                raise DuplicateColumnError(
                    source,
                    f"{where}: columns {column_letters(first_column + first)} "
                    f"{originals[canonical]!r} and {letter} {text!r} both mean {canonical}: "
                    "keep one",
                )
            name = canonical or normalise_header(text)
            base, suffix = name, 2
            while name in originals:
                name, suffix = f"{base}_{suffix}", suffix + 1
            names.append(name)
            originals[name] = text
            positions[name] = position
        return HeaderMatch(index, tuple(names), originals)


def locate_header(rows: Sequence[Sequence[CellValue]], namer: ColumnNamer) -> int | None:
    """Index of the first of ``rows`` (within the search window) that is a header."""
    for index, cells in enumerate(rows[:HEADER_SEARCH_ROWS]):
        if namer.is_header(cells):
            return index
    return None


def find_header(
    rows: Sequence[Sequence[CellValue]],
    namer: ColumnNamer,
    *,
    source: str = "",
    label: str = "row {row}",
    first_column: int = 0,
) -> HeaderMatch | None:
    """The first of ``rows`` (already limited to the search window) that is a header, named.

    ``label`` says where the header is in messages, ``{row}`` being its 1-based position.
    Raises DuplicateColumnError and SourceTooLargeError (see ``ColumnNamer.name_row``).
    """
    index = locate_header(rows, namer)
    if index is None:
        return None
    return namer.name_row(
        index,
        rows[index],
        source=source,
        where=label.format(row=index + 1),
        first_column=first_column,
    )
