"""The wastes schema as a declaration: described columns, registered checks, the interface's
rules on a typed row, and the forgiving reading of units and codes."""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pytest

from emissions_etl.loading.cell_kinds import column_rules, parse_column
from emissions_etl.resources import resource_spec
from emissions_etl_schemas import WasteInput
from emissions_etl_schemas.wastes import CLIENT_ROW_ID_MAX, INPUT_ALIASES, REQUIRED_INPUT_COLUMNS

WASTES = resource_spec("wastes")


def test_the_wastes_spec_reads_with_the_wastes_schema_and_every_column_is_described() -> None:
    schema = WasteInput.to_schema()
    assert WASTES.schema is WasteInput
    assert WASTES.aliases is INPUT_ALIASES
    assert WASTES.required_columns == REQUIRED_INPUT_COLUMNS
    assert all(column.description for column in schema.columns.values())
    assert set(REQUIRED_INPUT_COLUMNS) <= set(schema.columns)


def test_the_record_fields_mirror_the_interface_fields() -> None:
    # custom_ef_record_id is an interface field the spreadsheet does not offer.
    assert WASTES.record_fields == (
        "facility_id", "identification_name", "start_date", "end_date", "base_quantity",
        "unit_id", "waste_efs_id", "description", "destination", "total_km_to_waste_center",
        "client_row_id",
    )  # fmt: skip


def test_the_input_schema_serializes_because_its_checks_are_registered() -> None:
    text = WasteInput.to_schema().to_yaml()
    assert text is not None
    assert "is_ler_code" in text
    assert "dates_in_order" in text


def _row(**changes: object) -> pd.DataFrame:
    """One typed row, as validation hands it to the schema."""
    values: dict[str, object] = {
        "facility": "Madrid Warehouse",
        "identification_name": "RSU-1",
        "start_date": pd.Timestamp("2026-01-01"),
        "end_date": pd.Timestamp("2026-01-31"),
        "base_quantity": 1.5,
        "unit": "kg",
        "ler_code": "200101",
        "rd_code": "R3",
        "destination": None,
        "description": None,
        "total_km_to_waste_center": float("nan"),
        "client_row_id": "a",
    }
    values.update(changes)
    frame = pd.DataFrame([values])
    for name in ("facility", "identification_name", "unit", "ler_code", "rd_code",
                 "destination", "description", "client_row_id"):  # fmt: skip
        frame[name] = frame[name].astype("str").where(frame[name].notna())
    return frame


def test_a_complete_row_passes() -> None:
    WasteInput.validate(_row())


@pytest.mark.parametrize(
    "changes",
    [
        {"base_quantity": 0.0},
        {"base_quantity": 1e308},
        {"client_row_id": "x" * (CLIENT_ROW_ID_MAX + 1)},
        {"start_date": pd.Timestamp("2026-02-01")},
        {"ler_code": "20 01 01"},
        {"rd_code": "R14"},
        {"unit": "lbs"},
        {"total_km_to_waste_center": -1.0},
        {"facility": None},
    ],
)
def test_a_row_breaking_an_interface_rule_fails(changes: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises((pa.errors.SchemaError, pa.errors.SchemaErrors)):
        WasteInput.validate(_row(**changes), lazy=True)


def _read(column: str, *cells: str) -> list[object]:
    rule = next(rule for rule in column_rules(WasteInput) if rule.name == column)
    parsed = parse_column(rule, pd.Series(list(cells), dtype="str"))
    return parsed.values.tolist()


def test_units_are_read_from_the_words_people_use() -> None:
    assert _read("unit", "KG", "Kilos", "kilogramos", "Tonnes", "tn", "t") == [
        "kg", "kg", "kg", "t", "t", "t",
    ]  # fmt: skip


def test_codes_are_read_without_spaces_and_in_upper_case() -> None:
    assert _read("ler_code", "20 01 01", "150102") == ["200101", "150102"]
    assert _read("rd_code", "r 3", "d1") == ["R3", "D1"]
