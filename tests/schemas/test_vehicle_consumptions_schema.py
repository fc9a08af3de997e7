"""A fuel card export's tricky readings: unit words, one date for a refuelling, the bounds, and
resolution: plates of the fleet (else PARENT_NOT_LOADED), units across the fuels' units, the row
key sent as custom_id."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.vehicle_consumptions import UNITS, VEHICLES
from emissions_etl.resources.vehicles import VEHICLE_FUELS

HEADER = ["Matrícula", "Fecha", "Hasta", "Litros", "Unidad", "Operación"]
SPEC = resource_spec("vehicle_consumptions")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "tarjetas.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    values: dict[str, object] = dict(
        zip(HEADER, ["1234 KLM", "03/02/2026", "", "52,3", "L", "OP-1"], strict=True)
    )
    values.update({key.replace("_", " "): value for key, value in cells.items()})
    return [values[name] for name in HEADER]


def test_units_plates_and_a_single_date_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(Matrícula="5678-lmn", Unidad="kWh", Hasta="28/02/2026", Operación="OP-2"),
        row(Unidad="Kilómetros", Operación="OP-3"),
        row(Unidad="kilos", Operación="OP-4"),
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["unit"].tolist() == ["liters", "kwh", "km", "kilograms"]
    assert valid["license_plate"].tolist()[:2] == ["1234KLM", "5678LMN"]
    ends = [pd.Timestamp("2026-02-03"), pd.Timestamp("2026-02-28")]
    assert valid["end_date"].tolist()[:2] == ends
    assert valid["quantity"].iloc[0] == 52.3


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Litros": "0"}, "Litros", "NOT_POSITIVE"),
        ({"Litros": "1e7"}, "Litros", "OUT_OF_RANGE"),
        ({"Unidad": "galones"}, "Unidad", "INVALID_UNIT"),
        ({"Hasta": "01/01/2026"}, "Fecha", "DATE_ORDER"),
        ({"Fecha": "30/02/2026"}, "Fecha", "INVALID_DATE"),
        ({"Operación": "x" * 256}, "Operación", "TOO_LONG"),
        ({"Matrícula": ""}, "Matrícula", "REQUIRED"),
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, row(**cells))
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_plates_units_and_keys_resolve_and_a_missing_vehicle_is_its_parents_fault(
    tmp_path: Path,
) -> None:
    valid, _ = validate(
        tmp_path,
        row(),
        row(Unidad="t", Operación=""),
        row(Matrícula="9999 ZZZ", Operación="OP-9"),
    )
    refs = References([
        ReferenceTable(VEHICLES, [{"id": "v-1", "license_plate": "1234-KLM"}]),
        ReferenceTable(VEHICLE_FUELS, [{"id": "f", "fuel": "diesel", "country": "ES",
                                        "fuel_units": [{"id": "u-l", "name": "liters"}]}]),
        ReferenceTable(UNITS, [{"id": "u-t", "name": "tonnes"}]),
    ])  # fmt: skip
    records, rejects = SPEC.to_records(valid, refs)
    assert records["vehicle_id"].tolist() == ["v-1", "v-1"]
    assert records["unit_id"].tolist() == ["u-l", "u-t"]
    # A consumption without an operation number is keyed by its content in its source.
    keyless = f"tarjetas.csv#{valid['source_hash'].iloc[1]}#1"
    assert records["custom_id"].tolist() == ["OP-1", keyless]
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"]) == (4, "Matrícula")
    assert reject["code"] == "PARENT_NOT_LOADED"
    assert "vehicles file" in reject["message"]
