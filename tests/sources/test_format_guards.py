"""The .xls, .xlsb and .ods checks made before calamine opens a file: whatever it claims, no
file makes calamine allocate beyond the caps (it aborts the process when an allocation fails),
loop or panic; a damaged or password-protected file is one line; an error cell shows its error.
calamine loads every sheet of an .xls or .ods when it opens it, hidden ones too, so those are
held to the caps together; an .xlsb's sheets are loaded one at a time, as an xlsx's."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.errors import CorruptSourceError, EncryptedSourceError, SourceTooLargeError
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from emissions_etl.sources.boundary import guarded
from tests.corpus.make_corpus import compound_file
from tests.format_builders import (
    REGISTER_HEADER,
    biff_formula_error,
    biff_label,
    biff_number,
    biff_record,
    biff_workbook,
    ods_content,
    register_row,
    write_ods,
    write_xlsb,
    xlsb_record,
    xlsb_sheet,
)

WASTES = resource_spec("wastes")
GOOD = {"Wastes": [REGISTER_HEADER, register_row(1, 1, 5.0)]}


def read(path: Path, **options: Any) -> list[Any]:
    return list(read_source(path, expected_columns=["a", "b"], **options))


def xls(path: Path, *sheets: list[bytes], globals_extra: tuple[bytes, ...] = ()) -> Path:
    path.write_bytes(compound_file([("Workbook", biff_workbook(sheets,
                                                               globals_extra=globals_extra))]))
    return path  # fmt: skip


HEADER_AB = [biff_label(0, 0, "a"), biff_label(0, 1, "b")]


def test_an_xls_formula_that_failed_shows_its_error(tmp_path: Path) -> None:
    cells = [*HEADER_AB, biff_number(1, 0, 5), biff_formula_error(1, 1, "#N/A")]
    path = xls(tmp_path / "e.xls", cells)

    [batch] = read(path)

    assert batch[["a", "b", "_row"]].values.tolist() == [[5.0, "#N/A", 2]]


def test_an_xls_sheet_far_beyond_its_data_is_refused_even_hidden(tmp_path: Path) -> None:
    far = biff_number(65_535, 255, 1.0)  # IV65536: a grid of 16.7 million cells
    path = xls(tmp_path / "far.xls", [*HEADER_AB, biff_number(1, 0, 5)], [far])

    with pytest.raises(SourceTooLargeError, match=r"sheet 'Sheet2' uses A1:IV65536"):
        read(path)


def test_xls_sheets_together_over_the_cell_cap_are_refused(tmp_path: Path) -> None:
    sheets = [[biff_number(49_999, 99, 1.0)] for _ in range(3)]  # 5 million cells each
    path = xls(tmp_path / "many.xls", *sheets)

    with pytest.raises(SourceTooLargeError, match="all loaded when it is opened"):
        read(path)


def test_an_xls_dimension_record_claiming_more_than_a_sheet_holds_is_damaged(
    tmp_path: Path,
) -> None:
    lying = biff_record(0x0200, struct.pack("<IIHHH", 10, 5, 0, 3, 0))  # rows 10..4: wraps
    path = xls(tmp_path / "dim.xls", [lying, *HEADER_AB])

    with pytest.raises(CorruptSourceError, match="claims 4,294,967,291 rows"):
        read(path)


def test_an_xls_saved_with_a_password_is_refused_as_such(tmp_path: Path) -> None:
    file_pass = biff_record(0x002F, struct.pack("<HHH", 1, 1, 1) + bytes(48))
    path = xls(tmp_path / "p.xls", HEADER_AB, globals_extra=(file_pass,))

    with pytest.raises(EncryptedSourceError, match="password-protected"):
        read(path)


def test_an_xls_sheet_starting_beyond_its_stream_is_damaged_not_a_panic(tmp_path: Path) -> None:
    stream = bytearray(biff_workbook([HEADER_AB]))
    struct.pack_into("<I", stream, 24, 10**6)  # the BOUNDSHEET's offset of its sheet
    path = tmp_path / "b.xls"
    path.write_bytes(compound_file([("Workbook", bytes(stream))]))

    with pytest.raises(CorruptSourceError, match="starts beyond the end"):
        read(path)


def test_a_compound_file_whose_chain_loops_is_damaged(tmp_path: Path) -> None:
    data = bytearray(compound_file([("Workbook", biff_workbook([HEADER_AB]))]))
    struct.pack_into("<I", data, 512 + 4 * 1, 1)  # the directory's sector points to itself
    path = tmp_path / "loop.xls"
    path.write_bytes(bytes(data))

    with pytest.raises(CorruptSourceError, match="loops"):
        read(path)


def test_an_ods_repeating_a_row_a_million_times_is_refused(tmp_path: Path) -> None:
    bomb = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
            'table:number-columns-repeated="50" office:value-type="float" office:value="1"/>'
            "</table:table-row>")  # fmt: skip
    content = ods_content(GOOD).replace("</table:table>", bomb + "</table:table>")
    path = write_ods(tmp_path / "bomb.ods", {}, content=content)

    with pytest.raises(SourceTooLargeError, match="sheet 'Wastes' uses"):
        read(path)


def test_an_ods_repeating_cells_along_many_rows_is_refused_by_the_cells_stored(
    tmp_path: Path,
) -> None:
    rows = "".join(f'<table:table-row><table:table-cell table:number-columns-repeated="999" '
                   f'office:value-type="float" office:value="{n}"/></table:table-row>'
                   for n in range(2000))  # fmt: skip
    sheets = "".join(f'<table:table table:name="S{n}">{rows}</table:table>' for n in range(7))
    content = ods_content(GOOD).replace("</office:spreadsheet>", sheets + "</office:spreadsheet>")
    path = write_ods(tmp_path / "many.ods", {}, content=content)

    with pytest.raises(SourceTooLargeError, match="into more than 12,000,000 cells"):
        read(path)


def test_an_ods_saved_with_a_password_is_refused_as_such(tmp_path: Path) -> None:
    path = write_ods(tmp_path / "p.ods", GOOD,
                     manifest_extra="<manifest:encryption-data/>")  # fmt: skip

    with pytest.raises(EncryptedSourceError, match="password-protected"):
        read(path)


def test_an_xlsb_cell_far_to_the_right_is_refused_before_calamine_loads_it(
    tmp_path: Path,
) -> None:
    far = xlsb_record(0x0005, struct.pack("<IId", 4_000_000_000, 0, 1.0))
    part = xlsb_sheet([["a", "b"], [1, 2]], extra=[far])
    path = write_xlsb(tmp_path / "far.xlsb", {"S": []}, parts={"S": part})

    with pytest.raises(SourceTooLargeError, match="4,000,000,001 columns"):
        read(Path(str(path)))


def test_an_xlsb_cell_naming_a_shared_string_it_lacks_is_damaged_not_a_panic(
    tmp_path: Path,
) -> None:
    missing = xlsb_record(0x0007, struct.pack("<III", 0, 0, 7))  # string 7 of none
    part = xlsb_sheet([["a", "b"], [1, 2]], extra=[missing])
    path = write_xlsb(tmp_path / "isst.xlsb", {"S": []}, parts={"S": part})

    with pytest.raises(CorruptSourceError, match="shared string it lacks"):
        read(Path(str(path)))


def test_an_xlsb_formula_that_failed_shows_its_error_though_calamine_skips_it(
    tmp_path: Path,
) -> None:
    failed = xlsb_record(0x000B, struct.pack("<IIBH", 1, 0, 0x07, 0) + bytes(6))
    part = xlsb_sheet([["a", "b"], [1]], extra=[failed])
    path = write_xlsb(tmp_path / "f.xlsb", {"S": []}, parts={"S": part})

    [batch] = read(Path(str(path)))

    assert batch[["a", "b"]].values.tolist() == [[1.0, "#DIV/0!"]]


def test_a_panic_of_the_workbook_reader_is_a_damaged_file() -> None:
    class PanicException(BaseException):  # as pyo3 raises a Rust panic
        pass

    def panics() -> None:
        raise PanicException("index out of bounds")

    with pytest.raises(CorruptSourceError, match="the workbook reader failed on it"):
        guarded(Path("x.xls"), panics)
