"""Workbooks are measured before calamine loads them: the used range as calamine would build it,
found by a fast pass on canonical XML and an exact one otherwise, and every zip member's real
size."""

from __future__ import annotations

import random
import zipfile
from pathlib import Path

import pytest

from emissions_etl.errors import (
    CorruptSourceError,
    EncryptedSourceError,
    SourceTooLargeError,
)
from emissions_etl.resources import resource_spec
from emissions_etl.sources import limits, read_source
from emissions_etl.sources.peek import peek_rows
from emissions_etl.sources.xlsx_extent import Extent, _fast_extent, exact_extent
from emissions_etl.sources.xlsx_package import inspect_xlsx as inspect_workbook
from tests.corpus.make_corpus import (
    HEADER,
    cell_xml,
    compound_file,
    row,
    rows_xml,
    sheet_xml,
    write_workbook,
)

WASTES = resource_spec("wastes")


def read(path: Path, **options):  # type: ignore[no-untyped-def]
    return list(
        read_source(path, expected_columns=WASTES.columns, aliases=WASTES.aliases, **options)
    )


def chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def always(_: Extent) -> bool:
    return True


def random_sheet(seed: int, prefix: str = "") -> tuple[str, int, int]:
    """A sparse sheet of random cells (some empty) and its used range counting valued cells."""
    rng = random.Random(seed)
    rows, columns, out = 0, 0, []
    for number in sorted(rng.sample(range(1, 3000), 40)):
        cells = []
        for column in sorted(rng.sample(range(800), rng.randint(1, 6))):
            reference = f"{_letters(column)}{number}"
            if rng.random() < 0.3:
                cells.append(f'<{prefix}c r="{reference}" s="1"/>')  # styled, no value
                continue
            cells.append(cell_xml(reference, rng.choice([1.5, "text"]), prefix))
            rows, columns = max(rows, number), max(columns, column + 1)
        out.append(f'<{prefix}row r="{number}">{"".join(cells)}</{prefix}row>')
    return sheet_xml("".join(out), prefix=prefix), rows, columns


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("prefix", ["", "x:"])
def test_the_exact_pass_finds_the_range_of_valued_cells_and_the_fast_pass_bounds_it(
    seed: int, prefix: str
) -> None:
    xml, rows, columns = random_sheet(seed, prefix)
    size = random.Random(seed).randint(5, 400)  # tags cut anywhere between chunks
    exact = exact_extent(chunked(xml.encode(), size), always)
    fast = _fast_extent(chunked(xml.encode(), size), always)
    assert (exact.rows, exact.columns) == (rows, columns)
    assert fast is not None
    assert fast.rows >= rows
    assert fast.columns >= columns  # styled empty cells count for the fast pass only


@pytest.mark.parametrize(
    "cells",
    [
        "<c r='B2'><v>1</v></c>",  # single quotes
        '<c s="1" r="B2"><v>1</v></c>',  # r not first
        '<c r="b2"><v>1</v></c>',  # lowercase
        "<c><v>1</v></c>",  # no reference
        '<y:c xmlns:y="urn:y" r="B2"><y:v>1</y:v></y:c>',  # another prefix
    ],
)
def test_tags_the_fast_pass_does_not_know_are_left_to_the_exact_pass(cells: str) -> None:
    xml = sheet_xml(f'<row r="2">{cells}</row>').encode()
    assert _fast_extent([xml], always) is None
    exact = exact_extent([xml], always)
    assert exact.rows == 2


def test_cells_without_reference_take_the_next_column_as_calamine_does() -> None:
    xml = sheet_xml('<row r="5"><c r="C5"><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row>')
    assert exact_extent([xml.encode()], always) == Extent(rows=5, columns=5)


def test_a_single_far_cell_is_refused_before_calamine_loads_the_sheet(tmp_path: Path) -> None:
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    path = tmp_path / "bomb.xlsx"
    write_workbook(path, [("Wastes", sheet_xml(rows_xml([HEADER, row(1)]) + far))])
    with pytest.raises(SourceTooLargeError, match=r"uses A1:XFD1048576 \(16,384 columns"):
        read(path)
    with pytest.raises(SourceTooLargeError):
        peek_rows(path)


def test_far_cells_without_value_do_not_count(tmp_path: Path) -> None:
    far = '<row r="1048576"><c r="XFD1048576" s="1"/></row>'
    path = tmp_path / "styled.xlsx"
    write_workbook(path, [("Wastes", sheet_xml(rows_xml([HEADER, row(1)]) + far))])
    [batch] = read(path)
    assert batch["identification_name"].tolist() == ["RSU-2026-001"]


def test_sheets_read_together_share_the_cell_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_CELLS", 100)
    # Two sheets of 11 x 6 cells: each under the cap, over it together.
    corner = '<row r="6"><c r="K6"><v>1</v></c></row>'
    sheet = sheet_xml(rows_xml([HEADER, row(1)]) + corner)
    path = tmp_path / "two.xlsx"
    write_workbook(path, [("North", sheet), ("South", sheet)])
    with pytest.raises(SourceTooLargeError, match="together"):
        read(path)
    assert sum(len(batch) for batch in read(path, sheet="South")) == 2


def test_a_member_inflating_beyond_its_declared_size_is_damaged(tmp_path: Path) -> None:
    from tests.corpus.make_corpus import lying_member

    path = tmp_path / "lying.xlsx"
    lying_member(path)
    with pytest.raises(CorruptSourceError, match="inflates to more than the 1,000 declared"):
        inspect_workbook(path)


def test_shared_strings_are_counted_across_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 300_000  # about 6 MB: several inflated chunks, tags cut between them
    items = "".join(f"<si><t>{n}</t></si>" for n in range(count))
    sst = f'<sst xmlns="urn:x">{items}</sst>'.encode()
    path = tmp_path / "sst.xlsx"
    write_workbook(path, [("S", sheet_xml(rows_xml([HEADER])))], shared_strings=sst)
    monkeypatch.setattr(limits, "MAX_SHARED_STRINGS", count)
    inspect_workbook(path)
    monkeypatch.setattr(limits, "MAX_SHARED_STRINGS", count - 1)
    with pytest.raises(SourceTooLargeError, match="shared-strings"):
        inspect_workbook(path)


def test_part_names_are_matched_ignoring_case_as_calamine_does(tmp_path: Path) -> None:
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    path = tmp_path / "case.xlsx"
    write_workbook(path, [("Wastes", sheet_xml(rows_xml([HEADER])))])
    renamed = tmp_path / "renamed.xlsx"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(renamed, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                target.writestr("XL/Worksheets/SHEET1.XML", sheet_xml(far))
            else:
                target.writestr(item, data)
    with pytest.raises(SourceTooLargeError):
        inspect_workbook(renamed).check_sheet("Wastes")


def test_two_members_with_one_name_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.xlsx"
    write_workbook(path, [("Wastes", sheet_xml(rows_xml([HEADER])))])
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(path, "a") as archive:
        archive.writestr("xl/worksheets/sheet1.xml", sheet_xml(""))
    with pytest.raises(CorruptSourceError, match="twice"):
        inspect_workbook(path)


def test_an_ole_container_is_an_encrypted_workbook_or_a_legacy_one(tmp_path: Path) -> None:
    encrypted, legacy = tmp_path / "e.xlsx", tmp_path / "l.xls"
    encrypted.write_bytes(compound_file([("EncryptionInfo", b"x"), ("EncryptedPackage", b"y")]))
    legacy.write_bytes(compound_file([("Workbook", b"z")]))
    with pytest.raises(EncryptedSourceError, match="password"):
        read(encrypted)
    with pytest.raises(CorruptSourceError, match="the .xls workbook is damaged"):
        read(legacy)


def test_a_truncated_workbook_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    write_workbook(path, [("Wastes", sheet_xml(rows_xml([HEADER, row(1)])))])
    path.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(CorruptSourceError, match="damaged or truncated"):
        read(path)


def test_the_declared_dimension_is_neither_trusted_nor_feared(tmp_path: Path) -> None:
    # calamine sizes its grid from the cells, not from <dimension>: so does the check.
    data = rows_xml([HEADER, row(1)])
    huge = sheet_xml(data).replace("<sheetData>", '<dimension ref="A1:XFD1048576"/><sheetData>')
    far = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    small = sheet_xml(data + far).replace("<sheetData>", '<dimension ref="A1:K2"/><sheetData>')
    write_workbook(tmp_path / "huge.xlsx", [("Wastes", huge)])
    write_workbook(tmp_path / "small.xlsx", [("Wastes", small)])
    assert sum(len(batch) for batch in read(tmp_path / "huge.xlsx")) == 1
    with pytest.raises(SourceTooLargeError):
        read(tmp_path / "small.xlsx")
