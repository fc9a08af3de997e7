from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import (
    CorruptSourceError,
    DuplicateColumnError,
    SourceEncodingError,
    SourceTooLargeError,
    UnsupportedSourceError,
)
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from emissions_etl.sources.limits import MAX_CELL_CHARS
from tests.builders import write_csv

WASTES = resource_spec("wastes")
EXPECTED = list(WASTES.columns)
INPUT_ALIASES = WASTES.aliases
ERP_HEADER = ["Werk", "Abfallbezeichnung", "Von", "Bis", "Menge", "ME", "LER-Code", "R/D",
              "Entsorger", "Text"]  # fmt: skip
ERP_ROW = ["Barcelona Plant", "Papier", "01.02.2026", "28.02.2026", "1.234,5", "kg", "20 01 01",
           "R3", "Müller Entsorgung", "Büro"]  # fmt: skip


def read(path: Path, **options):  # type: ignore[no-untyped-def]
    return list(read_source(path, expected_columns=EXPECTED, aliases=INPUT_ALIASES, **options))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_encoding_is_detected(tmp_path: Path, encoding: str) -> None:
    path = write_csv(tmp_path / "erp.csv", [ERP_HEADER, ERP_ROW], delimiter=";", encoding=encoding)
    [batch] = read(path)
    assert batch["destination"].tolist() == ["Müller Entsorgung"]
    assert batch.attrs["headers"]["facility"] == "Werk"


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_delimiter_is_detected(tmp_path: Path, delimiter: str) -> None:
    row = [cell.replace(",", ".") for cell in ERP_ROW]
    path = write_csv(tmp_path / "erp.csv", [ERP_HEADER, row], delimiter=delimiter)
    [batch] = read(path)
    assert batch["facility"].tolist() == ["Barcelona Plant"]
    assert batch["ler_code"].tolist() == ["20 01 01"]


def test_decimal_commas_survive_as_text_for_validation(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "erp.csv", [ERP_HEADER, ERP_ROW], delimiter=";")
    [batch] = read(path)
    assert batch["base_quantity"].tolist() == ["1.234,5"]


def test_given_encoding_and_delimiter_are_used(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "erp.txt", [ERP_HEADER, ERP_ROW], delimiter="|", encoding="latin-1")
    [batch] = read(path, encoding="latin-1", delimiter="|")
    assert batch["description"].tolist() == ["Büro"]


def test_row_number_is_the_line_number_with_the_header_as_line_one(tmp_path: Path) -> None:
    rows = [ERP_HEADER, ERP_ROW, [""], ERP_ROW]
    path = write_csv(tmp_path / "erp.csv", rows, delimiter=";")
    [batch] = read(path)
    assert batch["_row"].tolist() == [2, 4]
    assert set(batch["_sheet"]) == {""}


def test_a_wrong_given_encoding_is_unsupported_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "erp.csv"
    path.write_bytes((";".join(ERP_HEADER) + "\n" + ";".join(ERP_ROW) + "\n").encode("utf-16"))
    with pytest.raises(UnsupportedSourceError):
        read(path, encoding="ascii")


def test_utf16_unicode_text_from_excel_is_read(tmp_path: Path) -> None:
    text = "\r\n".join("\t".join(cells) for cells in [ERP_HEADER, ERP_ROW]) + "\r\n"
    path = tmp_path / "unicode.txt"
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    [batch] = read(path)
    assert batch["destination"].tolist() == ["Müller Entsorgung"]
    assert batch["base_quantity"].tolist() == ["1.234,5"]


def test_a_file_mixing_utf8_and_latin1_is_refused_at_the_first_line_that_breaks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.csv"
    utf8 = (";".join(ERP_HEADER) + "\n" + ";".join(ERP_ROW) + "\n").encode()
    path.write_bytes(utf8 + ";".join(ERP_ROW).encode("latin-1") + b"\n")
    with pytest.raises(SourceEncodingError, match="line 3 is not UTF-8 like the lines before it"):
        read(path)


def test_a_cell_over_the_cap_is_refused_naming_its_line_and_column(tmp_path: Path) -> None:
    long_row = [*ERP_ROW[:9], "x" * (MAX_CELL_CHARS + 1)]
    path = write_csv(tmp_path / "erp.csv", [ERP_HEADER, ERP_ROW, long_row], delimiter=";")
    with pytest.raises(SourceTooLargeError, match="line 3, column J 'Text': a cell of 32,768"):
        read(path)


def test_a_header_over_the_cap_is_refused_naming_its_column(tmp_path: Path) -> None:
    header = [*ERP_HEADER, "H" * 1001]
    path = write_csv(tmp_path / "erp.csv", [header, [*ERP_ROW, "x"]], delimiter=";")
    with pytest.raises(SourceTooLargeError, match="line 1, column K: a header of 1,001"):
        read(path)


def test_two_headers_meaning_one_column_are_refused_naming_both(tmp_path: Path) -> None:
    header = [*ERP_HEADER, "Quantity"]
    path = write_csv(tmp_path / "erp.csv", [header, [*ERP_ROW, "5"]], delimiter=";")
    with pytest.raises(
        DuplicateColumnError, match="columns E 'Menge' and K 'Quantity' both mean base_quantity"
    ):
        read(path)


def test_two_identical_unknown_headers_are_kept_apart(tmp_path: Path) -> None:
    header = [*ERP_HEADER, "Kostenstelle", "Kostenstelle"]
    path = write_csv(tmp_path / "erp.csv", [header, [*ERP_ROW, "A", "B"]], delimiter=";")
    [batch] = read(path)
    assert batch["kostenstelle"].tolist() == ["A"]
    assert batch["kostenstelle_2"].tolist() == ["B"]


def test_nul_characters_stay_in_their_cell_for_validation_to_reject(tmp_path: Path) -> None:
    row = [*ERP_ROW[:9], "B\x00ro"]
    path = write_csv(tmp_path / "erp.csv", [ERP_HEADER, row], delimiter=";")
    [batch] = read(path)
    assert batch["description"].tolist() == ["B\x00ro"]


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (b"", UnsupportedSourceError, "the file is empty"),
        (bytes(range(256)) * 16, UnsupportedSourceError, "binary content"),
        (b'Werk;Menge\n"open;1\n', CorruptSourceError, "never ends"),
    ],
)
def test_unreadable_files_are_one_input_error(
    tmp_path: Path, content: bytes, error: type[Exception], message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(error, match=message):
        read(path, required_columns=["facility"])


def test_a_row_wider_than_the_header_is_refused_naming_its_line(tmp_path: Path) -> None:
    rows = [ERP_HEADER, ERP_ROW, [*ERP_ROW, "surplus"]]
    path = write_csv(tmp_path / "erp.csv", rows, delimiter=";")
    with pytest.raises(CorruptSourceError, match="line 3 has 11 cells but the header has 10"):
        read(path)
