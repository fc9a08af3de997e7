"""The business travel samples: their deliberate mistakes are exactly those documented in
sample_data/inbox/business_travels/README.md, and a load gives the counts it states."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from emissions_etl.loading.pipeline import validate_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox" / "business_travels"


def validate(name: str) -> tuple[int, pd.DataFrame]:
    result = validate_file(INBOX / name, spec=resource_spec("business_travels"))
    return result.rows_read, result.rejects


def found(rejects: pd.DataFrame) -> list[tuple[int, str, str]]:
    return sorted(zip(rejects["row"], rejects["column"], rejects["code"], strict=True))


def test_the_travel_log_has_its_documented_mistakes_and_no_others() -> None:
    rows, rejects = validate("travel_log_2026_h1.xlsx")
    assert rows == 120
    assert found(rejects) == [
        (10, "Km", "ROUTE_REQUIRED"),
        (23, "Viajeros", "OUT_OF_RANGE"),
        (35, "Medio de transporte", "INVALID_CHOICE"),
        (48, "Tipo de vuelo", "NOT_APPLICABLE"),
        (61, "Fecha", "INVALID_DATE"),
        (74, "Ida y vuelta", "INVALID_BOOLEAN"),
    ]


def test_the_travel_log_loads_112_trips_and_rejects_8(tenant: Tenant) -> None:
    summary = load(tenant, "business_travels", INBOX / "travel_log_2026_h1.xlsx")

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (120, 112, 8)
    by_service = summary.rejects[summary.rejects["code"] == "REJECTED_BY_SERVICE"]
    assert found(by_service) == [
        (87, "Medio de transporte", "REJECTED_BY_SERVICE"),
        (100, "Destino", "REJECTED_BY_SERVICE"),
    ]
    messages = by_service.sort_values("row")["message"].tolist()
    assert "VALIDATION_ERROR" in messages[0]
    assert "UNKNOWN_PLACE" in messages[1]


def test_the_agency_export_has_its_documented_mistakes_and_no_others() -> None:
    rows, rejects = validate("agency_flights_2026.csv")
    assert rows == 60
    assert found(rejects) == [(16, "Booking ref", "DUPLICATE_ROW_ID"), (43, "Pax", "OUT_OF_RANGE")]


def test_the_agency_export_loads_57_flights_and_rejects_3(tenant: Tenant) -> None:
    summary = load(tenant, "business_travels", INBOX / "agency_flights_2026.csv")

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (60, 57, 3)
    by_service = summary.rejects[summary.rejects["code"] == "REJECTED_BY_SERVICE"]
    assert found(by_service) == [(31, "To", "REJECTED_BY_SERVICE")]
    assert "UNKNOWN_PLACE" in by_service["message"].iloc[0]
