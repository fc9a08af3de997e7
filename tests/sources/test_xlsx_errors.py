"""Error cells of a sheet's XML found where calamine puts them, and only looked for where the
measuring pass saw ``t="e"``."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.sources.xlsx_errors import find_error_cells, has_marker
from emissions_etl.sources.xlsx_package import inspect_xlsx as inspect_workbook
from tests.corpus.make_corpus import (
    HEADER,
    Shown,
    good_rows_xml,
    row,
    rows_xml,
    sheet_xml,
    write_workbook,
)


def cells_of(xml: str, chunk: int = 7) -> list[tuple[int, int, str]]:
    data = xml.encode()
    found = find_error_cells(data[i : i + chunk] for i in range(0, len(data), chunk))
    return list(found.between(0, 1_048_576))


def test_error_cells_are_found_at_their_references_in_reading_order() -> None:
    xml = sheet_xml(
        '<row r="3"><c r="B3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="C3"><v>1</v></c></row>'
        '<row r="2"><c r="K2" t="e"><v>#N/A</v></c></row>'
    )
    assert cells_of(xml) == [(1, 10, "#N/A"), (2, 1, "#DIV/0!")]


def test_cells_and_rows_without_references_take_the_next_position_as_calamine_does() -> None:
    xml = sheet_xml(
        '<row r="4"><c r="B4"><v>1</v></c><c/><c t="e"><v>#REF!</v></c></row>'
        "<row><c t='e'><v>#NAME?</v></c></row>"
    )
    assert cells_of(xml) == [(3, 3, "#REF!"), (4, 0, "#NAME?")]


def test_prefixed_tags_are_read_like_plain_ones() -> None:
    xml = sheet_xml('<x:row r="1"><x:c r="A1" t="e"><x:v>#NUM!</x:v></x:c></x:row>', prefix="x:")
    assert cells_of(xml) == [(0, 0, "#NUM!")]


def test_an_error_cell_without_a_value_is_not_one() -> None:
    xml = sheet_xml('<row r="1"><c r="A1" t="e"/><c r="B1" t="e"><v></v></c></row>')
    assert cells_of(xml) == []


def test_the_marker_is_seen_when_a_chunk_cuts_it_in_two() -> None:
    assert has_marker(b'e"><v>#N/A', b' t="')
    assert has_marker(b"<c r='A1' t='e'>", b"")
    assert not has_marker(b'<c r="A1" t="s">', b' t="')


def test_only_sheets_holding_error_cells_are_read_again(tmp_path: Path) -> None:
    path = tmp_path / "w.xlsx"
    marked = rows_xml([HEADER, row(1, description=Shown("#N/A"))])
    write_workbook(path, [("Clean", sheet_xml(good_rows_xml())), ("Marked", sheet_xml(marked))])

    package = inspect_workbook(path)

    assert package.with_errors == {"xl/worksheets/sheet2.xml"}
    assert len(package.error_cells("Clean")) == 0
    assert list(package.error_cells("Marked").between(0, 10)) == [(1, 9, "#N/A")]
