"""The fleet list's tricky readings: plates, Spanish fuel and type words, the fuel-or-custom-
factor rule and the year bounds, judged offline; fuels resolved per country with GLO fallback."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.vehicles import UNKNOWN_VEHICLES, VEHICLE_FUELS

HEADER = ["Matrícula", "Alias", "Tipo", "Régimen", "Tipo de vehículo", "País", "Combustible",
          "Factor propio", "Año", "Segmento", "Tamaño"]  # fmt: skip
SPEC = resource_spec("vehicles")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "flota.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    cells_of_a_van = ["1234 KLM", "", "freight", "owned", "van", "ES", "diesel", "", "2021", "", ""]
    values: dict[str, object] = dict(zip(HEADER, cells_of_a_van, strict=True))
    values.update({key.replace("_", " "): value for key, value in cells.items()})
    return [values[name] for name in HEADER]


def test_plates_and_the_words_people_use_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(
            Matrícula="5678-lmn",
            Combustible="Gasóleo",
            Tipo_de_vehículo="Furgoneta",
            Régimen="Renting",
        ),  # fmt: skip
        row(
            Matrícula="AA.12.BC",
            Tipo="Turismo",
            Combustible="eléctrico",
            Segmento="Compacto",
            Tamaño="Grande",
            Tipo_de_vehículo="coche",
        ),  # fmt: skip
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["license_plate"].tolist() == ["5678LMN", "AA12BC"]
    assert valid["vehicle_fuel"].tolist() == ["diesel", "electricity"]
    assert valid["unknown_vehicle"].tolist() == ["van", "car"]
    assert valid["ownership"].tolist() == ["rented", "owned"]
    assert valid["type"].tolist() == ["freight", "passenger"]
    assert (valid["market_segment"].iloc[1], valid["size"].iloc[1]) == ("lower_medium", "large_car")


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Combustible": ""}, "Combustible", "REQUIRED"),  # neither a fuel nor a custom factor
        ({"Factor propio": "not-an-id"}, "Factor propio", "INVALID_FORMAT"),
        ({"Año": "1949"}, "Año", "OUT_OF_RANGE"),
        ({"Año": "2031"}, "Año", "OUT_OF_RANGE"),
        ({"Año": "2021,5"}, "Año", "INVALID_INTEGER"),
        ({"Tipo": "bicycle"}, "Tipo", "INVALID_CHOICE"),
        ({"Régimen": "prestado"}, "Régimen", "INVALID_CHOICE"),
        ({"Tamaño": "XL"}, "Tamaño", "INVALID_CHOICE"),
        ({"País": "España"}, "País", "INVALID_COUNTRY"),
        ({"Matrícula": ""}, "Matrícula", "REQUIRED"),
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, row(**cells))
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_a_plate_written_twice_in_other_ways_is_a_duplicate(tmp_path: Path) -> None:
    valid, rejects = validate(tmp_path, row(), row(Matrícula="1234-klm"))
    assert len(valid) == 1
    assert list(rejects["code"]) == ["DUPLICATE_ROW_ID"]


def test_fuels_resolve_for_the_country_else_globally_and_unknown_names_are_rejected(
    tmp_path: Path,
) -> None:
    valid, _ = validate(
        tmp_path,
        row(),
        row(Matrícula="AA12BC", País="PT"),
        row(Matrícula="B", Combustible="hidrógeno"),
        row(Matrícula="C", Tipo_de_vehículo="tanque"),
    )
    fuels = [{"id": "diesel-es", "fuel": "diesel", "country": "ES"},
             {"id": "diesel-glo", "fuel": "diesel", "country": "GLO"}]  # fmt: skip
    kinds = [{"id": "van-glo", "type": "van", "country": "GLO"}]
    refs = References([ReferenceTable(VEHICLE_FUELS, fuels),
                       ReferenceTable(UNKNOWN_VEHICLES, kinds)])  # fmt: skip
    records, rejects = SPEC.to_records(valid, refs)
    assert records["vehicle_fuel_id"].tolist() == ["diesel-es", "diesel-glo"]
    assert records["unknown_vehicle_id"].tolist() == ["van-glo", "van-glo"]
    assert list(zip(rejects["row"], rejects["column"], rejects["code"], strict=True)) == [
        (4, "Combustible", "UNKNOWN_REFERENCE"),
        (5, "Tipo de vehículo", "UNKNOWN_REFERENCE"),
    ]
    assert "known: diesel" in rejects["message"].iloc[0]
