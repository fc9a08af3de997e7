"""A corpus of bad input files, generated (no binaries are committed), each with the outcome
``emissions-etl validate FILE --resource wastes`` must give: exit 2 and a one-line message for a
problem with the file, exit 1 and a reject at a row and column for a problem in a row, 0 for a
file that must load. Nothing may end in a traceback or an abort, nor take more than 2 s of work
or 500 MB.

Run ``.venv/bin/python -m tests.corpus.make_corpus OUT_DIR`` to write the files and list them.
"""

from __future__ import annotations

import io
import os
import random
import struct
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = ["Facility", "Identification name", "Start date", "End date", "Base quantity", "Unit",
          "LER code", "RD code", "Destination", "Description", "Client row id"]  # fmt: skip


def row(number: int = 1, **changes: Any) -> list[Any]:
    """A valid waste row in HEADER order; ``changes`` override cells by canonical name."""
    values = {
        "facility": "Madrid Warehouse",
        "identification_name": f"RSU-2026-{number:03d}",
        "start_date": "2026-01-01",
        "end_date": "2026-01-31",
        "base_quantity": 120.5,
        "unit": "kg",
        "ler_code": "20 01 01",
        "rd_code": "R3",
        "destination": "Gestora Norte",
        "description": "",
        "client_row_id": "",
    }
    values.update(changes)
    return list(values.values())


@dataclass(frozen=True)
class Case:
    """One file of the corpus and what validating it must give."""

    name: str
    build: Callable[[Path], None]
    exit_code: int
    #: A fragment of the one line on stderr (exit 2).
    message: str = ""
    #: (row, column as written, code) that must be among the rejects (exit 1).
    rejects: tuple[tuple[int, str, str], ...] = ()
    #: Why the expectation may not hold yet (work of another part of the pipeline).
    xfail: str = ""


# --- csv -----------------------------------------------------------------------------------


def csv_text(rows: Sequence[Sequence[Any]], delimiter: str = ",") -> str:
    return "".join(delimiter.join(str(cell) for cell in cells) + "\n" for cells in rows)


def write_csv(
    rows: Sequence[Sequence[Any]], *, encoding: str = "utf-8", delimiter: str = ","
) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        path.write_bytes(csv_text(rows, delimiter).encode(encoding))

    return build


def write_bytes(data: bytes) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        path.write_bytes(data)

    return build


def mixed_encodings(path: Path) -> None:
    """UTF-8 lines (one with ü), then from line 57 a Latin-1 line (é as 0xe9)."""
    lines = [csv_text([HEADER]).encode()]
    lines += [csv_text([row(n, destination="Müller")]).encode() for n in range(1, 55)]
    lines += [csv_text([row(55)]).encode()]
    lines += [csv_text([row(56, destination="Gestión Sur")]).encode("latin-1")]
    path.write_bytes(b"".join(lines))


def late_encoding_change(path: Path) -> None:
    """UTF-8 (ü on line 2), then past the first megabyte (the first chunk read, four times the
    csv parser's 256 KB buffer) a cp1252 line: found where it is, however late."""
    lines = [csv_text([HEADER, row(1, destination="Müller")]).encode()]
    lines += [csv_text([row(n)]).encode() for n in range(2, 14_000)]
    lines += [csv_text([row(14_000, destination="Gestión Sur")]).encode("cp1252")]
    lines += [csv_text([row(n)]).encode() for n in range(14_001, 14_100)]
    path.write_bytes(b"".join(lines))


def late_utf8_after_cp1252(path: Path) -> None:
    """ASCII, a cp1252 line past 1 MB (the file is cp1252 so far), then a UTF-8 line."""
    lines = [csv_text([HEADER]).encode()]
    lines += [csv_text([row(n)]).encode() for n in range(1, 13_000)]
    lines += [csv_text([row(13_000, destination="Gestión Sur")]).encode("cp1252")]
    lines += [csv_text([row(n)]).encode() for n in range(13_001, 14_000)]
    lines += [csv_text([row(14_000, destination="Müller")]).encode()]
    path.write_bytes(b"".join(lines))


def control_characters(path: Path) -> None:
    """NUL and other control characters in cells, in a column no resource reads, in its
    header: validate --rejects out.xlsx must still write the annotated copy."""
    header = [*HEADER, "Notas\x07"]
    rows = [
        row(1, facility="Madrid\x00Warehouse") + ["a\x0cb"],
        row(2, destination="Gestora\x1b[2JNorte") + ["\x01\x02\x03"],
        row(3, description="=HYPERLINK(\"http://x\")") + ["\x7f\x9f"],
        row(4, identification_name="RSU\x0b2026") + [""],
    ]
    path.write_bytes(csv_text([header, *rows]).encode())


def utf16_unicode_text(path: Path) -> None:
    """What Excel's "Unicode text" writes: UTF-16 LE with a BOM, tab separated, CRLF."""
    text = csv_text([HEADER, row(1, destination="Müller"), row(2)], "\t").replace("\n", "\r\n")
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))


def long_line(path: Path) -> None:
    path.write_bytes(csv_text([HEADER]).encode() + b"x" * (5 * 1024 * 1024))


# --- xlsx ----------------------------------------------------------------------------------

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"


class Shown(str):
    """A cell whose formula failed: stored as Excel stores it, ``t="e"`` with the error as the
    cached value (``Shown("#DIV/0!")``)."""


def cell_xml(reference: str, value: Any, prefix: str = "") -> str:
    if isinstance(value, Shown):
        return (
            f'<{prefix}c r="{reference}" t="e"><{prefix}f>FAILED()</{prefix}f>'
            f"<{prefix}v>{value}</{prefix}v></{prefix}c>"
        )
    if isinstance(value, int | float):
        return f'<{prefix}c r="{reference}"><{prefix}v>{value}</{prefix}v></{prefix}c>'
    return (
        f'<{prefix}c r="{reference}" t="inlineStr"><{prefix}is><{prefix}t>{value}</{prefix}t>'
        f"</{prefix}is></{prefix}c>"
    )


def rows_xml(rows: Sequence[Sequence[Any]], prefix: str = "") -> str:
    out = []
    for number, cells in enumerate(rows, start=1):
        inner = "".join(
            cell_xml(f"{_letters(index)}{number}", value, prefix)
            for index, value in enumerate(cells)
            if value not in ("", None)
        )
        out.append(f'<{prefix}row r="{number}">{inner}</{prefix}row>')
    return "".join(out)


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def sheet_xml(data: str, *, prefix: str = "", after: str = "") -> str:
    declare = f"xmlns:{prefix[:-1]}" if prefix else "xmlns"
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<{prefix}worksheet {declare}="{_MAIN}"><{prefix}sheetData>{data}</{prefix}sheetData>'
        f"{after}</{prefix}worksheet>"
    )


def write_workbook(
    path: Path | io.BytesIO,
    sheets: Sequence[tuple[str, str]],
    *,
    hidden: Sequence[str] = (),
    shared_strings: bytes | None = None,
    extra: Sequence[tuple[str, bytes]] = (),
    level: int = 6,
) -> None:
    """A minimal xlsx: (sheet name, sheet XML) pairs, optional parts added as given."""
    states = dict.fromkeys(hidden, ' state="hidden"')
    entries = "".join(
        f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"{states.get(name, "")}/>'
        for n, (name, _) in enumerate(sheets, start=1)
    )
    relations = "".join(
        f'<Relationship Id="rId{n}" Type="{_RELS}/worksheet" Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, len(sheets) + 1)
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.'
            'org/package/2006/content-types"><Default Extension="xml" ContentType="application/'
            'xml"/></Types>',
        )
        archive.writestr(
            "_rels/.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PACKAGE_RELS}">'
            f'<Relationship Id="rId1" Type="{_RELS}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        archive.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_MAIN}" xmlns:r="{_RELS}">'
            f"<sheets>{entries}</sheets></workbook>",
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PACKAGE_RELS}">'
            f"{relations}</Relationships>",
        )
        for n, (_, xml) in enumerate(sheets, start=1):
            archive.writestr(f"xl/worksheets/sheet{n}.xml", xml)
        if shared_strings is not None:
            archive.writestr("xl/sharedStrings.xml", shared_strings)
        for name, data in extra:
            archive.writestr(name, data)


def good_rows_xml() -> str:
    return rows_xml([HEADER, row(1), row(2)])


def xlsx(data: str, **options: Any) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        write_workbook(path, [("Wastes", sheet_xml(data))], **options)

    return build


def far_cell_bomb(path: Path) -> None:
    """2.5 KB: one value in XFD1048576 makes calamine's grid 16,384 x 1,048,576 cells."""
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml() + far))])


def prefixed_bomb(path: Path) -> None:
    """The same bomb in a sheet whose tags carry a namespace prefix (``<x:c>``)."""
    far = '<x:row r="1048576"><x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row>'
    data = rows_xml([HEADER, row(1)], prefix="x:") + far
    write_workbook(path, [("Wastes", sheet_xml(data, prefix="x:"))])


def unreferenced_cells_bomb(path: Path) -> None:
    """Cells without ``r`` take the next column: 2,000 of them in row 1,048,576."""
    far = '<row r="1048576">' + "<c><v>1</v></c>" * 2000 + "</row>"
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml() + far))])


def hidden_bomb(path: Path) -> None:
    """A hidden sheet holding the bomb is never loaded: the visible sheet reads fine."""
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    write_workbook(
        path,
        [("Wastes", sheet_xml(good_rows_xml())), ("Old", sheet_xml(far))],
        hidden=["Old"],
    )


def many_merges(path: Path) -> None:
    merges = "".join(f'<mergeCell ref="M{n}:N{n}"/>' for n in range(1, 100_002))
    after = f'<mergeCells count="100001">{merges}</mergeCells>'
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml(), after=after))])


def many_members(path: Path) -> None:
    """10,001 empty members: each would cost an index entry in zipfile and in calamine."""
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml()))])
    with zipfile.ZipFile(path, "a") as archive:
        for number in range(10_001):
            archive.writestr(f"xl/media/empty{number}.bin", b"")


def shared_strings_bomb(path: Path) -> None:
    """3.1 million distinct shared strings (~9 MB of zip): calamine would hold each one."""
    count = 3_100_000
    items = "".join(f"<si><t>{n:x}</t></si>" for n in range(count))
    sst = (
        f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{_MAIN}" count="{count}" '
        f'uniqueCount="{count}">{items}</sst>'
    ).encode()
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml()))], shared_strings=sst, level=1)


def zip_bomb(path: Path) -> None:
    """A 300 MB member of zeros deflated to ~300 KB (ratio ~1,000), streamed in."""
    write_workbook(path, [("Wastes", sheet_xml(good_rows_xml()))])
    zeros = bytes(1024 * 1024)
    with (
        zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive,
        archive.open("xl/media/image1.bin", "w", force_zip64=True) as member,
    ):
        for _ in range(300):
            member.write(zeros)


def lying_member(path: Path) -> None:
    """styles.xml declares 1,000 bytes but inflates to 3 MB (sizes patched in the zip)."""
    styles = b"<styleSheet>" + b" " * (3 * 1024 * 1024) + b"</styleSheet>"
    write_workbook(
        path, [("Wastes", sheet_xml(good_rows_xml()))], extra=[("xl/styles.xml", styles)]
    )
    data = bytearray(path.read_bytes())
    name = b"xl/styles.xml"
    local = data.find(b"PK\x03\x04")
    while local >= 0:
        if data[local + 30 : local + 30 + len(name)] == name:
            struct.pack_into("<I", data, local + 22, 1000)
            break
        local = data.find(b"PK\x03\x04", local + 4)
    central = data.find(b"PK\x01\x02")
    while central >= 0:
        if data[central + 46 : central + 46 + len(name)] == name:
            struct.pack_into("<I", data, central + 24, 1000)
            break
        central = data.find(b"PK\x01\x02", central + 4)
    path.write_bytes(bytes(data))


def truncated_xlsx(path: Path) -> None:
    buffer = io.BytesIO()
    write_workbook(buffer, [("Wastes", sheet_xml(good_rows_xml()))])
    data = buffer.getvalue()
    path.write_bytes(data[: len(data) // 2])


def damaged_ods(path: Path) -> None:
    """An .ods that lost its manifest (a zip cut and mended by a mail gateway)."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", "<office:document-content/>")


# --- OLE (compound file) containers --------------------------------------------------------


def compound_file(streams: Sequence[tuple[str, bytes]]) -> bytes:
    """A minimal compound file (version 3, 512-byte sectors) holding ``streams``, each padded
    to 4,096 bytes so that no mini stream is needed."""
    end, free, fat_sector = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD
    sector = 512
    padded = [(name, data.ljust(max(4096, -(-len(data) // sector) * sector), b"\0"))
              for name, data in streams]  # fmt: skip
    fat = [fat_sector, end]  # sector 0: the FAT, sector 1: the directory
    starts = []
    for _, data in padded:
        starts.append(len(fat))
        count = len(data) // sector
        fat += [len(fat) + i + 1 for i in range(count - 1)] + [end]
    fat += [free] * (sector // 4 - len(fat))

    def entry(name: str, kind: int, start: int, size: int, child: int, right: int) -> bytes:
        encoded = (name + "\0").encode("utf-16-le")
        return (
            encoded.ljust(64, b"\0")
            + struct.pack("<HBB", len(encoded), kind, 1)
            + struct.pack("<III", free, right, child)
            + bytes(16 + 4 + 16)
            + struct.pack("<III", start, size, 0)
        )

    entries = [entry("Root Entry", 5, end, 0, 1 if padded else free, free)]
    for index, ((name, data), start) in enumerate(zip(padded, starts, strict=True), start=1):
        right = index + 1 if index < len(padded) else free
        entries.append(entry(name, 2, start, len(data), free, right))
    directory = b"".join(entries).ljust(sector, b"\0")
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + bytes(16)
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + bytes(6)
        + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, end, 0, end, 0)
        + struct.pack("<I", 0)
        + struct.pack("<I", free) * 108
    )
    body = struct.pack(f"<{len(fat)}I", *fat) + directory + b"".join(d for _, d in padded)
    return header + body


def encrypted_xlsx(path: Path) -> None:
    """What Excel saves with a password: an OLE container with EncryptedPackage."""
    info = struct.pack("<HHI", 4, 4, 0x40) + os.urandom(200)
    path.write_bytes(
        compound_file([("EncryptionInfo", info), ("EncryptedPackage", os.urandom(5000))])
    )


def legacy_workbook(rows: Sequence[Sequence[Any]]) -> bytes:
    """A real Excel 97-2003 (BIFF8) workbook of one sheet "Wastes", as xlwt writes it."""
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("Wastes")
    for r, cells in enumerate(rows):
        for c, value in enumerate(cells):
            if value not in ("", None):
                sheet.write(r, c, value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def damaged_xls(path: Path) -> None:
    """A real .xls cut short, as an interrupted download leaves it."""
    data = legacy_workbook([HEADER, *(row(n) for n in range(1, 200))])
    path.write_bytes(data[: len(data) * 2 // 3])


def html_page_without_table(path: Path) -> None:
    """What SAP serves as "export.xls" when the session expired: a page, no table."""
    path.write_text(
        "<!DOCTYPE html><html><head><title>SAP NetWeaver</title></head><body><h1>Session "
        "expired</h1><p>Log on again to export the report.</p></body></html>"
    )


def html_table(path: Path) -> None:
    """SAP's "Spreadsheet" export: an HTML table named .xls, decimal commas, a bad date."""
    from tests.format_builders import html_table as table

    rows = [HEADER, row(1, base_quantity="1.234,5", start_date="01.01.2026"),
            row(2, end_date="31.02.2026")]  # fmt: skip
    path.write_text(f"<html><body>{table(rows)}</body></html>")


def xls_far_cell(path: Path) -> None:
    """A real-looking .xls whose hidden second sheet holds one value in IV65536: calamine
    loads every sheet of an .xls when it opens it, into a grid of 16.7 million cells."""
    from tests.format_builders import biff_label, biff_number, biff_workbook

    header = [biff_label(0, column, text) for column, text in enumerate(HEADER)]
    stream = biff_workbook([header, [biff_number(65_535, 255, 1.0)]])
    path.write_bytes(compound_file([("Workbook", stream)]))


def ods_repeat_bomb(path: Path) -> None:
    """1 KB of .ods: a row of 1,000 values repeated a million times (after the million empty
    rows LibreOffice writes below the data, so the sheet reaches Excel's last row)."""
    from tests.format_builders import ods_content, write_ods

    bomb = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
            'table:number-columns-repeated="1000" office:value-type="float" office:value="1"/>'
            "</table:table-row>")  # fmt: skip
    content = ods_content({"Wastes": [HEADER, row(1)]})
    write_ods(path, {}, content=content.replace("</table:table>", bomb + "</table:table>", 1))


def xlsb_far_cell(path: Path) -> None:
    """An .xlsb with one value in column 4,000,000,001 (calamine's grid would span it)."""
    from tests.format_builders import write_xlsb, xlsb_record, xlsb_sheet

    far = xlsb_record(0x0005, struct.pack("<IId", 4_000_000_000, 0, 1.0))
    write_xlsb(path, {"Wastes": []}, parts={"Wastes": xlsb_sheet([HEADER, row(1)], extra=[far])})


# --- the corpus ----------------------------------------------------------------------------

CASES: tuple[Case, ...] = (
    Case("xfd_bomb.xlsx", far_cell_bomb, 2, "uses A1:XFD1048576"),
    Case("prefixed_bomb.xlsx", prefixed_bomb, 2, "uses A1:XFD1048576"),
    Case("unreferenced_cells_bomb.xlsx", unreferenced_cells_bomb, 2, "the limit is 1,000 columns"),
    Case("hidden_sheet_bomb.xlsx", hidden_bomb, 0),
    Case("shared_strings_bomb.xlsx", shared_strings_bomb, 2, "more than 3,000,000 strings"),
    Case("zip_bomb.xlsx", zip_bomb, 2, "a zip bomb"),
    Case("lying_member.xlsx", lying_member, 2, "inflates to more than the 1,000 declared"),
    Case("many_merges.xlsx", many_merges, 2, "100,001 merged ranges"),
    Case("many_members.xlsx", many_members, 2, "the zip lists 10,006 members"),
    Case("truncated.xlsx", truncated_xlsx, 2, "damaged or truncated"),
    Case("encrypted.xlsx", encrypted_xlsx, 2, "password-protected"),
    Case("damaged.xls", damaged_xls, 2, "the workbook is damaged (sector"),
    Case("damaged.ods", damaged_ods, 2, "the spreadsheet is damaged (it has no META-INF/manifest"),
    Case("good.xlsx", xlsx(good_rows_xml()), 0),
    Case("session_expired.xls", html_page_without_table, 2, "an HTML page with no table in it"),
    Case("sap_export.xls", html_table, 1, rejects=((3, "End date", "INVALID_DATE"),)),
    Case("far_cell.xls", xls_far_cell, 2, "sheet 'Sheet2' uses A1:IV65536"),
    Case("repeat_bomb.ods", ods_repeat_bomb, 2, "sheet 'Wastes' uses A1:ALL1048576"),
    Case("far_cell.xlsb", xlsb_far_cell, 2, "4,000,000,001 columns"),
    Case(
        "long_cell.csv",
        write_csv([HEADER, row(1, description="x" * 200_000)]),
        2,
        "line 2, column J 'Description': a cell of 200,000 characters; the limit is 32,767",
    ),
    Case(
        "long_header.csv",
        write_csv([[*HEADER, "N" * 5000], row(1) + ["x"]]),
        2,
        "line 1, column L: a header of 5,000 characters; the limit is 1,000",
    ),
    Case("long_line.csv", long_line, 2, "line 2 is longer than 4,194,304 characters"),
    Case("offset_date.csv", write_csv([HEADER, row(1, start_date="2026-01-01T23:30:00-05:00")]), 0),
    Case(
        "out_of_range_date.csv",
        write_csv([HEADER, row(1), row(2, start_date="10000-01-01")]),
        1,
        rejects=((3, "Start date", "INVALID_DATE"),),
    ),
    Case(
        "impossible_date.csv",
        write_csv([HEADER, row(1, end_date="2026-02-30")]),
        1,
        rejects=((2, "End date", "INVALID_DATE"),),
    ),
    Case("mixed_encodings.csv", mixed_encodings, 2, "line 57 is not UTF-8 like the lines before"),
    Case("cp1252.csv", write_csv([HEADER, row(1, destination="Gestión")], encoding="cp1252"), 0),
    Case("utf16_unicode_text.txt", utf16_unicode_text, 0),
    Case(
        "nul_in_cell.csv",
        write_csv([HEADER, row(1, facility="Madrid\0Warehouse")]),
        1,
        rejects=((2, "Facility", "INVALID_TEXT"),),
    ),
    Case(
        "duplicate_headers.csv",
        write_csv([[*HEADER, "start_date"], row(1) + ["2026-01-01"]]),
        2,
        "columns C 'Start date' and L 'start_date' both mean start_date: keep one",
    ),
    Case(
        "alias_duplicate_headers.csv",
        write_csv([[*HEADER, "Menge"], row(1) + ["5"]]),
        2,
        "columns E 'Base quantity' and L 'Menge' both mean base_quantity",
    ),
    Case("empty.csv", write_bytes(b""), 2, "the file is empty"),
    Case("header_only.csv", write_csv([HEADER]), 2, "no data rows under the header"),
    # Seeded: one random file in 20,000 starts like a UTF-16 byte-order mark and is read so.
    Case("binary.csv", write_bytes(random.Random(435).randbytes(4096)), 2, "binary content"),
    Case(
        "extra_cells.csv",
        write_csv([HEADER, row(1), row(2) + ["surplus"]]),
        2,
        "line 3 has 12 cells but the header has 11",
    ),
    Case(
        "open_quote.csv",
        write_bytes(csv_text([HEADER, row(1)]).encode() + b'x,"never closed\n'),
        2,
        "never ends",
    ),
    Case(
        "huge_quantity.csv",
        write_csv([HEADER, row(1, base_quantity="1e308")]),
        1,
        rejects=((2, "Base quantity", "OUT_OF_RANGE"),),
    ),
    Case(
        "formula_error_required.xlsx",
        xlsx(rows_xml([HEADER, row(1), row(2, base_quantity=Shown("#DIV/0!")),
                       row(3, facility=Shown("#REF!"))])),  # fmt: skip
        1,
        rejects=((3, "Base quantity", "FORMULA_ERROR"), (4, "Facility", "FORMULA_ERROR")),
    ),
    Case(
        "formula_error_optional.xlsx",
        xlsx(rows_xml([HEADER, row(1), row(2, description=Shown("#N/A"))])),
        1,
        rejects=((3, "Description", "FORMULA_ERROR"),),
    ),
    Case(
        "formula_error_row_id.xlsx",
        xlsx(rows_xml([HEADER, row(1, client_row_id="A-1"),
                       row(2, client_row_id=Shown("#NAME?"))])),  # fmt: skip
        1,
        rejects=((3, "Client row id", "FORMULA_ERROR"),),
    ),
    Case(
        "formula_error_spill.xlsx",
        xlsx(rows_xml([HEADER, row(1), row(2, base_quantity=Shown("#SPILL!"))])),
        2,
        "sheet 'Wastes', cell E3 shows #SPILL!, an error value that cannot be read",
    ),
    Case(
        "formula_error_text.csv",
        write_csv([HEADER, row(1, base_quantity="#DIV/0!"), row(2, description="#N/A"),
                   row(3, client_row_id="#¿NOMBRE?"), row(4)]),  # fmt: skip
        1,
        rejects=((2, "Base quantity", "FORMULA_ERROR"), (3, "Description", "FORMULA_ERROR"),
                 (4, "Client row id", "FORMULA_ERROR")),  # fmt: skip
    ),
    Case(
        "late_encoding_change.csv",
        late_encoding_change,
        2,
        "line 14001 is not UTF-8 like the lines before it (byte 0xf3; line 2 is UTF-8)",
    ),
    Case(
        "late_utf8_after_cp1252.csv",
        late_utf8_after_cp1252,
        2,
        "line 14001 is UTF-8 but line 13001 before it is not",
    ),
    Case(
        "control_characters.csv",
        control_characters,
        1,
        rejects=((2, "Facility", "INVALID_TEXT"), (3, "Destination", "INVALID_TEXT"),
                 (5, "Identification name", "INVALID_TEXT")),  # fmt: skip
    ),
    Case(
        "control_characters.xlsx",
        xlsx(rows_xml([HEADER, row(1, facility="Madrid_x0000_Warehouse"),
                       row(2, destination="Gestora_x001b_Norte")])),  # fmt: skip
        1,
        rejects=((2, "Facility", "INVALID_TEXT"), (3, "Destination", "INVALID_TEXT")),
    ),
    Case(
        "number_overflow.csv",
        write_csv(
            [HEADER, row(1, base_quantity="1e400"), row(2, base_quantity="1,2,3")], delimiter=";"
        ),
        1,
        rejects=((2, "Base quantity", "INVALID_NUMBER"), (3, "Base quantity", "INVALID_NUMBER")),
    ),
)


def make_corpus(folder: Path) -> list[Path]:
    """Write every case's file into ``folder``; their paths, in CASES order."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in CASES:
        path = folder / case.name
        case.build(path)
        paths.append(path)
    return paths


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "corpus")
    for made, case in zip(make_corpus(target), CASES, strict=True):
        print(f"{made}  {made.stat().st_size:>10,} bytes  exit {case.exit_code}")
