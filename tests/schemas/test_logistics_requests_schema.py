"""A TMS export's tricky readings: the route rule (distance, both places, or both), toc or
category, load units and modes as people write them, booleans, bounds, and the leg's key (the
service's dedup key; a row without a movement id keeps its own)."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.logistics_requests import HUBS, TOCS

HEADER = ["Expedición", "Tramo", "Fecha envío", "Origen", "Destino", "Km", "Peso", "Unidad",
          "Tipo vehículo", "Modo", "Subcontratado", "Row id"]  # fmt: skip


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "envios.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    spec = resource_spec("logistics_requests")
    [(_, valid, rejects)] = list(iter_validated(path, spec, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    good = ["EXP-1", "1", "10/02/2026", "Madrid", "Barcelona", "", "12000", "kg", "",
            "Carretera", "", ""]  # fmt: skip
    values = dict(zip(HEADER, good, strict=True))
    values.update({name.replace("_", " "): value for name, value in cells.items()})
    return [values[name] for name in HEADER]


def test_spanish_words_and_a_distance_with_places(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(
            Tramo="2",
            Km="620,5",
            Unidad="palets",
            Modo="",
            Subcontratado="sí",
            **{"Tipo vehículo": "van_diesel"},
        ),  # fmt: skip
        row(Tramo="3", Unidad="toneladas", Modo="marítimo", Origen="Valencia", Destino="Palma"),
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["category"].tolist()[::2] == ["road", "maritime"]
    assert valid["load_unit"].tolist() == ["kg", "pallets", "ton"]
    assert valid["load"].iloc[0] == 12000.0
    assert (valid["distance_km"].iloc[1], valid["origin"].iloc[1]) == (620.5, "Madrid")
    assert valid["subcontractor"].iloc[1]


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Destino": ""}, "Km", "ROUTE_REQUIRED"),  # one place and no distance
        ({"Origen": "", "Destino": ""}, "Km", "ROUTE_REQUIRED"),
        ({"Modo": ""}, "Tipo vehículo", "REQUIRED"),  # neither toc nor category
        ({"Modo": "teleport"}, "Modo", "INVALID_CHOICE"),
        ({"Unidad": "bultos"}, "Unidad", "INVALID_CHOICE"),
        ({"Peso": "0"}, "Peso", "NOT_POSITIVE"),
        ({"Peso": "1e308"}, "Peso", "OUT_OF_RANGE"),
        ({"Km": "50000"}, "Km", "OUT_OF_RANGE"),
        ({"Subcontratado": "a veces"}, "Subcontratado", "INVALID_BOOLEAN"),
        ({"Fecha envío": ""}, "Fecha envío", "REQUIRED"),
    ],
)
def test_a_broken_rule_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, str], column: str, code: str
) -> None:
    valid, rejects = validate(tmp_path, row(**cells))
    assert valid.empty
    assert (rejects["column"].tolist(), rejects["code"].tolist()) == ([column], [code])


def test_a_leg_is_keyed_by_movement_and_stretch_else_by_its_own_id(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(Tramo=""),
        row(Expedición="", Tramo="1", **{"Row id": "TMS-7"}),
        row(Expedición="", Tramo="1"),
    )
    assert rejects.empty, rejects.to_dict("records")
    # A leg with neither a movement nor its own id is keyed by its content in its source.
    own = f"envios.csv#{valid['source_hash'].iloc[3]}#1"
    assert valid["source_key"].tolist() == ["exp-1|1", "exp-1|", "TMS-7", own]
    no_names = References([ReferenceTable(TOCS, []), ReferenceTable(HUBS, [])])
    records, _ = resource_spec("logistics_requests").to_records(valid, no_names)
    assert records["movement_id"].tolist() == ["EXP-1", "EXP-1", "TMS-7", own]


def test_two_legs_with_one_key_are_a_duplicate(tmp_path: Path) -> None:
    _, rejects = validate(tmp_path, row(), row(Origen="Madrid", Destino="Valencia"))
    found = rejects[["row", "column", "code"]].values.tolist()
    assert found == [[3, "Expedición", "DUPLICATE_ROW_ID"]]
