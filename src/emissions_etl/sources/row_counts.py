"""About how many rows a file holds, before it is read: the total a progress bar counts to.

An xlsx's sheets are measured from their XML (``xlsx_extent``: the used range, title and header
rows included); a text file's rows are its bytes over the length of its first lines. Other
formats (and files in a store, or that cannot be measured) have no total: the load says why it
cannot read them, not this.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from emissions_etl.errors import InputError
from emissions_etl.storage import AnyPath

#: Bytes of a text file's head whose lines stand for the rest.
_HEAD_BYTES = 1 << 16
_TEXT_SUFFIXES = (".csv", ".txt", ".tsv", ".tab", ".dat", ".prn")


def expected_rows(path: AnyPath, sheets: Sequence[str] = ()) -> int | None:
    """The rows ``path`` (its ``sheets``, else its first visible sheet) about holds, or None."""
    if not isinstance(path, Path) or not path.is_file():
        return None
    suffix = path.suffix.lower()
    try:
        if suffix in (".xlsx", ".xlsm"):
            return _sheet_rows(path, sheets)
        if suffix in _TEXT_SUFFIXES:
            return _text_rows(path)
    except (OSError, InputError):
        return None
    return None


def _sheet_rows(path: Path, sheets: Sequence[str]) -> int | None:
    from emissions_etl.sources.xlsx_package import inspect_xlsx

    package = inspect_xlsx(path)
    wanted = set(sheets) or {next((s.name for s in package.sheets if s.visible), "")}
    members = {sheet.member for sheet in package.sheets if sheet.name in wanted and sheet.member}
    found = [package.extents[member].rows for member in members if member in package.extents]
    return sum(found) if found else None


def _text_rows(path: Path) -> int:
    size = path.stat().st_size
    with path.open("rb") as stream:
        head = stream.read(_HEAD_BYTES)
    lines = head.count(b"\n") + (0 if head.endswith(b"\n") or not head else 1)
    if size <= len(head) or lines == 0:
        return max(lines - 1, 0)  # the header is no row
    return max(round(size * lines / len(head)) - 1, 0)
