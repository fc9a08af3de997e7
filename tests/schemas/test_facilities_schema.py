"""The facilities list's tricky readings: list cells (categories, CUPS codes), the default
logistic factor, country codes and bounds, judged offline by the generic validator."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec

HEADER = ["Nombre", "Tipo", "País", "Dirección", "Factor logístico", "Categorías", "CUPS"]
SPEC = resource_spec("facilities")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "centros.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    values: dict[str, object] = dict(
        zip(HEADER, ["Valencia Office", "office", "ES", "", "", "", ""], strict=True)
    )
    values.update(cells)
    return [values[name] for name in HEADER]


def test_list_cells_default_and_spanish_words_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(
            Tipo="Oficina",
            Categorías="Electricidad; agua; electricity",
            CUPS="es 0021 0000 0000 0001 ab ; ES0031405000000002CD1P",
        ),
        row(Nombre="Bilbao Office", País="esp", **{"Factor logístico": "0,65"}),
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["type"].tolist() == ["oficina", "office"]
    assert valid["categories"].iloc[0] == "electricity,water"
    assert valid["cups_list"].iloc[0] == "ES0021000000000001AB,ES0031405000000002CD1P"
    assert valid["logistic_factor"].tolist() == [0.8, 0.65]
    assert valid["country"].tolist() == ["ES", "ESP"]
    records, _ = SPEC.to_records(valid, References())
    assert records["categories"].iloc[0] == ["electricity", "water"]
    assert records["cups_list"].iloc[0] == ["ES0021000000000001AB", "ES0031405000000002CD1P"]
    assert pd.isna(records["categories"].iloc[1])


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Factor logístico": "1,5"}, "Factor logístico", "OUT_OF_RANGE"),
        ({"Factor logístico": "-0.1"}, "Factor logístico", "OUT_OF_RANGE"),
        ({"Categorías": "electricity, gas"}, "Categorías", "INVALID_CHOICE"),
        ({"CUPS": "ES12345"}, "CUPS", "INVALID_CUPS"),
        ({"País": "Spain"}, "País", "INVALID_COUNTRY"),
        ({"Nombre": ""}, "Nombre", "REQUIRED"),
        ({"Tipo": ""}, "Tipo", "REQUIRED"),
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, row(**cells))
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_a_name_twice_is_a_duplicate_whatever_its_case(tmp_path: Path) -> None:
    valid, rejects = validate(tmp_path, row(), row(Nombre="valencia  OFFICE"))
    assert len(valid) == 1
    assert list(zip(rejects["row"], rejects["code"], strict=True)) == [(3, "DUPLICATE_ROW_ID")]
