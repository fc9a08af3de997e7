from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
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
