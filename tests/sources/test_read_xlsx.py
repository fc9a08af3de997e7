from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from emissions_etl.errors import (
    DuplicateColumnError,
    SheetNotFoundError,
    SourceNotFoundError,
    UnsupportedSourceError,
)
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from tests.builders import (
    WASTE_HEADERS,
    set_cached_errors,
    set_cached_values,
    waste_row,
    write_xlsx,
)

WASTES = resource_spec("wastes")
EXPECTED = list(WASTES.columns)
INPUT_ALIASES = WASTES.aliases
REQUIRED_INPUT_COLUMNS = WASTES.required_columns


def read(path: Path, **options):  # type: ignore[no-untyped-def]
    return list(read_source(path, expected_columns=EXPECTED, aliases=INPUT_ALIASES, **options))


def test_header_is_found_below_a_title_and_a_blank_row(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "w.xlsx", {"Wastes": [["Waste report 2026"], [], WASTE_HEADERS, waste_row(1)]}
    )
    [batch] = read(path)
    assert batch["facility"].tolist() == ["Madrid Warehouse"]
    assert batch["_row"].tolist() == [4]
    assert batch.attrs["headers"]["identification_name"] == "Identification name"


def test_headers_match_ignoring_case_spaces_underscores_and_hyphens(tmp_path: Path) -> None:
    headers = ["FACILITY", "identification-name", "start_date", "End  Date", "base quantity",
               "unit", "Ler-Code", "rd code", "Extra Column"]  # fmt: skip
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [headers, waste_row(1)[:8] + ["x"]]})
    [batch] = read(path)
    assert {"facility", "identification_name", "end_date", "ler_code", "extracolumn"} <= set(batch)
    assert batch.attrs["headers"]["end_date"] == "End  Date"


def test_row_numbers_are_as_shown_and_empty_rows_are_dropped_without_renumbering(
    tmp_path: Path,
) -> None:
    rows = [WASTE_HEADERS, waste_row(1), [None] * 11, waste_row(3)]
    [batch] = read(write_xlsx(tmp_path / "w.xlsx", {"S": rows}))
    assert batch["_row"].tolist() == [2, 4]
    assert set(batch["_file"]) == {"w.xlsx"}
    assert set(batch["_sheet"]) == {"S"}


def test_formatted_but_empty_rows_below_the_data_are_not_rows(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "w.xlsx", {"S": [WASTE_HEADERS, waste_row(1)]}, formatted_empty_rows={"S": 50}
    )
    [batch] = read(path)
    assert len(batch) == 1


def test_merged_cells_give_every_row_the_merged_value(tmp_path: Path) -> None:
    rows = [WASTE_HEADERS, waste_row(1), waste_row(2, facility=None), waste_row(3, facility=None)]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": rows}, merged={"S": ["A2:A4"]})
    [batch] = read(path)
    assert batch["facility"].tolist() == ["Madrid Warehouse"] * 3


def test_excel_date_serials_in_unformatted_cells_stay_numbers_for_validation(
    tmp_path: Path,
) -> None:
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [WASTE_HEADERS, waste_row(1, start_date=46023)]})
    [batch] = read(path)
    assert batch["start_date"].iloc[0] == 46023
    assert batch["end_date"].iloc[0] == dt.date(2026, 1, 31)


def test_formula_cells_are_read_by_their_cached_value(tmp_path: Path) -> None:
    rows = [WASTE_HEADERS, waste_row(1, base_quantity="=10*2")]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": rows})
    set_cached_values(path, 0, {"E2": 20})
    [batch] = read(path)
    assert batch["base_quantity"].iloc[0] == 20


def test_a_cached_formula_error_is_read_as_the_error_the_cell_shows(tmp_path: Path) -> None:
    rows = [["Title"], WASTE_HEADERS, waste_row(1, base_quantity="=1/0", client_row_id="=X()"),
            waste_row(2, description="=VLOOKUP(1,A:A,2,0)")]  # fmt: skip
    path = write_xlsx(tmp_path / "w.xlsx", {"S": rows})
    set_cached_errors(path, 0, {"E3": "#DIV/0!", "K3": "#NAME?", "J4": "#N/A"})

    [batch] = read(path)

    assert batch["base_quantity"].tolist() == ["#DIV/0!", 120.5]
    assert batch["client_row_id"].iloc[0] == "#NAME?"
    assert batch["description"].iloc[1] == "#N/A"


def test_an_error_value_the_reader_cannot_take_is_refused_naming_its_cell(tmp_path: Path) -> None:
    rows = [WASTE_HEADERS, waste_row(1), waste_row(2, base_quantity="=SEQUENCE(3)")]
    path = write_xlsx(tmp_path / "w.xlsx", {"Wastes": rows})
    set_cached_errors(path, 0, {"E3": "#SPILL!"})

    with pytest.raises(UnsupportedSourceError, match=r"sheet 'Wastes', cell E3 shows #SPILL!"):
        read(path)


def test_every_visible_sheet_with_a_header_is_read_and_hidden_ones_skipped(
    tmp_path: Path,
) -> None:
    sheets = {
        "North": [WASTE_HEADERS, waste_row(1)],
        "Notes": [["just some notes"]],
        "South": [["Title"], WASTE_HEADERS, waste_row(2), waste_row(3)],
        "Old": [WASTE_HEADERS, waste_row(9)],
    }
    batches = read(write_xlsx(tmp_path / "w.xlsx", sheets, hidden=["Old"]))
    assert [(b["_sheet"].iloc[0], len(b)) for b in batches] == [("North", 1), ("South", 2)]


def test_a_named_sheet_is_the_only_one_read(tmp_path: Path) -> None:
    sheets = {"North": [WASTE_HEADERS, waste_row(1)], "South": [WASTE_HEADERS, waste_row(2)]}
    batches = read(write_xlsx(tmp_path / "w.xlsx", sheets), sheet="South")
    assert [b["_sheet"].iloc[0] for b in batches] == ["South"]


def test_a_missing_sheet_raises_sheet_not_found_naming_the_sheets(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "w.xlsx", {"North": [WASTE_HEADERS, waste_row(1)]})
    with pytest.raises(SheetNotFoundError, match="North"):
        read(path, sheet="Central")


def test_a_workbook_without_a_header_row_is_unsupported(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [["a", "b"], [1, 2]]})
    with pytest.raises(UnsupportedSourceError, match="no header row with"):
        read(path, required_columns=REQUIRED_INPUT_COLUMNS)


def test_a_missing_file_raises_source_not_found(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError):
        read(tmp_path / "nope.xlsx")


def test_a_file_that_is_not_a_spreadsheet_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    with pytest.raises(UnsupportedSourceError, match=r"not a workbook \(xlsx, xls, xlsb, ods\)"):
        read(path)


def test_batches_are_bounded_by_batch_rows(tmp_path: Path) -> None:
    rows = [WASTE_HEADERS, *(waste_row(i) for i in range(1, 8))]
    batches = read(write_xlsx(tmp_path / "w.xlsx", {"S": rows}), batch_rows=3)
    assert [len(b) for b in batches] == [3, 3, 1]
    assert batches[2]["_row"].tolist() == [8]


def test_two_headers_meaning_one_column_are_refused_with_their_sheet_letters(
    tmp_path: Path,
) -> None:
    rows = [[None, None, *WASTE_HEADERS, "start_date"], [None, None, *waste_row(1), "x"]]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": rows})
    with pytest.raises(
        DuplicateColumnError,
        match="sheet 'S', row 1: columns E 'Start date' and N 'start_date' both mean start_date",
    ):
        read(path)
