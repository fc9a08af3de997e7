"""The committed sample inbox reads, and its deliberate mistakes are exactly those documented."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from emissions_etl.sources import read_source
from emissions_etl.validation import validate_wastes
from emissions_etl_schemas import INPUT_ALIASES, SCHEMAS

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox"
EXPECTED = list(SCHEMAS["wastes"].to_schema().columns)


def validate(name: str) -> tuple[int, pd.DataFrame]:
    rows, rejects = 0, []
    for batch in read_source(INBOX / name, expected_columns=EXPECTED, aliases=INPUT_ALIASES):
        rows += len(batch)
        rejects.append(validate_wastes(batch).rejects)
    return rows, pd.concat(rejects, ignore_index=True)


def test_the_workbook_has_its_documented_mistakes_and_no_others() -> None:
    rows, rejects = validate("wastes_2026_h1.xlsx")
    assert rows == 288
    assert sorted(zip(rejects["sheet"], rejects["row"], rejects["code"], strict=True)) == [
        ("Barcelona-Sevilla", 36, "REQUIRED"),
        ("Barcelona-Sevilla", 48, "NOT_POSITIVE"),
        ("Barcelona-Sevilla", 60, "INVALID_DATE"),
        ("Barcelona-Sevilla", 72, "DUPLICATE_ROW_ID"),
        ("Madrid-Valencia", 9, "NOT_POSITIVE"),
        ("Madrid-Valencia", 21, "INVALID_NUMBER"),
        ("Madrid-Valencia", 33, "INVALID_DATE"),
        ("Madrid-Valencia", 45, "DATE_ORDER"),
        ("Madrid-Valencia", 57, "INVALID_LER_CODE"),
        ("Madrid-Valencia", 69, "INVALID_RD_CODE"),
        ("Madrid-Valencia", 81, "INVALID_UNIT"),
        ("Madrid-Valencia", 93, "REQUIRED"),
    ]


def test_the_erp_export_has_its_documented_mistakes_and_no_others() -> None:
    rows, rejects = validate("erp_export_wastes.csv")
    assert rows == 100
    assert sorted(zip(rejects["row"], rejects["column"], rejects["code"], strict=True)) == [
        (13, "Menge", "NOT_POSITIVE"),
        (25, "LER-Code", "INVALID_LER_CODE"),
        (49, "R/D", "INVALID_RD_CODE"),
        (61, "Von", "INVALID_DATE"),
        (85, "ME", "INVALID_UNIT"),
    ]
