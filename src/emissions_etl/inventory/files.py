"""The inventory as files the sustainability team pastes into its report: the ESRS E1-6 table
as CSV, or a workbook with a sheet per view (by scope and category, by month, by facility) and an
About sheet saying what the figures are. Written whole or not at all.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pandas as pd
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from emissions_etl.inventory.esrs import MARKET_BASED_NOTE
from emissions_etl.inventory.reading import Inventory
from emissions_etl.resources import aggregates_in_words
from emissions_etl.storage import AnyPath, is_folder

SUFFIXES = (".xlsx", ".csv")
SHEETS = ("By scope and category", "By month", "By facility", "About")
#: The ESRS table's columns as the files head them.
TABLE_HEADER = ("line", "scope", "category", "co2e (t)", "records", "calculated", "pending",
                "errors")  # fmt: skip
#: The columns of the month and facility sheets: the scopes, their total, what is outside it.
SCOPE_COLUMNS = ("Scope 1", "Scope 2 (location-based)", "Scope 3", "Total (Scopes 1 to 3)",
                 "Not in the total")  # fmt: skip
TONNES = "#,##0.0"


def check_target(out: AnyPath) -> None:
    """ValueError when ``out`` cannot be an inventory file (checked before reading anything);
    ``out`` may be an object of a store (written by ``storage.written``)."""
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"--out {out}: the name must end in .xlsx or .csv")
    if is_folder(out):
        raise ValueError(f"--out {out} is a folder: give a file name ending .xlsx or .csv")


def write_inventory_file(inventory: Inventory, out: Path, *, warehouse: str) -> Path:
    """Write ``out`` (.csv: the ESRS table; .xlsx: every sheet); OSError if it cannot be."""
    check_target(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        if out.suffix.lower() == ".csv":
            _write_csv(inventory, partial)
        else:
            _write_xlsx(inventory, partial, warehouse=warehouse)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return out


def table_rows(inventory: Inventory) -> list[list[object]]:
    """The ESRS lines as rows under ``TABLE_HEADER`` (tonnes unrounded; None where not given)."""
    return [
        [line["line"], _value(line["scope"]), _value(line["category"]), _value(line["co2e_t"]),
         *(_value(line[name]) for name in
           ("records", "records_calculated", "records_pending", "records_error"))]
        for line in inventory.lines.to_dict("records")
    ]  # fmt: skip


def by_scope(frame: pd.DataFrame, index: str) -> pd.DataFrame:
    """co2e in tonnes with one column per ``SCOPE_COLUMNS`` and a row per ``index`` value (as
    a label; the row of records without one last)."""
    keyed = frame.assign(
        column=frame["scope"].map({1: SCOPE_COLUMNS[0], 2: SCOPE_COLUMNS[1], 3: SCOPE_COLUMNS[2]})
        .fillna(SCOPE_COLUMNS[4]),
        key=[_label(key, index) for key in frame[index]],
        t=frame["co2e_kg"].astype("float64") / 1000,
    )  # fmt: skip
    table = keyed.pivot_table(
        index="key", columns="column", values="t", aggfunc="sum", fill_value=0.0
    ).reindex(columns=list(SCOPE_COLUMNS), fill_value=0.0)
    table[SCOPE_COLUMNS[3]] = table[list(SCOPE_COLUMNS[:3])].sum(axis=1)
    missing = [key for key in table.index if key.startswith("(no ")]
    return table.reindex([*(k for k in table.index if k not in missing), *missing])


def _write_csv(inventory: Inventory, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(TABLE_HEADER)
        for row in table_rows(inventory):
            tonnes = row[3]
            writer.writerow([*row[:3], "" if tonnes is None else f"{tonnes:.1f}", *row[4:]])


def _write_xlsx(inventory: Inventory, path: Path, *, warehouse: str) -> None:
    workbook = openpyxl.Workbook()
    first = workbook.active
    assert first is not None
    workbook.remove(first)
    table = workbook.create_sheet(SHEETS[0])
    _rows(table, TABLE_HEADER, table_rows(inventory), tonnes_columns=(4,))
    for sheet_name, frame, index, label in (
        (SHEETS[1], inventory.by_month, "month", "month"),
        (SHEETS[2], inventory.by_facility, "facility", "facility"),
    ):
        pivot = by_scope(frame, index)
        rows = [[key, *map(float, values)] for key, values in pivot.iterrows()]
        tonnes = tuple(range(2, 2 + len(SCOPE_COLUMNS)))
        sheet = workbook.create_sheet(sheet_name)
        _rows(sheet, (label, *(f"{c} (t)" for c in SCOPE_COLUMNS)), rows, tonnes_columns=tonnes)
    _about(workbook.create_sheet(SHEETS[3]), inventory, warehouse)
    workbook.save(path)


def _rows(
    sheet: Worksheet,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    tonnes_columns: Sequence[int],
) -> None:
    """A header in bold, then rows; tonnes shown with one decimal (the cell keeps them all)."""
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(list(row))
        for column in tonnes_columns:
            sheet.cell(sheet.max_row, column).number_format = TONNES
    sheet.column_dimensions["A"].width = max(
        [len(str(header[0])), *(len(str(r[0] or "")) for r in rows)]
    )
    sheet.freeze_panes = "B2"


def _about(sheet: Worksheet, inventory: Inventory, warehouse: str) -> None:
    year = str(inventory.year) if inventory.year is not None else "every year"
    undated = (
        f"{inventory.undated_records:,} record(s) have no activity date: in no year, so not in "
        "these figures"
        if inventory.year is not None and inventory.undated_records
        else ""
    )
    facts = [
        ("warehouse", warehouse),
        ("generated (UTC)", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")),
        ("consolidation approach", inventory.approach),
        ("reporting year", year),
        ("organization", inventory.organization or "not named (the warehouse was written "
                                                   "before organizations were recorded)"),
        ("unit", "tonnes of co2e (t), shown with one decimal; the cells hold every decimal"),
        ("excluded", f"{aggregates_in_words()}: their co2e is the sum of other records', "
                     "counted once through those"),
        ("Scope 2", f"location-based; market-based {MARKET_BASED_NOTE}"),
        ("not in the total", "records no rule places in a scope, listed with the reason"),
        ("undated", undated),
    ]  # fmt: skip
    _rows(sheet, ("what", "value"), [list(fact) for fact in facts if fact[1]], tonnes_columns=())


def _label(key: object, index: str) -> str:
    if _value(key) is None or key is pd.NaT:
        return "(no activity date)" if index == "month" else "(no facility)"
    if index == "month":
        return pd.Timestamp(key).strftime("%Y-%m")  # type: ignore[arg-type]
    return str(key)


def _value(value: object) -> object:
    """A cell's value: None for missing, plain int/float otherwise."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and pd.isna(value):
        return None
    return value.item() if hasattr(value, "item") else value
