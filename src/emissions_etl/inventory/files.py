"""The inventory as files the sustainability team pastes into its report: the ESRS E1-6 table
as CSV, or a workbook with a sheet per view (by scope and category, by month, by facility) and an
About sheet saying what the figures are (``workbook.py``). Written whole or not at all. A
restatement's changed records go to a sheet of the workbook, or beside the csv
(``changes_path``).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from emissions_etl.inventory.reading import Inventory
from emissions_etl.inventory.restatement import Restatement
from emissions_etl.inventory.table import cell_value, figure_columns, table
from emissions_etl.inventory.workbook import write_workbook
from emissions_etl.storage import AnyPath, is_folder

SUFFIXES = (".xlsx", ".csv")


def check_target(out: AnyPath, option: str = "--out") -> None:
    """ValueError when ``out`` cannot be an inventory file (checked before reading anything);
    ``out`` may be an object of a store (written by ``storage.written``)."""
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{option} {out}: the name must end in .xlsx or .csv")
    if is_folder(out):
        raise ValueError(f"{option} {out} is a folder: give a file name ending .xlsx or .csv")


def changes_path(out: AnyPath) -> AnyPath:
    """Where a csv restatement's changed records go: ``inventory.changes.csv``."""
    return out.with_name(f"{out.stem}.changes.csv")


def estimates_path(out: AnyPath) -> AnyPath:
    """Where a csv restatement's estimates (what became of them) go:
    ``inventory.estimates.csv``."""
    return out.with_name(f"{out.stem}.estimates.csv")


def write_inventory_file(
    inventory: Inventory, out: Path, *, warehouse: str, restatement: Restatement | None = None
) -> Path:
    """Write ``out`` (.csv: the ESRS table, with the filed figures of a restatement; .xlsx:
    every sheet, a restatement's changed records among them); OSError if it cannot be."""
    check_target(out)
    header, rows = table(inventory, restatement)
    if out.suffix.lower() == ".csv":
        write_atomically(out, lambda path: write_csv(path, header, rows, figures=True))
    else:
        write_atomically(out, lambda path: write_workbook(
            inventory, path, warehouse=warehouse, table=(header, rows), restatement=restatement
        ))  # fmt: skip
    return out


def write_changes_file(restatement: Restatement, out: Path) -> Path:
    """A csv restatement's changed records, with their rows (at ``changes_path``)."""
    return _write_frame(restatement.records, out)


def write_estimates_file(restatement: Restatement, out: Path) -> Path:
    """A csv restatement's estimates as filed and what became of them (at
    ``estimates_path``)."""
    return _write_frame(restatement.estimates, out)


def _write_frame(frame: pd.DataFrame, out: Path) -> Path:
    write_atomically(out, lambda path: write_csv(
        path, list(frame.columns), [_cells(r) for r in frame.itertuples(index=False)]
    ))  # fmt: skip
    return out


def write_csv(
    path: Path, header: Sequence[str], rows: Sequence[Sequence[object]], *, figures: bool = False
) -> None:
    """``rows`` under ``header``, empty where none; with ``figures``, tonnes and % with one
    decimal (as the disclosure prints them)."""
    rounded = {n - 1 for n in figure_columns(header)} if figures else set()
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow(
                ["" if cell is None else f"{cell:.1f}" if n in rounded else cell
                 for n, cell in enumerate(row)]
            )  # fmt: skip


def write_atomically(out: Path, write: Callable[[Path], None]) -> None:
    """``write`` a hidden partial file, then put it in place: never half a file at ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        write(partial)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)


def _cells(row: Sequence[object]) -> list[object]:
    return [cell_value(cell) for cell in row]
