"""A commuting survey's tricky readings: weekdays, transport words, yes/no, the default
commuting type, the rules by transport (distance and weekdays unless telecommuting, car-only
fields) and the bounds; employees resolved by e-mail or name (else PARENT_NOT_LOADED)."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.commuting_periods import EMPLOYEES

HEADER = ["Empleado", "Desde", "Hasta", "Medio de transporte", "Km", "Días", "Trayectos al día",
          "Tamaño", "Combustible", "Comparte coche"]  # fmt: skip
SPEC = resource_spec("commuting_periods")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "encuesta.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    values: dict[str, object] = dict(zip(HEADER, ["ana@example.es", "01/01/2026", "30/06/2026",
                                                  "Coche", "15", "L-V", "2", "Mediano",
                                                  "Gasolina", "no"], strict=True))  # fmt: skip
    values.update({key.replace("_", " "): value for key, value in cells.items()})
    return [values[name] for name in HEADER]


def test_weekdays_words_and_defaults_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(
            Medio_de_transporte="tren",
            Días="Monday;Wednesday",
            Tamaño="",
            Combustible="",
            Comparte_coche="",
        ),  # fmt: skip
        row(
            Medio_de_transporte="Teletrabajo",
            Km="",
            Días="",
            Trayectos_al_día="",
            Tamaño="",
            Combustible="",
            Comparte_coche="",
        ),  # fmt: skip
        row(Días="0,1,2,3,4", Comparte_coche="sí"),
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["transport_type"].tolist() == ["car", "train", "telecommuting", "car"]
    assert valid["commuting_type"].tolist() == ["in_itinere"] * 4
    assert valid["weekly_travels"].tolist()[:2] == ["0,1,2,3,4", "0,2"]
    assert (valid["vehicle_size"].iloc[0], valid["fuel_type"].iloc[0]) == ("medium", "petrol")
    assert valid["carpool"].tolist()[3] is True
    refs = References([ReferenceTable(EMPLOYEES, [{"id": "e-1", "email": "Ana@example.es"}])])
    records, _ = SPEC.to_records(valid, refs)
    assert records["weekly_travels"].tolist()[:2] == [[0, 1, 2, 3, 4], [0, 2]]
    assert pd.isna(records["weekly_travels"].iloc[2])
    assert records["employee_id"].tolist() == ["e-1"] * 4


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Km": ""}, "Km", "REQUIRED"),  # a car trip needs its distance
        ({"Días": ""}, "Km", "REQUIRED"),  # ... and its weekdays (the rule names the distance)
        ({"Medio de transporte": "tren"}, "Tamaño", "NOT_APPLICABLE"),  # car fields on a train
        ({"Hasta": "01/01/2026"}, "Hasta", "DATE_ORDER"),  # the period must end after it starts
        ({"Km": "2000"}, "Km", "OUT_OF_RANGE"),
        ({"Trayectos al día": "0"}, "Trayectos al día", "OUT_OF_RANGE"),
        ({"Trayectos al día": "101"}, "Trayectos al día", "OUT_OF_RANGE"),
        ({"Comparte coche": "a veces"}, "Comparte coche", "INVALID_BOOLEAN"),
        (
            {"Medio de transporte": "helicóptero", "Tamaño": "", "Combustible": ""},
            "Medio de transporte",
            "INVALID_CHOICE",
        ),  # fmt: skip
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, row(**cells))
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_unreadable_weekdays_are_reported_and_count_as_missing(tmp_path: Path) -> None:
    _, rejects = validate(tmp_path, row(Días="Lunes a viernes"))
    assert sorted(zip(rejects["column"], rejects["code"], strict=True)) == [
        ("Días", "INVALID_WEEKDAYS"),
        ("Km", "REQUIRED"),  # the row rule then finds no weekdays
    ]


def test_employees_resolve_by_e_mail_or_name_and_a_missing_one_is_its_parents_fault(
    tmp_path: Path,
) -> None:
    valid, _ = validate(tmp_path, row(), row(Empleado="Miguel  Torres"), row(Empleado="Nadie"))
    refs = References([ReferenceTable(EMPLOYEES, [
        {"id": "e-1", "email": "ana@example.es", "name": "Ana García"},
        {"id": "e-2", "email": None, "name": "Miguel Torres"},
    ])])  # fmt: skip
    records, rejects = SPEC.to_records(valid, refs)
    assert records["employee_id"].tolist() == ["e-1", "e-2"]
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (4, "Empleado", "PARENT_NOT_LOADED")
    assert "employees file" in reject["message"]
