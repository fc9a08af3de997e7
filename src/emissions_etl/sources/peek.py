"""The first rows of a file as text, before anyone knows which resource it holds."""

from __future__ import annotations

from contextlib import closing
from itertools import islice

from python_calamine import SheetVisibleEnum

from emissions_etl.sources.boundary import guarded
from emissions_etl.sources.csv_reader import read_raw_lines
from emissions_etl.sources.formats import SourceFormat, detect_format
from emissions_etl.sources.headers import HEADER_SEARCH_ROWS
from emissions_etl.sources.html_reader import html_rows
from emissions_etl.sources.workbook_reader import open_workbook
from emissions_etl.storage import AnyPath, local_file


def peek_rows(
    path: AnyPath, *, sheet: str | None = None, rows: int = HEADER_SEARCH_ROWS
) -> list[list[str]]:
    """Up to ``rows`` rows of the named (or first visible) sheet of a workbook, of the csv, or
    of the HTML page's tables one after another (its header may be in any of them), as text.

    The workbook is checked like ``read_source`` checks it (a sheet over the caps is refused
    before calamine loads it); any problem with the file is an InputError.
    """
    return guarded(path, _peek, path, sheet, rows)


def _peek(path: AnyPath, sheet: str | None, rows: int) -> list[list[str]]:
    kind = detect_format(path)
    if kind is SourceFormat.HTML:
        with closing(html_rows(local_file(path))) as found:
            return [cells for _, _, cells in islice(found, rows)]
    if not kind.is_workbook:
        return [list(cells) for cells in islice(read_raw_lines(path), rows)]
    book, package = open_workbook(local_file(path), kind)
    try:
        names = [m.name for m in book.sheets_metadata if m.visible == SheetVisibleEnum.Visible]
        chosen = sheet if sheet is not None else (names[0] if names else None)
        if chosen is None or chosen not in book.sheet_names:
            return []
        package.check_sheet(chosen)
        package.error_cells(chosen)  # an error value calamine cannot read: named, not a crash
        head = islice(book.get_sheet_by_name(chosen).iter_rows(), rows)
        return [["" if cell is None else str(cell) for cell in row] for row in head]
    finally:
        book.close()


def sheet_names(path: AnyPath, *, hidden: bool = False) -> list[str]:
    """A workbook's sheet names in its order: the visible ones (hidden sheets, such as a
    template's lists of values, hold no one's data), or all with ``hidden``. Any problem with
    the file is an InputError."""
    return guarded(path, _sheet_names, path, hidden)


def _sheet_names(path: AnyPath, hidden: bool) -> list[str]:
    book, _ = open_workbook(local_file(path))
    try:
        return [
            meta.name
            for meta in book.sheets_metadata
            if hidden or meta.visible == SheetVisibleEnum.Visible
        ]
    finally:
        book.close()
