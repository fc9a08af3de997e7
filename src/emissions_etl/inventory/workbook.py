"""The inventory as a workbook: the ESRS E1-6 table (by scope and category, the years side by
side), the scopes by month and by facility, a restatement's changed records, and an About sheet
saying what the figures are. A filed inventory's About says when it was filed and by whom, not
when the file was written, so writing it again gives the same cells.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pandas as pd
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from emissions_etl.inventory.esrs import MARKET_BASED_NOTE
from emissions_etl.inventory.reading import Inventory
from emissions_etl.inventory.restatement import Restatement
from emissions_etl.inventory.table import (
    CHANGES_SHEET,
    ESTIMATES_SHEET,
    PERCENT,
    SCOPE_COLUMNS,
    SHEETS,
    TONNES,
    by_scope,
    figure_columns,
)
from emissions_etl.resources import aggregates_in_words


def write_workbook(
    inventory: Inventory,
    path: Path,
    *,
    warehouse: str,
    table: tuple[Sequence[str], Sequence[Sequence[object]]],
    restatement: Restatement | None = None,
) -> None:
    """Every sheet of the inventory at ``path``; ``table``: the ESRS table's header and rows
    (``files.table``)."""
    workbook = openpyxl.Workbook()
    first = workbook.active
    assert first is not None
    workbook.remove(first)
    header, rows = table
    write_rows(workbook.create_sheet(SHEETS[0]), header, rows)
    for sheet_name, frame, index, label in (
        (SHEETS[1], inventory.by_month, "month", "month"),
        (SHEETS[2], inventory.by_facility, "facility", "facility"),
    ):
        pivot = by_scope(frame, index)
        scoped = [[key, *map(float, values)] for key, values in pivot.iterrows()]
        sheet = workbook.create_sheet(sheet_name)
        write_rows(sheet, (label, *(f"{c} (t)" for c in SCOPE_COLUMNS)), scoped)
    if restatement is not None:
        _write_frame(workbook.create_sheet(CHANGES_SHEET), restatement.records)
        if restatement.filed.estimates_as_of is not None:
            _write_frame(workbook.create_sheet(ESTIMATES_SHEET), restatement.estimates)
    about = about_facts(inventory, warehouse)
    if restatement is not None:
        about.insert(2, ("restated against", restatement.filed.described()))
    write_rows(workbook.create_sheet(SHEETS[3]), ("what", "value"), [list(f) for f in about])
    workbook.save(path)


def _write_frame(sheet: Worksheet, frame: pd.DataFrame) -> None:
    cells = frame.astype(object).where(frame.notna(), None)
    write_rows(sheet, list(frame.columns), [list(row) for row in cells.itertuples(index=False)])


def write_rows(sheet: Worksheet, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A header in bold, then rows; tonnes and % shown with one decimal (the cell keeps them
    all)."""
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    figures = figure_columns(header)
    for row in rows:
        sheet.append(list(row))
        for column in figures:
            cell = sheet.cell(sheet.max_row, column)
            cell.number_format = PERCENT if str(header[column - 1]).endswith("(%)") else TONNES
    sheet.column_dimensions["A"].width = max(
        [len(str(header[0])), *(len(str(r[0] or "")) for r in rows)]
    )
    sheet.freeze_panes = "B2"


def _estimated_fact(inventory: Inventory) -> str:
    """What the estimated columns hold, in an inventory with estimates."""
    if not inventory.with_estimates:
        return ""
    when = f"{inventory.estimates_as_of:%Y-%m-%d}" if inventory.estimates_as_of else "today"
    return (
        f"estimated (t): estimates of missing months as of {when} (the warehouse's coverage, "
        "each with its method), counted in co2e (t); kept in the warehouse only, never sent to "
        "the service; estimated (%): their share of the line"
    )


def about_facts(inventory: Inventory, warehouse: str) -> list[tuple[str, str]]:
    """What the figures are: where from, when, under which approach, for which years."""
    year = str(inventory.year) if inventory.year is not None else "every year"
    undated = (
        f"{inventory.undated_records:,} record(s) have no activity date: in no year, so not in "
        "these figures"
        if inventory.year is not None and inventory.undated_records
        else ""
    )
    filed = inventory.filed
    if filed is None:
        when = [("generated (UTC)", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M"))]
    else:
        source = (
            f"the lake's snapshot {filed.snapshot_id}" if filed.snapshot_id is not None
            else "the copy of its records frozen when it was filed"
        )  # fmt: skip
        when = [
            ("filed inventory", filed.filed_id),
            ("filed (UTC)", f"{filed.filed_at:%Y-%m-%d %H:%M}"),
            ("filed by", filed.filed_by),
            ("note", filed.note or ""),
            ("reproduced from", source),
        ]
    compared = ", ".join(
        f"{c.year}{' (base year)' if c.is_base else ''}"
        f"{'' if c.has_records else ': no record, cells left empty'}"
        for c in inventory.compared
    )
    facts = [
        ("warehouse", warehouse),
        *when,
        ("consolidation approach", inventory.approach),
        ("reporting year", year),
        ("years side by side", compared),
        ("organization", inventory.organization or "not named (the warehouse was written "
                                                   "before organizations were recorded)"),
        ("unit", "tonnes of co2e (t), shown with one decimal; the cells hold every decimal"),
        ("total", "Total GHG emissions (location-based): the inventory's total; the lines after "
                  "it are outside it"),
        ("excluded", f"{aggregates_in_words()}: their co2e is the sum of other records', "
                     "counted once through those"),
        ("Scope 2", f"location-based; market-based {MARKET_BASED_NOTE}"),
        ("not in the total", "records no rule places in a scope, listed with the reason"),
        ("estimated", _estimated_fact(inventory)),
        ("undated", undated),
    ]  # fmt: skip
    return [fact for fact in facts if fact[1]]
