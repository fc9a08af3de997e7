"""Real files in the formats people send besides xlsx, written for tests from rows:

* ``write_xls``: Excel 97-2003 (BIFF8) by xlwt, the format's Python writer (dates formatted as
  dates, error cells as Excel stores a cached error);
* ``write_ods``: an OpenDocument spreadsheet as LibreOffice writes it (a zip of ``mimetype``,
  ``content.xml``, ``META-INF/manifest.xml``), by hand: LibreOffice is not installed here;
* ``write_xlsb``: an Excel binary workbook, by hand from MS-XLSB's records (no Python writer of
  the format exists); ``tests/fixtures/README.md`` says how the committed .xlsb was made;
* ``write_html``: an HTML page of tables, as SAP GUI's "Spreadsheet" export writes it.

A cell given as ``Shown("#DIV/0!")`` is one whose formula failed, stored as each format stores
it; a cell given as ``Merged(value, across)`` spans ``across`` columns.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

Rows = Sequence[Sequence[Any]]


class Shown(str):
    """A cell whose formula failed, showing this error (``Shown("#DIV/0!")``)."""


@dataclass(frozen=True)
class Merged:
    """A cell merged with the ``across - 1`` cells to its right (a title over the columns)."""

    value: Any
    across: int


_BIFF_ERRORS = {"#NULL!": 0x00, "#DIV/0!": 0x07, "#VALUE!": 0x0F, "#REF!": 0x17, "#NAME?": 0x1D,
                "#NUM!": 0x24, "#N/A": 0x2A}  # fmt: skip


# --- xls --------------------------------------------------------------------------------------


def write_xls(path: Path, sheets: Mapping[str, Rows], *, hidden: Sequence[str] = ()) -> Path:
    """An .xls of the named sheets; dates get a date format, as Excel gives them."""
    import xlwt

    book = xlwt.Workbook()
    date_style = xlwt.easyxf(num_format_str="dd/mm/yyyy")
    for name, rows in sheets.items():
        sheet = book.add_sheet(name)
        if name in hidden:
            sheet.visibility = 1
        for r, cells in enumerate(rows):
            for c, value in enumerate(cells):
                if value in ("", None):
                    continue
                if isinstance(value, Shown):
                    sheet.row(r).set_cell_error(c, _BIFF_ERRORS[value])
                elif isinstance(value, Merged):
                    sheet.write_merge(r, r, c, c + value.across - 1, value.value)
                elif isinstance(value, dt.date):
                    sheet.write(r, c, value, date_style)
                else:
                    sheet.write(r, c, value)
    book.save(str(path))
    return path


# --- ods --------------------------------------------------------------------------------------

_ODS_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"'
)
ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"


def ods_cell(value: Any) -> str:
    """One ``table:table-cell`` as LibreOffice writes it."""
    if value in ("", None):
        return "<table:table-cell/>"
    if isinstance(value, Shown):  # a failed formula: LibreOffice stores its error as text
        return (
            '<table:table-cell table:formula="of:=1/0" office:value-type="float" '
            f'office:value="0" calcext:value-type="error"><text:p>{escape(value)}</text:p>'
            "</table:table-cell>"
        )
    if isinstance(value, Merged):
        inner = ods_cell(value.value).replace(
            "<table:table-cell", f'<table:table-cell table:number-columns-spanned="{value.across}"'
            ' table:number-rows-spanned="1"', 1,
        )  # fmt: skip
        covered = value.across - 1
        return inner + f'<table:covered-table-cell table:number-columns-repeated="{covered}"/>'
    if isinstance(value, bool):
        shown = "TRUE" if value else "FALSE"
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value='
                f'"{str(value).lower()}"><text:p>{shown}</text:p></table:table-cell>')  # fmt: skip
    if isinstance(value, dt.date):
        return (f'<table:table-cell office:value-type="date" office:date-value='
                f'"{value.isoformat()}"><text:p>{value:%d/%m/%Y}</text:p>'
                "</table:table-cell>")  # fmt: skip
    if isinstance(value, int | float):
        return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>")  # fmt: skip
    return (f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}'
            "</text:p></table:table-cell>")  # fmt: skip


def ods_content(sheets: Mapping[str, Rows], *, hidden: Sequence[str] = (), tail: str = "") -> str:
    """content.xml of the sheets; ``tail`` is added after each sheet's rows (raw XML)."""
    tables = []
    for name, rows in sheets.items():
        style = "ta2" if name in hidden else "ta1"
        body = "".join(
            "<table:table-row>" + "".join(ods_cell(value) for value in cells)
            + '<table:table-cell table:number-columns-repeated="1000"/></table:table-row>'
            for cells in rows
        )  # fmt: skip
        tables.append(
            f"<table:table table:name={quoteattr(name)} table:style-name=\"{style}\">{body}"
            '<table:table-row table:number-rows-repeated="1048000"><table:table-cell '
            f'table:number-columns-repeated="1024"/></table:table-row>{tail}</table:table>'
        )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODS_NAMESPACES} '
        'office:version="1.3"><office:automatic-styles>'
        '<style:style style:name="ta1" style:family="table"><style:table-properties '
        'table:display="true"/></style:style><style:style style:name="ta2" style:family="table">'
        '<style:table-properties table:display="false"/></style:style></office:automatic-styles>'
        f"<office:body><office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body>"
        "</office:document-content>"
    )


def write_ods(
    path: Path,
    sheets: Mapping[str, Rows],
    *,
    hidden: Sequence[str] = (),
    content: str | None = None,
    manifest_extra: str = "",
) -> Path:
    """An .ods of the named sheets (or of ``content``, raw content.xml)."""
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:'
        'names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS_MIMETYPE}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
        f"{manifest_extra}</manifest:file-entry></manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), ODS_MIMETYPE)  # first, stored
        body = content if content is not None else ods_content(sheets, hidden=hidden)
        archive.writestr("content.xml", body, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
    return path


# --- xlsb -------------------------------------------------------------------------------------


def xlsb_record(kind: int, payload: bytes = b"") -> bytes:
    """A record: its type in 1-2 bytes and its size in 1-4 bytes, 7 bits each (MS-XLSB 2.1.4)."""
    head = bytes([kind]) if kind < 0x80 else bytes([(kind & 0x7F) | 0x80, kind >> 7])
    size, length = bytearray(), len(payload)
    while True:
        size.append((length & 0x7F) | (0x80 if length > 0x7F else 0))
        length >>= 7
        if not length:
            break
    return head + bytes(size) + payload


def _wide(text: str) -> bytes:
    return struct.pack("<I", len(text)) + text.encode("utf-16-le")


def xlsb_cell(column: int, value: Any) -> bytes:
    """The record of one cell (style 1 is a date format, 0 General)."""
    if isinstance(value, Shown):
        return xlsb_record(0x0003, struct.pack("<IIB", column, 0, _BIFF_ERRORS[value]))
    if isinstance(value, bool):
        return xlsb_record(0x0004, struct.pack("<IIB", column, 0, value))
    if isinstance(value, dt.date):
        serial = (value - dt.date(1899, 12, 30)).days
        return xlsb_record(0x0005, struct.pack("<IId", column, 1, serial))
    if isinstance(value, int | float):
        return xlsb_record(0x0005, struct.pack("<IId", column, 0, value))
    return xlsb_record(0x0006, struct.pack("<II", column, 0) + _wide(str(value)))


def xlsb_sheet(rows: Rows, *, extra: Sequence[bytes] = ()) -> bytes:
    """A worksheet part: its dimension, its rows of cells, its merged ranges."""
    width = max((len(cells) for cells in rows), default=1)
    data, merges = [], []
    for r, cells in enumerate(rows):
        data.append(xlsb_record(0x0000, struct.pack("<IIHBBBI", r, 0, 300, 0, 0, 0, 0)))
        for c, value in enumerate(cells):
            if isinstance(value, Merged):
                merges.append(struct.pack("<IIII", r, r, c, c + value.across - 1))
                value = value.value
            if value not in ("", None):
                data.append(xlsb_cell(c, value))
        data += extra if r == len(rows) - 1 else []
    merged = b""
    if merges:
        merged = (xlsb_record(0x00B1, struct.pack("<I", len(merges)))
                  + b"".join(xlsb_record(0x00B0, m) for m in merges)
                  + xlsb_record(0x00B2))  # fmt: skip
    return (
        xlsb_record(0x0081)
        + xlsb_record(0x0094, struct.pack("<IIII", 0, max(len(rows) - 1, 0), 0, width - 1))
        + xlsb_record(0x0091)
        + b"".join(data)
        + xlsb_record(0x0092)
        + merged
        + xlsb_record(0x0082)
    )


def write_xlsb(
    path: Path | io.BytesIO,
    sheets: Mapping[str, Rows],
    *,
    hidden: Sequence[str] = (),
    parts: Mapping[str, bytes] | None = None,
) -> Path | io.BytesIO:
    """An .xlsb of the named sheets (``parts`` replace sheet parts by name, raw)."""
    names = list(sheets)
    bundles = b"".join(
        xlsb_record(0x009C, struct.pack("<II", 1 if name in hidden else 0, n)
                    + _wide(f"rId{n}") + _wide(name))
        for n, name in enumerate(names, start=1)
    )  # fmt: skip
    workbook = (xlsb_record(0x0083) + xlsb_record(0x008F) + bundles + xlsb_record(0x0090)
                + xlsb_record(0x0084))  # fmt: skip
    # calamine reads styles.bin from its cell formats: XF 0 General, XF 1 a date (format 14).
    xf = [struct.pack("<HH", 0xFFFF, fmt) + bytes(12) for fmt in (0, 14)]
    styles = (xlsb_record(0x0269, struct.pack("<I", len(xf)))
              + b"".join(xlsb_record(0x002F, x) for x in xf) + xlsb_record(0x026A))  # fmt: skip
    rels = "".join(
        f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        f'relationships/worksheet" Target="worksheets/sheet{n}.bin"/>'
        for n in range(1, len(names) + 1)
    )
    content_types = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.'
        'openxmlformats.org/package/2006/content-types"><Default Extension="bin" ContentType='
        '"application/vnd.ms-excel.sheet.binary.macroEnabled.main"/><Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:

        def put(name: str, data: str | bytes) -> None:  # dated 1980: the same bytes each time
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data,
                             compress_type=zipfile.ZIP_DEFLATED)  # fmt: skip

        put("[Content_Types].xml", content_types)
        put(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http:'
            '//schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
            'Target="xl/workbook.bin"/></Relationships>',
        )
        put("xl/workbook.bin", workbook)
        put(
            "xl/_rels/workbook.bin.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            f'openxmlformats.org/package/2006/relationships">{rels}</Relationships>',
        )
        put("xl/styles.bin", styles)
        for n, name in enumerate(names, start=1):
            put(f"xl/worksheets/sheet{n}.bin", (parts or {}).get(name) or xlsb_sheet(sheets[name]))
    return path


# --- html -------------------------------------------------------------------------------------


def html_number(value: float) -> str:
    """A number as a Spanish or German page shows it: ``1.234,5``."""
    text = f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return text.rstrip("0").rstrip(",") if "," in text else text


def html_cell(value: Any, tag: str = "td") -> str:
    if isinstance(value, Merged):
        return f'<{tag} colspan="{value.across}">{escape(str(value.value))}</{tag}>'
    if isinstance(value, dt.date):
        return f"<{tag}>{value:%d.%m.%Y}</{tag}>"
    if isinstance(value, bool) or value is None:
        return f"<{tag}>{'' if value is None else value}</{tag}>"
    if isinstance(value, int | float):
        return f'<{tag} class="num">{html_number(value)}</{tag}>'
    return f"<{tag}>{escape(str(value)).replace(' ', '&nbsp;', 1)}</{tag}>"


def html_table(rows: Rows) -> str:
    return "<table border=\"1\">" + "".join(
        "<tr>" + "".join(html_cell(value) for value in cells) + "</tr>" for cells in rows
    ) + "</table>"


def write_html(path: Path, *tables: Rows, charset: str = "utf-8") -> Path:
    """A page of the tables, one after another, as SAP's export writes it."""
    page = (
        f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={charset}">'
        "<style>td.num { mso-number-format: '#,##0.00'; }</style></head><body>"
        + "".join(html_table(rows) for rows in tables)
        + "</body></html>"
    )
    path.write_bytes(page.encode(charset))
    return path


# --- the waste register every format is tested with -------------------------------------------

REGISTER_HEADER = ["Facility", "Identification name", "Start date", "End date", "Base quantity",
                   "Unit", "LER code", "RD code", "Destination", "Client row id"]  # fmt: skip


def register_row(number: int, month: int, quantity: Any, facility: str = "Madrid Warehouse"
                 ) -> list[Any]:  # fmt: skip
    return [facility, f"INV-{number:05d}", dt.date(2026, month, 1), dt.date(2026, month, 28),
            quantity, "kg", "20 01 01", "R3", "Recycling plant", None]  # fmt: skip


#: A waste register as people keep it: a title merged over the columns, a blank row, the header,
#: real dates, a quantity with decimals, a bad row ("lots") and a failed formula (row 6, 7).
WASTE_REGISTER: list[list[Any]] = [
    [Merged("Waste register 2026", 4)],
    [],
    REGISTER_HEADER,
    register_row(1, 1, 120.5),
    register_row(2, 2, 1234.75, facility="Barcelona Plant"),
    register_row(3, 3, "lots"),
    register_row(4, 4, Shown("#DIV/0!")),
    register_row(5, 5, 80.25),
]
#: The rejects each format must give for it: (row as the file shows it, column, code).
REGISTER_REJECTS = {(6, "Base quantity", "INVALID_NUMBER"), (7, "Base quantity", "FORMULA_ERROR")}
XLSB_FIXTURE = Path(__file__).parent / "fixtures" / "waste_register.xlsb"


def register_xlsx(path: Path) -> Path:
    """WASTE_REGISTER as Excel saves it in an .xlsx: the title merged, the failed formula's
    error cached."""
    from tests.builders import set_cached_errors, write_xlsx

    rows = [[cell.value if isinstance(cell, Merged) else "=1/0" if isinstance(cell, Shown)
             else cell for cell in cells] for cells in WASTE_REGISTER]  # fmt: skip
    write_xlsx(path, {"Wastes": rows}, merged={"Wastes": ["A1:D1"]})
    set_cached_errors(path, 0, {"E7": "#DIV/0!"})
    return path


if __name__ == "__main__":  # writes the committed .xlsb fixture (see tests/fixtures/README.md)
    write_xlsb(XLSB_FIXTURE, {"Wastes": WASTE_REGISTER, "Lists": [["kg"], ["t"]]},
               hidden=["Lists"])  # fmt: skip
    print(XLSB_FIXTURE, XLSB_FIXTURE.stat().st_size, "bytes")


# --- BIFF by hand, for the files xlwt will not write (damaged, hostile, cached errors) ----------


def biff_record(kind: int, payload: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(payload)) + payload


def biff_workbook(sheets: Sequence[Sequence[bytes]], *, globals_extra: Sequence[bytes] = ()
                  ) -> bytes:  # fmt: skip
    """A BIFF8 workbook stream: the globals (BOF, ``globals_extra``, a BOUNDSHEET per sheet,
    EOF), then each sheet's BOF, records and EOF."""
    bof = [biff_record(0x0809, struct.pack("<HHHHII", 0x0600, dt_, 0, 1997, 0, 0x06))
           for dt_ in (0x0005, 0x0010)]  # fmt: skip
    names = [f"Sheet{n}" for n in range(1, len(sheets) + 1)]
    bound = [len(name) + 12 for name in names]
    start = len(bof[0]) + sum(len(r) for r in globals_extra) + sum(bound) + 4
    substreams, positions = [], []
    for records in sheets:
        positions.append(start + sum(len(s) for s in substreams))
        substreams.append(bof[1] + b"".join(records) + biff_record(0x000A))
    sheet_records = [
        biff_record(0x0085, struct.pack("<IBBBB", position, 0, 0, len(name), 0) + name.encode())
        for position, name in zip(positions, names, strict=True)
    ]
    return (bof[0] + b"".join(globals_extra) + b"".join(sheet_records) + biff_record(0x000A)
            + b"".join(substreams))  # fmt: skip


def biff_number(row: int, column: int, value: float) -> bytes:
    return biff_record(0x0203, struct.pack("<HHHd", row, column, 15, value))


def biff_label(row: int, column: int, text: str) -> bytes:
    return biff_record(0x0204, struct.pack("<HHHHB", row, column, 15, len(text), 0) + text.encode())


def biff_formula_error(row: int, column: int, error: str) -> bytes:
    """A formula cell whose cached result is ``error`` (how Excel stores a failed formula)."""
    value = bytes([2, 0, _BIFF_ERRORS[error], 0, 0, 0, 0xFF, 0xFF])
    formula = bytes([0x1E, 1, 0, 0x1E, 0, 0, 0x06])  # =1/0 (PtgInt 1, PtgInt 0, PtgDiv)
    return biff_record(0x0006, struct.pack("<HHH", row, column, 15) + value
                       + struct.pack("<HIH", 0, 0, len(formula)) + formula)  # fmt: skip
