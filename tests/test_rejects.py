from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS
from emissions_etl.loading.reject_files import write_annotated_workbook, write_rejects_json
from emissions_etl.loading.validation import validate_batch
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from tests.builders import WASTE_HEADERS, waste_row, write_csv, write_xlsx

WASTES = resource_spec("wastes")


def rejects_of(path: Path) -> pd.DataFrame:
    batches = read_source(path, expected_columns=WASTES.columns, aliases=WASTES.aliases)
    return pd.concat([validate_batch(batch, WASTES).rejects for batch in batches],
                     ignore_index=True)  # fmt: skip


def bad_workbook(tmp_path: Path) -> Path:
    rows = [["Wastes 2026"], [], WASTE_HEADERS, waste_row(1), waste_row(2, base_quantity=-3)]
    return write_xlsx(
        tmp_path / "w.xlsx", {"Jan": rows, "Feb": [WASTE_HEADERS, waste_row(3, rd_code="Z")]}
    )


def test_json_is_an_array_of_rejects_in_reading_order(tmp_path: Path) -> None:
    out = tmp_path / "rejects.json"
    write_rejects_json(rejects_of(bad_workbook(tmp_path)), out)
    records = json.loads(out.read_text("utf-8"))
    assert [(r["sheet"], r["row"], r["code"]) for r in records] == [
        ("Feb", 2, "INVALID_RD_CODE"),
        ("Jan", 5, "NOT_POSITIVE"),
    ]
    assert list(records[0]) == list(REJECT_COLUMNS)


def test_json_keeps_non_ascii_text_readable(tmp_path: Path) -> None:
    rejects = pd.DataFrame([["f.csv", "", 2, "Menge", "–3", "NOT_POSITIVE", "Menge größer 0", ""]],
                           columns=list(REJECT_COLUMNS))  # fmt: skip
    out = tmp_path / "r.json"
    write_rejects_json(rejects, out)
    assert "größer" in out.read_text("utf-8")


def test_annotated_workbook_marks_the_bad_cell_with_its_message(tmp_path: Path) -> None:
    source = bad_workbook(tmp_path)
    out = tmp_path / "annotated.xlsx"
    write_annotated_workbook(source, rejects_of(source), out)
    workbook = openpyxl.load_workbook(out)
    cell = workbook["Jan"]["E5"]  # Base quantity of the row with -3
    assert cell.comment is not None
    assert "greater than 0" in cell.comment.text
    assert cell.fill.start_color.rgb.endswith("FFC7CE")
    assert workbook["Jan"]["E4"].comment is None
    assert "R1 to R13" in workbook["Feb"]["H2"].comment.text


def test_annotated_workbook_lists_every_reject_on_a_rejects_sheet(tmp_path: Path) -> None:
    source = bad_workbook(tmp_path)
    out = tmp_path / "annotated.xlsx"
    write_annotated_workbook(source, rejects_of(source), out)
    sheet = openpyxl.load_workbook(out)["Rejects"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == REJECT_COLUMNS
    assert [(r[1], r[2], r[5]) for r in rows[1:]] == [
        ("Feb", 2, "INVALID_RD_CODE"),
        ("Jan", 5, "NOT_POSITIVE"),
    ]


def test_a_csv_source_becomes_an_annotated_xlsx(tmp_path: Path) -> None:
    dates = {"start_date": "2026-01-01", "end_date": "2026-01-31"}
    rows = [WASTE_HEADERS, waste_row(1, **dates), waste_row(2, **dates, ler_code="99")]
    source = write_csv(tmp_path / "erp.csv", rows, delimiter=";")
    out = tmp_path / "erp.annotated.xlsx"
    write_annotated_workbook(source, rejects_of(source), out)
    sheet = openpyxl.load_workbook(out).worksheets[0]
    assert sheet["A1"].value == "Facility"
    assert "6 digits" in sheet["G3"].comment.text


def test_a_row_the_service_refuses_with_an_empty_cell_shows_the_cell_empty_not_nan() -> None:
    from emissions_etl.loading.writing.refusals import rejects_at

    rows = pd.DataFrame(
        {"_file": ["w.xlsx"], "_sheet": ["Wastes"], "_row": [4], "destination": [float("nan")]}
    )

    [reject] = rejects_at(rows, WASTES, [(0, "destination", "REQUIRED", "missing")]).to_dict(
        "records"
    )

    assert reject["value"] == ""


def test_control_characters_are_written_escaped_never_refused(tmp_path: Path) -> None:
    dates = {"start_date": "2026-01-01", "end_date": "2026-01-31"}
    rows = [[*WASTE_HEADERS, "Notes\x07"],
            [*waste_row(1, facility="Madrid\x00Warehouse", **dates), "a\x0cb"],
            [*waste_row(2, description='=HYPERLINK("http://x")', **dates), "\x1b[2J"]]  # fmt: skip
    source = write_csv(tmp_path / "erp[1].csv", rows)
    out = tmp_path / "annotated.xlsx"

    assert write_annotated_workbook(source, rejects_of(source), out) is None

    book = openpyxl.load_workbook(out)
    copy = book.worksheets[0]
    assert copy.title == "erp_1_"  # a sheet title cannot hold [ ]
    assert copy["A2"].value == "Madrid\\x00Warehouse"
    assert "got 'Madrid\\x00Warehouse'" in copy["A2"].comment.text
    assert [copy["L1"].value, copy["L2"].value, copy["L3"].value] == [
        "Notes\\x07", "a\\x0cb", "\\x1b[2J"
    ]
    # A cell of the file stays text in the copy, never a formula.
    assert (copy["J3"].value, copy["J3"].data_type) == ('=HYPERLINK("http://x")', "s")
    [listed] = list(book["Rejects"].iter_rows(min_row=2, values_only=True))
    assert listed[4] == "Madrid\\x00Warehouse"


def test_a_workbook_openpyxl_cannot_open_is_copied_from_its_values(tmp_path: Path) -> None:
    from tests.corpus.make_corpus import HEADER, Shown, row, rows_xml, sheet_xml, write_workbook

    source = tmp_path / "minimal.xlsx"  # no content types for its parts: openpyxl refuses it
    data = rows_xml([["Wastes 2026"], HEADER, row(1, base_quantity=Shown("#DIV/0!"))])
    write_workbook(source, [("Wastes", sheet_xml(data))])
    out = tmp_path / "annotated.xlsx"

    note = write_annotated_workbook(source, rejects_of(source), out)

    assert note is not None
    assert "its values are copied" in note
    book = openpyxl.load_workbook(out)
    assert book["Wastes"]["A1"].value == "Wastes 2026"
    assert book["Wastes"]["E3"].value == "#DIV/0!"
    assert "spreadsheet error #DIV/0!" in book["Wastes"]["E3"].comment.text
    assert book["Note"]["A1"].value == note
