"""The first rows of a file as text, before anyone knows which resource it holds."""

from __future__ import annotations

from itertools import islice

from python_calamine import CalamineWorkbook, SheetVisibleEnum

from emissions_etl.sources.boundary import guarded
from emissions_etl.sources.csv_reader import read_raw_lines
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS
from emissions_etl.sources.xlsx_package import inspect_workbook
from emissions_etl.storage import AnyPath, local_file


def peek_rows(
    path: AnyPath, *, sheet: str | None = None, workbook: bool, rows: int = HEADER_SEARCH_ROWS
) -> list[list[str]]:
    """Up to ``rows`` rows of the named (or first visible) sheet, or of the csv, as text.

    The workbook is checked like ``read_source`` checks it (a sheet over the caps is refused
    before calamine loads it); any problem with the file is an InputError.
    """
    return guarded(path, _peek, path, sheet, workbook, rows)


def _peek(path: AnyPath, sheet: str | None, workbook: bool, rows: int) -> list[list[str]]:
    if not workbook:
        return [list(cells) for cells in islice(read_raw_lines(path), rows)]
    path = local_file(path)
    package = inspect_workbook(path)
    book = CalamineWorkbook.from_path(str(path))
    try:
        names = [m.name for m in book.sheets_metadata if m.visible == SheetVisibleEnum.Visible]
        chosen = sheet if sheet is not None else (names[0] if names else None)
        if chosen is None or chosen not in book.sheet_names:
            return []
        package.check_sheet(chosen)
        package.error_cells(chosen)  # an error value calamine cannot read: named, not a crash
        found = islice(book.get_sheet_by_name(chosen).iter_rows(), rows)
        return [["" if cell is None else str(cell) for cell in row] for row in found]
    finally:
        book.close()


def sheet_names(path: AnyPath, *, hidden: bool = False) -> list[str]:
    """A workbook's sheet names in its order: the visible ones (hidden sheets, such as a
    template's lists of values, hold no one's data), or all with ``hidden``. Any problem with
    the file is an InputError."""
    return guarded(path, _sheet_names, path, hidden)


def _sheet_names(path: AnyPath, hidden: bool) -> list[str]:
    path = local_file(path)
    inspect_workbook(path)
    book = CalamineWorkbook.from_path(str(path))
    try:
        return [
            meta.name
            for meta in book.sheets_metadata
            if hidden or meta.visible == SheetVisibleEnum.Visible
        ]
    finally:
        book.close()
