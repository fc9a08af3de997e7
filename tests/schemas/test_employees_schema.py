"""An HR export's tricky readings: situation words, the default status, the key (e-mail, else
name), the name-or-e-mail rule; and an employee's co2e read as the sum of its periods."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.loading.readback import remote_frame
from emissions_etl.resources import resource_spec

HEADER = ["Nombre y apellidos", "Correo electrónico", "Situación"]
SPEC = resource_spec("employees")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "plantilla.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def test_words_default_status_and_keys_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        ["Ana García", " Ana.Garcia@Example.es ", "Activo"],
        ["Miguel Torres", "", "Excedencia"],
        ["", "s.moreno@example.es", "baja"],
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["situation"].tolist() == ["active", "inactive", "terminated"]
    assert valid["status"].tolist() == ["uploaded"] * 3
    assert valid["source_key"].tolist() == [
        "ana.garcia@example.es", "miguel torres", "s.moreno@example.es",
    ]  # fmt: skip
    records, _ = SPEC.to_records(valid, {})  # type: ignore[arg-type]
    assert records["email"].iloc[0] == "Ana.Garcia@Example.es"
    assert pd.isna(records["email"].iloc[1])


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        (["", "", "active"], "Correo electrónico", "REQUIRED"),  # neither name nor e-mail
        (["Ana", "ana.garcia", "active"], "Correo electrónico", "INVALID_EMAIL"),
        (["A" * 256, "", "active"], "Nombre y apellidos", "TOO_LONG"),
        (["Ana", "", "jubilada"], "Situación", "INVALID_CHOICE"),
        (["Ana", "", ""], "Situación", "REQUIRED"),
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: list[object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, cells)
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_the_same_e_mail_twice_is_one_person_written_twice(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path, ["Ana García", "ana@example.es", "active"], ["Ana G.", "ANA@example.es", "active"]
    )
    assert len(valid) == 1
    assert list(zip(rejects["row"], rejects["code"], strict=True)) == [(3, "DUPLICATE_ROW_ID")]


def test_an_employees_co2e_is_the_sum_of_its_periods() -> None:
    employees = [
        {"id": "e-1", "status": "uploaded", "periods": [{"co2e": 12.5}, {"co2e": 7.5}]},
        {"id": "e-2", "status": "uploaded", "periods": []},
    ]
    assert remote_frame(employees, SPEC)["co2e_kg"].tolist() == [20.0, 0.0]
