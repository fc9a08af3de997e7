"""The travel log's tricky readings: mode words, booleans, the route rule, mode-only fields and
the bounds, judged offline by the generic validator against the business travel schema."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec

HEADER = ["Fecha", "Medio de transporte", "Km", "Origen", "Destino", "Viajeros",
          "Ida y vuelta", "Tipo de vuelo", "Clase", "Tamaño", "Combustible"]  # fmt: skip


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "viajes.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    spec = resource_spec("business_travels")
    [(_, valid, rejects)] = list(iter_validated(path, spec, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    values = dict(zip(HEADER, ["16/02/2026", "tren", "", "Madrid", "Barcelona", "", "", "", "",
                               "", ""], strict=True))  # fmt: skip
    values.update({key.replace("_", " "): value for key, value in cells.items()})
    return [values[name] for name in HEADER]


def test_spanish_headers_and_words_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(
            **{
                "Medio de transporte": "Avión",
                "Tipo de vuelo": "Long haul",
                "Clase": "Turista",
                "Destino": "New York",
                "Ida y vuelta": "sí",
                "Viajeros": "2",
            }
        ),  # fmt: skip
        row(
            **{
                "Medio de transporte": "Coche",
                "Origen": "",
                "Destino": "",
                "Km": "320,5",
                "Tamaño": "Mediano",
                "Combustible": "gasóleo",
                "Ida y vuelta": "no",
            }
        ),  # fmt: skip
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["transport_type"].tolist() == ["train", "aircraft", "car"]
    assert valid["flight_type"].tolist()[1] == "long_haul_international"
    assert valid["cabin_class"].tolist()[1] == "economy"
    assert valid["round_trip"].tolist()[1:] == [True, False]
    assert pd.isna(valid["round_trip"].iloc[0])
    assert valid["travel_number"].tolist()[1] == 2
    assert (valid["distance_km"].iloc[2], valid["vehicle_size"].iloc[2]) == (320.5, "medium")
    assert valid["fuel_type"].iloc[2] == "diesel"


def test_a_row_for_the_docs_loads_to_defaults(tmp_path: Path) -> None:
    valid, _ = validate(tmp_path, row())
    records, rejects = resource_spec("business_travels").to_records(valid, {})  # type: ignore[arg-type]
    assert rejects.empty
    assert (records["travel_number"].iloc[0], records["round_trip"].iloc[0]) == (1, False)


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Km": "500"}, "Km", "ROUTE_REQUIRED"),  # a distance and both places
        ({"Origen": "", "Destino": ""}, "Km", "ROUTE_REQUIRED"),  # neither
        ({"Destino": ""}, "Km", "ROUTE_REQUIRED"),  # one place only
        ({"Tipo de vuelo": "domestic"}, "Tipo de vuelo", "NOT_APPLICABLE"),  # flight on a train
        ({"Combustible": "diesel"}, "Tamaño", "NOT_APPLICABLE"),  # car field on a train
        ({"Viajeros": "0"}, "Viajeros", "OUT_OF_RANGE"),
        ({"Viajeros": "1001"}, "Viajeros", "OUT_OF_RANGE"),
        ({"Viajeros": "2,5"}, "Viajeros", "INVALID_INTEGER"),
        ({"Ida y vuelta": "a veces"}, "Ida y vuelta", "INVALID_BOOLEAN"),
        ({"Medio de transporte": "teleport"}, "Medio de transporte", "INVALID_CHOICE"),
        ({"Origen": "", "Destino": "", "Km": "1e308"}, "Km", "OUT_OF_RANGE"),
        ({"Origen": "", "Destino": "", "Km": "-3"}, "Km", "NOT_POSITIVE"),
        ({"Fecha": "31/02/2026"}, "Fecha", "INVALID_DATE"),
    ],
)
def test_a_broken_rule_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, str], column: str, code: str
) -> None:
    valid, rejects = validate(tmp_path, row(**cells))
    assert valid.empty
    assert (rejects["column"].tolist(), rejects["code"].tolist()) == ([column], [code])


def test_the_bound_is_in_the_message(tmp_path: Path) -> None:
    _, rejects = validate(tmp_path, row(Origen="", Destino="", Km="1e308"))
    assert "40,000" in rejects["message"].iloc[0]
