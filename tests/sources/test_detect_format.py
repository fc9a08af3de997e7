"""A file is read as what its content is, whatever it is called: an .xls that is an xlsx, an
HTML table or tab-separated text; a .csv that is a workbook; and a file that is none of the
formats read is one line naming what it is."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from emissions_etl.errors import EncryptedSourceError, UnsupportedSourceError
from emissions_etl.sources import SourceFormat, is_workbook, read_source, source_format
from tests.builders import WASTE_HEADERS, waste_row, write_xlsx
from tests.corpus.make_corpus import compound_file
from tests.format_builders import REGISTER_HEADER, register_row, write_html, write_ods, write_xls

EXPECTED = ["facility", "identification_name", "start_date", "end_date", "base_quantity"]


def read_rows(path: Path) -> list[tuple[str, int]]:
    batches = read_source(path, expected_columns=EXPECTED)
    found = []
    for batch in batches:
        found += zip(batch["identification_name"], batch["_row"], strict=True)
    return found


def test_an_xls_that_is_an_xlsx_reads_as_an_xlsx(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "export.xls", {"S": [WASTE_HEADERS, waste_row(1)]})

    assert source_format(path) is SourceFormat.XLSX
    assert read_rows(path) == [("RSU-2026-001", 2)]


def test_a_csv_that_is_a_legacy_workbook_reads_as_one(tmp_path: Path) -> None:
    path = write_xls(tmp_path / "data.csv", {"S": [REGISTER_HEADER, register_row(1, 1, 5.0)]})

    assert is_workbook(path)
    assert read_rows(path) == [("INV-00001", 2)]


def test_an_ods_named_xlsx_reads_as_an_ods(tmp_path: Path) -> None:
    path = write_ods(tmp_path / "data.xlsx", {"S": [REGISTER_HEADER, register_row(1, 1, 5.0)]})

    assert source_format(path) is SourceFormat.ODS
    assert read_rows(path) == [("INV-00001", 2)]


def test_an_xls_that_is_an_html_table_reads_as_one(tmp_path: Path) -> None:
    path = write_html(tmp_path / "EXPORT.XLS", [REGISTER_HEADER, register_row(1, 1, 5.0)])

    assert source_format(path) is SourceFormat.HTML
    assert not is_workbook(path)
    assert read_rows(path) == [("INV-00001", 2)]


def test_an_xls_that_is_tab_separated_text_reads_as_a_csv(tmp_path: Path) -> None:
    path = tmp_path / "sap.xls"
    path.write_text("\t".join(REGISTER_HEADER) + "\n" + "\t".join(
        ["Madrid Warehouse", "INV-1", "01.01.2026", "31.01.2026", "1,5", "kg", "20 01 01", "R3"]
    ) + "\n", encoding="utf-16")  # fmt: skip

    assert source_format(path) is SourceFormat.TEXT
    assert read_rows(path) == [("INV-1", 2)]


@pytest.mark.parametrize(
    ("member", "said"),
    [("word/document.xml", "a Word document"), ("ppt/presentation.xml", "a PowerPoint")],
)
def test_an_office_file_that_is_no_workbook_is_named(
    tmp_path: Path, member: str, said: str
) -> None:
    path = tmp_path / "report.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(member, "<x/>")

    with pytest.raises(UnsupportedSourceError, match=said):
        source_format(path)


def test_a_workbook_saved_with_a_password_is_refused_as_such_whatever_its_name(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data.xls"
    path.write_bytes(compound_file([("EncryptionInfo", b"x"), ("EncryptedPackage", b"y")]))

    with pytest.raises(EncryptedSourceError, match="password-protected"):
        source_format(path)


def test_an_xml_spreadsheet_2003_is_one_line_saying_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "export.xls"
    path.write_text('<?xml version="1.0"?><?mso-application progid="Excel.Sheet"?><Workbook '
                    'xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>')  # fmt: skip

    with pytest.raises(UnsupportedSourceError, match="XML Spreadsheet 2003 .* save it as .xlsx"):
        source_format(path)


def test_a_binary_file_of_another_kind_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)))

    with pytest.raises(UnsupportedSourceError, match=r"not a workbook \(xlsx, xls, xlsb, ods\)"):
        source_format(path)
