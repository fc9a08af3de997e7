"""The rows a file is expected to hold before it is read: the total of its progress bar."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from emissions_etl.sources.row_counts import expected_rows


def write_csv(path: Path, rows: int) -> Path:
    lines = ["facility,quantity", *(f"Madrid Warehouse,{n:06d}.5" for n in range(rows))]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_small_csv_holds_its_lines_but_the_header(tmp_path: Path) -> None:
    assert expected_rows(write_csv(tmp_path / "w.csv", 120)) == 120


def test_a_large_csv_is_counted_from_its_bytes_within_a_percent(tmp_path: Path) -> None:
    found = expected_rows(write_csv(tmp_path / "w.csv", 50_000))

    assert found is not None
    assert abs(found - 50_000) <= 500


def test_a_workbook_counts_the_used_range_of_the_sheets_named(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    first = workbook.active
    assert first is not None
    first.title = "Notas"
    first.append(["a note"])
    sheet = workbook.create_sheet("Wastes")
    for n in range(300):
        sheet.append(["Madrid Warehouse", n])
    workbook.save(tmp_path / "w.xlsx")

    assert expected_rows(tmp_path / "w.xlsx", ["Wastes"]) == 300
    assert expected_rows(tmp_path / "w.xlsx") == 1  # the first visible sheet


def test_a_file_that_is_not_measured_has_no_total(tmp_path: Path) -> None:
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip at all")
    (tmp_path / "w.ods").write_bytes(b"PK")

    assert expected_rows(tmp_path / "broken.xlsx") is None
    assert expected_rows(tmp_path / "w.ods") is None
    assert expected_rows(tmp_path / "missing.csv") is None
