"""Read workbooks with python-calamine (Rust, far faster than openpyxl), batch by batch: .xlsx,
.xlsm, .xlsb, legacy .xls and OpenDocument .ods, all by one path.

Formulas come back as the value the writing program cached, and a cached error as the text the
cell shows (``#DIV/0!``: calamine reads it as an empty cell, or in an .ods as the 0 stored under
it; the format's package finds where it is), which validation rejects as a formula error;
merged cells are filled with their top-left value; dates formatted as dates come back as dates
(serials in unformatted cells stay numbers and are converted by validation). calamine loads
sheets into dense grids and aborts the process when an allocation fails, so each format's
package (``workbook_package``) checks the file and measures each sheet first, and a sheet over
the caps is refused before calamine loads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd
from python_calamine import CalamineError, CalamineSheet, CalamineWorkbook, SheetVisibleEnum

from emissions_etl.errors import CorruptSourceError, SheetNotFoundError, UnsupportedSourceError
from emissions_etl.sources.cell_values import CellValue, WorkbookValue
from emissions_etl.sources.formats import CALAMINE_SUFFIXES, SourceFormat, detect_format
from emissions_etl.sources.frames import build_batch
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS, ColumnNamer, HeaderMatch, find_header
from emissions_etl.sources.ods_package import inspect_ods
from emissions_etl.sources.ole_package import open_compound
from emissions_etl.sources.workbook_package import Merge, WorkbookPackage
from emissions_etl.sources.xls_package import inspect_xls
from emissions_etl.sources.xlsb_package import inspect_xlsb
from emissions_etl.sources.xlsx_errors import ErrorCells
from emissions_etl.sources.xlsx_package import inspect_xlsx

#: A sheet opened for reading: calamine's sheet, its header, its error cells, its merges.
OpenedSheet = tuple[CalamineSheet, HeaderMatch, ErrorCells, list[Merge]]


class _Cells(Protocol):
    """A row's cells, as the error cells' texts are put in them: a workbook's batch row, or a
    row padded from column A."""

    def __len__(self) -> int: ...

    def __setitem__(self, index: int, value: str, /) -> None: ...

    def extend(self, values: Iterable[str], /) -> None: ...


def open_workbook(
    path: Path, kind: SourceFormat | None = None
) -> tuple[CalamineWorkbook, WorkbookPackage]:
    """The workbook opened by calamine as what its content is (whatever its name), after its
    package was checked; a one-line InputError when it cannot be."""
    kind = kind or detect_format(path)
    package = inspect_workbook(path, kind)
    try:
        if CALAMINE_SUFFIXES.get(path.suffix, kind) == kind:
            workbook = CalamineWorkbook.from_path(str(path))
        else:  # calamine picks its reader by the name: give it the bytes, it finds the format
            with path.open("rb") as stream:
                workbook = CalamineWorkbook.from_filelike(stream)
    except (CalamineError, OSError, ValueError) as error:
        if "password" in str(error).lower():
            raise  # the boundary names it
        raise CorruptSourceError(str(path), f"the workbook cannot be read ({error})") from None
    try:
        package.bind(list(workbook.sheet_names))
    except BaseException:
        workbook.close()
        raise
    return workbook, package


def inspect_workbook(path: Path, kind: SourceFormat) -> WorkbookPackage:
    """The package of a workbook of format ``kind``, checked (``workbook_package``). Planning a
    workbook opens it once per sheet: the checks of a file unchanged since are not repeated
    (an .ods's walk costs several times calamine's own read)."""
    stat = path.stat()
    return _inspected(path.resolve(), kind, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _inspected(path: Path, kind: SourceFormat, mtime_ns: int, size: int) -> WorkbookPackage:
    if kind is SourceFormat.XLSX:
        return inspect_xlsx(path)
    if kind is SourceFormat.XLSB:
        return inspect_xlsb(path)
    if kind is SourceFormat.XLS:
        return inspect_xls(path, open_compound(path))
    if kind is SourceFormat.ODS:
        return inspect_ods(path)
    raise UnsupportedSourceError(str(path), "not a workbook")


def read_workbook(
    path: Path, *, sheet: str | None, namer: ColumnNamer, batch_rows: int
) -> Iterator[pd.DataFrame]:
    """Batches from the named sheet, or from every visible sheet that has a header.

    The sheets and headers are checked before the first batch, so errors raise at the call.
    """
    workbook, package = open_workbook(path)
    try:
        return _open_sheets(
            path, workbook, package, sheet=sheet, namer=namer, batch_rows=batch_rows
        )
    except BaseException:
        workbook.close()
        raise


def _open_sheets(
    path: Path,
    workbook: CalamineWorkbook,
    package: WorkbookPackage,
    *,
    sheet: str | None,
    namer: ColumnNamer,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    if sheet is not None:
        if sheet not in workbook.sheet_names:
            known = ", ".join(workbook.sheet_names)
            raise SheetNotFoundError(str(path), f"no sheet named {sheet!r}; sheets: {known}")
        found = _open_sheet(workbook, package, sheet, namer)
        if found is None:
            raise UnsupportedSourceError(str(path), f"sheet {sheet!r}: {namer.describe_missing()}")
        opened = [found]
    else:
        opened = [
            found
            for meta in workbook.sheets_metadata
            if meta.visible == SheetVisibleEnum.Visible
            and (found := _open_sheet(workbook, package, meta.name, namer)) is not None
        ]
        if not opened:
            raise UnsupportedSourceError(str(path), namer.describe_missing())
        # The sheets read are held together: their cells together are bound by the cap.
        package.check_total([found_sheet.name for found_sheet, *_ in opened])
    return _iter_sheets(path, workbook, opened, batch_rows)


def _iter_sheets(
    path: Path,
    workbook: CalamineWorkbook,
    opened: list[OpenedSheet],
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    try:
        for found in opened:
            yield from _read_sheet(path, *found, batch_rows=batch_rows)
    finally:
        workbook.close()


def _open_sheet(
    workbook: CalamineWorkbook, package: WorkbookPackage, name: str, namer: ColumnNamer
) -> OpenedSheet | None:
    package.check_sheet(name)
    errors = package.error_cells(name)  # before calamine, which refuses errors it cannot read
    sheet = workbook.get_sheet_by_name(name)
    head = list(islice(sheet.iter_rows(), HEADER_SEARCH_ROWS))
    # iter_rows() starts at the sheet's first used column: letters in messages count from it.
    first_column = sheet.start[1] if sheet.start else 0
    header = find_header(
        head,
        namer,
        source=str(package.path),
        label=f"sheet {name!r}, row {{row}}",
        first_column=first_column,
    )
    if header is None:
        return None
    merges = package.merged_ranges(name)
    if merges is None:  # calamine reports them for this format
        merges = sheet.merged_cell_ranges or []
    return sheet, header, errors, merges


def _read_sheet(
    path: Path,
    sheet: CalamineSheet,
    header: HeaderMatch,
    errors: ErrorCells,
    merged: list[Merge],
    *,
    batch_rows: int,
) -> Iterator[pd.DataFrame]:
    # iter_rows() starts at the sheet's first row but at its first used column.
    first_column = sheet.start[1] if sheet.start else 0
    merges = [
        ((r0, c0 - first_column), (r1, c1 - first_column))
        for (r0, c0), (r1, c1) in merged
        if r1 > header.index
    ]
    anchors: dict[Merge, WorkbookValue] = {}
    rows = sheet.iter_rows()
    for _ in islice(rows, header.index + 1):
        pass
    start = header.index + 1  # 0-based index of the next row = its 1-based number minus one
    while batch := list(islice(rows, batch_rows)):
        numbers = np.arange(start + 1, start + 1 + len(batch), dtype="int64")
        if len(errors):
            _show_errors(batch, start, first_column, errors)
        if merges:
            _fill_merged(batch, start, merges, anchors)
        yield build_batch(batch, numbers, header, file=path.name, sheet=sheet.name)
        start += len(batch)


def _show_errors(
    batch: Sequence[_Cells], start: int, first_column: int, errors: ErrorCells
) -> None:
    """Put in each error cell the error it shows, where calamine left it empty (or, in an
    .ods, the 0 stored under it); a row calamine cut short of the cell is padded to it."""
    for row, column, error in errors.between(start, start + len(batch)):
        cells = batch[row - start]
        position = column - first_column
        if position < 0:
            continue
        if position >= len(cells):
            cells.extend([""] * (position + 1 - len(cells)))
        cells[position] = error


def iter_sheet_rows(path: Path) -> Iterator[tuple[str, list[CellValue]]]:
    """(sheet name, cells) for every row of every visible sheet, each cell in its column from
    A and error cells as the error they show: the workbook's values, for a copy of it. The
    package is checked as ``read_workbook`` checks it (an InputError, never a crash)."""
    workbook, package = open_workbook(path)
    try:
        for meta in workbook.sheets_metadata:
            if meta.visible != SheetVisibleEnum.Visible:
                continue
            package.check_sheet(meta.name)
            errors = package.error_cells(meta.name)
            sheet = workbook.get_sheet_by_name(meta.name)
            first_column = sheet.start[1] if sheet.start else 0
            for index, cells in enumerate(sheet.iter_rows()):
                row: list[CellValue] = [None] * first_column + list(cells)
                _show_errors([row], index, 0, errors)
                yield meta.name, row
    finally:
        workbook.close()


def _fill_merged(
    batch: list[list[WorkbookValue]],
    start: int,
    merges: list[Merge],
    anchors: dict[Merge, WorkbookValue],
) -> None:
    """Give every cell of a merged range its top-left value (Excel shows it that way)."""
    end = start + len(batch)
    for merge in merges:
        (r0, c0), (r1, c1) = merge
        if r1 < start or r0 >= end:
            continue
        if start <= r0 < end:
            anchors[merge] = batch[r0 - start][c0] if 0 <= c0 < len(batch[r0 - start]) else ""
        value = anchors.get(merge, "")
        for r in range(max(r0, start), min(r1, end - 1) + 1):
            row = batch[r - start]
            for c in range(max(c0, 0), min(c1, len(row) - 1) + 1):
                row[c] = value
