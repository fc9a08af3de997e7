"""The coverage as a file: every expected period as csv (the columns of ``coverage``), or a
workbook with those rows, the matrix (entities by months) and an About sheet saying as of when
and what the marks mean. Written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from emissions_etl.coverage.matrix import LEGEND, matrix, months_of
from emissions_etl.coverage.reading import Coverage
from emissions_etl.inventory.files import write_atomically
from emissions_etl.inventory.table import cell_value
from emissions_etl.inventory.workbook import write_rows
from emissions_etl.storage import AnyPath, is_folder

SUFFIXES = (".csv", ".xlsx")
SHEETS = ("Coverage", "Matrix", "About")


def check_coverage_target(out: AnyPath) -> None:
    """ValueError when ``out`` cannot be a coverage file (checked before reading anything)."""
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"--out {out}: the name must end in .csv or .xlsx")
    if is_folder(out):
        raise ValueError(f"--out {out} is a folder: give a file name ending .csv or .xlsx")


def write_coverage_file(coverage: Coverage, out: Path) -> Path:
    """Write ``out`` (.csv: the rows; .xlsx: the rows, the matrix, About); OSError if it
    cannot be written."""
    check_coverage_target(out)
    if out.suffix.lower() == ".csv":  # every row, written by pandas at once
        write_atomically(out, lambda path: coverage.rows.to_csv(
            path, index=False, na_rep="", date_format="%Y-%m-%d"))  # fmt: skip
        return out
    header = list(coverage.rows.columns)
    rows = [[cell_value(cell) for cell in row] for row in coverage.rows.itertuples(index=False)]
    write_atomically(out, lambda path: _workbook(coverage, header, rows, path))
    return out


def _workbook(coverage: Coverage, header: list[str], rows: list[list[object]], path: Path) -> None:
    workbook = openpyxl.Workbook()
    first = workbook.active
    assert first is not None
    workbook.remove(first)
    write_rows(workbook.create_sheet(SHEETS[0]), header, rows)
    months = months_of(coverage.rows)
    grid = [[r.resource, r.entity, *r.marks] for r in matrix(coverage.rows, months)]
    write_rows(workbook.create_sheet(SHEETS[1]),
               ["resource", "entity", *(f"{m:%Y-%m}" for m in months)], grid)  # fmt: skip
    about = [
        ["as of", f"{coverage.as_of:%Y-%m-%d}"],
        ["year", str(coverage.year) if coverage.year is not None else "every year"],
        ["organization", coverage.organization or "not named"],
        ["marks", LEGEND],
        ["co2e_kg", "the records' co2e in the period (a record covering several months is "
                    "shared between them by days); empty when missing"],
        ["estimate_kg", "a missing period's estimate, kept in the warehouse only; gone once "
                        "its data lands"],
    ]  # fmt: skip
    write_rows(workbook.create_sheet(SHEETS[2]), ("what", "value"), about)
    workbook.save(path)
