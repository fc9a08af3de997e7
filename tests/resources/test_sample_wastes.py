"""The waste samples: their deliberate mistakes are exactly those documented, and a load gives
the counts sample_data/README.md states."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from emissions_etl.loading.pipeline import validate_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox" / "wastes"


def validate(name: str) -> tuple[int, pd.DataFrame]:
    result = validate_file(INBOX / name, spec=resource_spec("wastes"))
    return result.rows_read, result.rejects


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


def test_the_workbook_loads_274_rows_and_rejects_14(tenant: Tenant) -> None:
    with tenant.client() as client:
        for name in ("Valencia Office", "Sevilla Logistics Hub"):
            client.send_json(
                "POST", "/v1/facilities", {"name": name, "type": "office", "country": "ES"}
            )

    summary = load(tenant, "wastes", INBOX / "wastes_2026_h1.xlsx")

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (288, 274, 14)
    at_resolution = summary.rejects[
        summary.rejects["code"].isin(["UNKNOWN_FACILITY", "UNKNOWN_WASTE_EF"])
    ]
    assert sorted(zip(at_resolution["row"], at_resolution["code"], strict=True)) == [
        (12, "UNKNOWN_FACILITY"),
        (24, "UNKNOWN_WASTE_EF"),
    ]
