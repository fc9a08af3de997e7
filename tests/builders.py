"""Real input files for tests: xlsx written by openpyxl (with cached formula values patched in,
as Excel would store them) and csv written as plain bytes in a chosen encoding."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from openpyxl import Workbook

WASTE_HEADERS = [
    "Facility", "Identification name", "Start date", "End date", "Base quantity", "Unit",
    "LER code", "RD code", "Destination", "Description", "Client row id",
]  # fmt: skip


def waste_row(number: int = 1, **changes: Any) -> list[Any]:
    """A valid waste row in WASTE_HEADERS order; ``changes`` override cells by column name."""
    values = {
        "facility": "Madrid Warehouse",
        "identification_name": f"RSU-2026-{number:03d}",
        "start_date": dt.date(2026, 1, 1),
        "end_date": dt.date(2026, 1, 31),
        "base_quantity": 120.5,
        "unit": "kg",
        "ler_code": "20 01 01",
        "rd_code": "R3",
        "destination": "Gestora Norte",
        "description": "",
        "client_row_id": None,
    }
    values.update(changes)
    return list(values.values())


def write_xlsx(
    path: Path,
    sheets: Mapping[str, Sequence[Sequence[Any]]],
    *,
    hidden: Sequence[str] = (),
    merged: Mapping[str, Sequence[str]] | None = None,
    formatted_empty_rows: Mapping[str, int] | None = None,
) -> Path:
    """A workbook with one sheet per entry; rows are written from A1 as given."""
    from openpyxl.styles import PatternFill

    workbook = Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
        for cell_range in (merged or {}).get(name, ()):
            sheet.merge_cells(cell_range)
        extra = (formatted_empty_rows or {}).get(name, 0)
        first_empty = sheet.max_row + 1
        for row_number in range(first_empty, first_empty + extra):
            # styled cells with no value, as people leave them below their data
            cell = sheet.cell(row_number, 3)
            cell.number_format = "yyyy-mm-dd"
            cell.fill = PatternFill("solid", start_color="FFFF00", end_color="FFFF00")
        if name in hidden:
            sheet.sheet_state = "hidden"
    workbook.save(path)
    return path


def set_cached_values(path: Path, sheet_index: int, values: Mapping[str, float]) -> None:
    """Store a cached result for formula cells, as Excel does on save (openpyxl cannot)."""

    def cache(xml: str) -> str:
        for ref, value in values.items():
            empty_value = r"<v\s*(?:/>|></v>)"  # as openpyxl writes it, by version
            xml = re.sub(
                rf'(<c r="{ref}"[^>]*>\s*<f>[^<]*</f>)\s*{empty_value}',
                rf"\g<1><v>{value}</v>",
                xml,
            )
        return xml

    _rewrite_sheet(path, sheet_index, cache)


def set_cached_errors(path: Path, sheet_index: int, errors: Mapping[str, str]) -> None:
    """Store an error as the cached result of formula cells (``t="e"``), as Excel does on save
    when a formula fails (``=1/0`` gives ``#DIV/0!``)."""

    def cache(xml: str) -> str:
        for ref, error in errors.items():
            xml, count = re.subn(
                rf'<c r="{ref}"([^>]*)>\s*(<f>[^<]*</f>)\s*<v\s*(?:/>|></v>)',
                rf'<c r="{ref}" t="e"\g<1>>\g<2><v>{error}</v>',
                xml,
            )
            assert count == 1, f"{ref} is not a formula cell"
        return xml

    _rewrite_sheet(path, sheet_index, cache)


def _rewrite_sheet(path: Path, sheet_index: int, rewrite: Callable[[str], str]) -> None:
    """Replace the XML of the workbook's sheet ``sheet_index`` with ``rewrite`` of it."""
    member = f"xl/worksheets/sheet{sheet_index + 1}.xml"
    temporary = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(temporary, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == member:
                data = rewrite(data.decode()).encode()
            target.writestr(item, data)
    shutil.move(temporary, path)


def write_csv(
    path: Path,
    rows: Sequence[Sequence[Any]],
    *,
    delimiter: str = ",",
    encoding: str = "utf-8",
) -> Path:
    """A csv of ``rows`` (cells joined as text, no quoting needed by the tests)."""
    text = "\n".join(
        delimiter.join("" if cell is None else str(cell) for cell in row) for row in rows
    )
    path.write_bytes((text + "\n").encode(encoding))
    return path
