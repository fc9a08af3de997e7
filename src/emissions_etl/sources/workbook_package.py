"""What is learned about a workbook before calamine opens it, whatever its format, so that no
sheet can make calamine allocate beyond the caps of ``limits`` (calamine aborts the process when
an allocation fails) and no error cell is read as empty (calamine does, in every format).

Each format has its own inspection, which knows how calamine reads that format: ``xlsx_package``
(zip of XML, each sheet loaded when asked for), ``xlsb_package`` (zip of binary records, the
same), ``xls_package`` (a compound file: every sheet is loaded when the workbook opens) and
``ods_package`` (one XML part for every sheet, all loaded at open). Each gives a
``WorkbookPackage``: the reader asks it to check a sheet before loading it, for the sheet's error
cells and, where calamine does not report them (.xlsb, .ods), for its merged ranges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from emissions_etl.errors import CorruptSourceError, SourceTooLargeError
from emissions_etl.sources import limits
from emissions_etl.sources.xlsx_errors import NO_ERRORS, ErrorCells
from emissions_etl.sources.xlsx_extent import Extent

#: A merged range: 0-based (first row, first column), (last row, last column).
Merge = tuple[tuple[int, int], tuple[int, int]]


class WorkbookPackage(Protocol):
    """A workbook inspected before calamine opens it (see the module's docstring)."""

    path: Path

    def bind(self, names: list[str]) -> None:
        """Learn calamine's names for the sheets, in its order (the same as the file's)."""

    def check_sheet(self, name: str) -> None:
        """Raise SourceTooLargeError when calamine would allocate too much for the sheet."""

    def error_cells(self, name: str) -> ErrorCells:
        """The sheet's error cells, 0-based, with the error each shows."""

    def check_total(self, names: list[str]) -> None:
        """Raise SourceTooLargeError when the sheets read together exceed the cell cap."""

    def merged_ranges(self, name: str) -> list[Merge] | None:
        """The sheet's merged ranges, or None where calamine reports them itself."""


@dataclass
class ScannedSheet:
    """One sheet measured by a pass over its records or XML."""

    #: Its name as the file writes it (calamine's, once ``bind`` has run).
    name: str
    extent: Extent
    errors: ErrorCells = NO_ERRORS
    #: None when calamine reports the merged ranges of this format itself.
    merges: list[Merge] | None = None


@dataclass
class ScannedWorkbook:
    """A workbook whose sheets were all measured in one pass (.xls, .xlsb, .ods), in the order
    calamine lists them; ``bind`` gives them calamine's names."""

    path: Path
    sheets: list[ScannedSheet]
    by_name: dict[str, ScannedSheet] = field(default_factory=dict)

    def bind(self, names: list[str]) -> None:
        if len(names) != len(self.sheets):
            raise CorruptSourceError(
                str(self.path),
                f"the workbook lists {len(names)} sheets but holds {len(self.sheets)}",
            )
        self.by_name = dict(zip(names, self.sheets, strict=True))
        for name, sheet in self.by_name.items():
            sheet.name = name

    def check_sheet(self, name: str) -> None:
        found = self.by_name.get(name)
        if found is not None and not fits(found.extent):
            raise SourceTooLargeError(str(self.path), describe_over_cap(name, found.extent))

    def error_cells(self, name: str) -> ErrorCells:
        found = self.by_name.get(name)
        return NO_ERRORS if found is None else found.errors

    def check_total(self, names: list[str]) -> None:
        total = sum(self.by_name[name].extent.cells for name in names if name in self.by_name)
        if total > limits.MAX_CELLS:
            raise SourceTooLargeError(str(self.path), describe_total(names, total))

    def merged_ranges(self, name: str) -> list[Merge] | None:
        found = self.by_name.get(name)
        return None if found is None else found.merges


def check_loaded_at_open(path: Path, sheets: list[ScannedSheet]) -> None:
    """For a format whose every sheet calamine loads when it opens the workbook (.xls, .ods):
    every sheet, hidden ones too, within the caps, and all of them together."""
    for sheet in sheets:
        if not fits(sheet.extent):
            raise SourceTooLargeError(str(path), describe_over_cap(sheet.name, sheet.extent))
    total = sum(sheet.extent.cells for sheet in sheets)
    if total > limits.MAX_CELLS:
        raise SourceTooLargeError(
            str(path),
            f"its sheets use {total:,} cells together, which are all loaded when it is opened; "
            f"the limit is {limits.MAX_CELLS:,}",
        )


def fits(extent: Extent) -> bool:
    """True when a sheet of this extent is within every cap."""
    return (
        extent.columns <= limits.MAX_COLUMNS
        and extent.rows <= limits.MAX_ROWS
        and extent.cells <= limits.MAX_CELLS
        and extent.merged <= limits.MAX_MERGED_RANGES
    )


def describe_over_cap(name: str, extent: Extent) -> str:
    """Why a sheet of ``extent`` is refused, and what to do about it."""
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


def describe_total(names: list[str], total: int) -> str:
    """Why sheets read together are refused."""
    return (
        f"the sheets {', '.join(map(repr, names))} use {total:,} cells together; "
        f"the limit is {limits.MAX_CELLS:,}: read one at a time with --sheet"
    )
