"""The formats people send besides xlsx read through the same path: a legacy .xls, an .xlsb and
an OpenDocument .ods give the rows an xlsx of the same data gives (every sheet, title rows above
the header, dates and numbers as typed, a failed formula as the error it shows, merged cells
filled, hidden sheets unread, rows numbered as the spreadsheet shows them); an HTML table gives
its cells as the page shows them, for validation to read in the page's locale."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from emissions_etl.sources.formats import NOT_READ
from emissions_etl.sources.peek import peek_rows, sheet_names
from tests.format_builders import (
    REGISTER_HEADER,
    WASTE_REGISTER,
    XLSB_FIXTURE,
    Merged,
    register_row,
    register_xlsx,
    write_html,
    write_ods,
    write_xls,
    write_xlsb,
)

WASTES = resource_spec("wastes")
COLUMNS = ["identification_name", "start_date", "base_quantity", "_sheet", "_row"]
Writer = Callable[..., Any]
WORKBOOK_WRITERS = {"xls": write_xls, "xlsb": write_xlsb, "ods": write_ods}


def read(path: Path, **options: Any) -> pd.DataFrame:
    batches = read_source(path, expected_columns=WASTES.columns, aliases=WASTES.aliases,
                          required_columns=WASTES.required_columns, **options)  # fmt: skip
    return pd.concat(list(batches), ignore_index=True)


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return frame[COLUMNS].to_dict("records")


@pytest.mark.parametrize("kind", list(WORKBOOK_WRITERS))
def test_a_workbook_gives_the_rows_an_xlsx_of_the_same_data_gives(
    tmp_path: Path, kind: str
) -> None:
    path = WORKBOOK_WRITERS[kind](tmp_path / f"register.{kind}", {"Wastes": WASTE_REGISTER})

    assert records(read(path)) == records(read(register_xlsx(tmp_path / "register.xlsx")))


def test_the_committed_xlsb_fixture_is_the_register_and_reads_as_the_xlsx_does(
    tmp_path: Path,
) -> None:
    made = write_xlsb(tmp_path / "again.xlsb", {"Wastes": WASTE_REGISTER, "Lists": [["kg"], ["t"]]},
                      hidden=["Lists"])  # fmt: skip
    assert XLSB_FIXTURE.read_bytes() == Path(str(made)).read_bytes()  # how it was made
    assert records(read(XLSB_FIXTURE)) == records(read(register_xlsx(tmp_path / "r.xlsx")))


@pytest.mark.parametrize("kind", list(WORKBOOK_WRITERS))
def test_dates_and_numbers_come_as_typed_and_a_failed_formula_as_its_error(
    tmp_path: Path, kind: str
) -> None:
    path = WORKBOOK_WRITERS[kind](tmp_path / f"w.{kind}", {"Wastes": WASTE_REGISTER})

    frame = read(path)

    assert frame["start_date"].iloc[0] == dt.date(2026, 1, 1)
    assert frame["base_quantity"].tolist() == [120.5, 1234.75, "lots", "#DIV/0!", 80.25]
    assert frame["_row"].tolist() == [4, 5, 6, 7, 8]  # title, blank, header above


@pytest.mark.parametrize("kind", list(WORKBOOK_WRITERS))
def test_every_visible_sheet_is_read_and_a_hidden_one_is_not(tmp_path: Path, kind: str) -> None:
    sheets = {
        "Enero": [REGISTER_HEADER, register_row(1, 1, 10.0)],
        "Febrero": [REGISTER_HEADER, register_row(2, 2, 20.0)],
        "Old": [REGISTER_HEADER, register_row(3, 3, 30.0)],
    }
    path = WORKBOOK_WRITERS[kind](tmp_path / f"w.{kind}", sheets, hidden=["Old"])

    frame = read(path)

    assert frame[["_sheet", "_row", "base_quantity"]].values.tolist() == [
        ["Enero", 2, 10.0], ["Febrero", 2, 20.0],
    ]  # fmt: skip
    assert sheet_names(path) == ["Enero", "Febrero"]
    assert sheet_names(path, hidden=True) == ["Enero", "Febrero", "Old"]


@pytest.mark.parametrize("kind", list(WORKBOOK_WRITERS))
def test_a_merged_cell_fills_every_cell_it_covers(tmp_path: Path, kind: str) -> None:
    rows = [REGISTER_HEADER, [Merged("Madrid Warehouse", 2), None, *register_row(1, 1, 5.0)[2:]]]
    path = WORKBOOK_WRITERS[kind](tmp_path / f"w.{kind}", {"Wastes": rows})

    frame = read(path)

    assert frame[["facility", "identification_name"]].values.tolist() == [
        ["Madrid Warehouse", "Madrid Warehouse"]
    ]


@pytest.mark.parametrize("kind", list(WORKBOOK_WRITERS))
def test_a_sheet_is_picked_by_name(tmp_path: Path, kind: str) -> None:
    sheets = {"A": [["notes"]], "B": [REGISTER_HEADER, register_row(1, 1, 5.0)]}
    path = WORKBOOK_WRITERS[kind](tmp_path / f"w.{kind}", sheets)

    assert read(path, sheet="B")["_sheet"].tolist() == ["B"]
    assert peek_rows(path, sheet="B")[0][:2] == ["Facility", "Identification name"]


def test_an_html_table_gives_its_cells_as_the_page_shows_them_numbered_within_it(
    tmp_path: Path,
) -> None:
    path = write_html(tmp_path / "export.xls", [["SAP report ZWASTE"], ["Run", "04.03.2026"]],
                      WASTE_REGISTER)  # fmt: skip

    frame = read(path)

    assert records(frame) == [
        {"identification_name": "INV-00001", "start_date": "01.01.2026",
         "base_quantity": "120,5", "_sheet": "", "_row": 4},
        {"identification_name": "INV-00002", "start_date": "01.02.2026",
         "base_quantity": "1.234,75", "_sheet": "", "_row": 5},
        {"identification_name": "INV-00003", "start_date": "01.03.2026",
         "base_quantity": "lots", "_sheet": "", "_row": 6},
        {"identification_name": "INV-00004", "start_date": "01.04.2026",
         "base_quantity": "#DIV/0!", "_sheet": "", "_row": 7},
        {"identification_name": "INV-00005", "start_date": "01.05.2026",
         "base_quantity": "80,25", "_sheet": "", "_row": 8},
    ]  # fmt: skip
    assert frame["facility"].iloc[0] == "Madrid Warehouse"  # &nbsp; read as a space


def test_an_html_cell_spanning_rows_fills_the_rows_below(tmp_path: Path) -> None:
    path = tmp_path / "t.html"
    path.write_text(
        "<table><tr><th>Facility</th><th>Identification name</th><th>Start date</th>"
        "<th>End date</th><th>Base quantity</th><th>Unit</th><th>LER code</th><th>RD code</th>"
        '</tr><tr><td rowspan="2">Madrid Warehouse</td><td>A</td><td>01.01.2026</td>'
        '<td>31.01.2026</td><td>1</td><td>kg</td><td rowspan="2">20 01 01</td><td>R3</td></tr>'
        "<tr><td>B</td><td>01.02.2026</td><td>28.02.2026</td><td>2</td><td>kg</td><td>R1</td>"
        "</tr></table>"
    )

    frame = read(path)

    assert frame[["facility", "identification_name", "ler_code", "rd_code"]].values.tolist() == [
        ["Madrid Warehouse", "A", "20 01 01", "R3"], ["Madrid Warehouse", "B", "20 01 01", "R1"],
    ]  # fmt: skip


def test_a_page_without_a_table_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "export.xls"
    path.write_text("<html><body><p>Session expired: log in again</p></body></html>")

    with pytest.raises(UnsupportedSourceError, match="an HTML page with no table in it"):
        read(path)


def test_a_page_whose_tables_fit_nothing_says_so(tmp_path: Path) -> None:
    path = write_html(tmp_path / "export.htm", [["Menu"], ["Home"]])

    with pytest.raises(UnsupportedSourceError, match="of any of its 1 HTML tables"):
        read(path)


def test_a_page_in_windows_1252_without_a_charset_is_read(tmp_path: Path) -> None:
    path = tmp_path / "t.html"
    path.write_bytes(
        "<table><tr><td>Facility</td><td>Identification name</td><td>Start date</td>"
        "<td>End date</td><td>Base quantity</td><td>LER code</td><td>RD code</td></tr><tr>"
        "<td>Almacén</td><td>A</td><td>01.01.2026</td><td>31.01.2026</td><td>1</td>"
        "<td>20 01 01</td><td>R3</td></tr></table>".encode("cp1252")
    )

    assert read(path)["facility"].tolist() == ["Almacén"]


def test_binary_content_under_a_workbook_s_name_is_refused_alike_by_a_peek_and_a_read(
    tmp_path: Path,
) -> None:
    # A first line of text, then bytes no text holds: a peek (the inbox's plan, detection)
    # once decoded it as text and ended in an encoding error, or peeked garbage as rows.
    path = tmp_path / "corrupt.xlsx"
    path.write_bytes(b"Facility,Quantity\n" + b"\xea\x01\x02\x03\x9d\x00" * 600)
    refused = re.escape(f"{path}: {NOT_READ} (binary content)")

    with pytest.raises(UnsupportedSourceError, match=refused):
        peek_rows(path)
    with pytest.raises(UnsupportedSourceError, match=r"\(binary content\)"):
        for _ in read_source(path, expected_columns=["Facility", "Quantity"]):
            pass
