from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pytest

from emissions_etl_schemas import SCHEMAS, WasteInput, WasteRecord


def test_the_input_schema_is_the_wastes_schema_and_every_column_is_described() -> None:
    schema = SCHEMAS["wastes"].to_schema()
    assert SCHEMAS["wastes"] is WasteInput
    assert all(column.description for column in schema.columns.values())


def test_the_record_schema_mirrors_the_interface_fields() -> None:
    assert list(WasteRecord.to_schema().columns) == [
        "facility_id", "identification_name", "start_date", "end_date", "base_quantity",
        "unit_id", "waste_efs_id", "description", "destination", "total_km_to_waste_center",
        "client_row_id", "custom_ef_record_id",
    ]  # fmt: skip


def test_the_input_schema_serializes_because_its_checks_are_registered() -> None:
    text = WasteInput.to_schema().to_yaml()
    assert "is_ler_code" in text
    assert "dates_in_order" in text


def _record(**changes: object) -> pd.DataFrame:
    values = {
        "facility_id": "0b0e7c1e-1111-4a57-9d1f-0b6f5a7e3c21",
        "identification_name": "RSU-1",
        "start_date": pd.Timestamp("2026-01-01"),
        "end_date": pd.Timestamp("2026-01-31"),
        "base_quantity": 1.5,
        "unit_id": "61743a63-ff70-459c-9567-5eee8f7dfd5c",
        "waste_efs_id": "9a9e7c1e-3333-4a57-9d1f-0b6f5a7e3c21",
        "description": "",
        "destination": "",
        "total_km_to_waste_center": float("nan"),
        "client_row_id": "a",
        "custom_ef_record_id": None,
    }
    values.update(changes)
    frame = pd.DataFrame([values])
    for name in ("facility_id", "identification_name", "unit_id", "waste_efs_id",
                 "description", "destination", "client_row_id", "custom_ef_record_id"):  # fmt: skip
        frame[name] = frame[name].astype("str")
    return frame


def test_a_complete_record_passes() -> None:
    WasteRecord.validate(_record())


@pytest.mark.parametrize(
    "changes",
    [
        {"base_quantity": 0.0},
        {"client_row_id": "x" * 256},
        {"start_date": pd.Timestamp("2026-02-01")},
        {"facility_id": "madrid"},
    ],
)
def test_a_record_breaking_an_interface_rule_fails(changes: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(pa.errors.SchemaError):
        WasteRecord.validate(_record(**changes))
