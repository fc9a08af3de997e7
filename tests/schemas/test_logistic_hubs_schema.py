"""The hubs list's tricky readings: type and category words, yes/no cells, and the owned-hub
facility rule both ways, judged offline by the generic validator; facility names resolved."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.logistic_hubs import FACILITIES

HEADER = ["Hub", "Tipo", "Categoría", "Dirección", "País", "Cargador rápido", "Centro"]
SPEC = resource_spec("logistic_hubs")


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "hubs.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, SPEC, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    values: dict[str, object] = dict(
        zip(HEADER, ["Hub Getafe", "owned", "", "", "ES", "", "Madrid Warehouse"], strict=True)
    )
    values.update({key.replace("_", " "): value for key, value in cells.items()})
    return [values[name] for name in HEADER]


def test_words_and_booleans_are_read(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(Tipo="Propio", Categoría="Cross dock", Cargador_rápido="sí"),
        row(
            Hub="Puerto (MSC)",
            Tipo="Subcontratado",
            Categoría="Warehouse Mixed",
            Centro="",
            Cargador_rápido="0",
        ),  # fmt: skip
        row(Hub="Hub 3", Tipo="3PL", Centro=""),
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["type"].tolist() == ["owned", "subcontracted", "subcontracted"]
    assert valid["category"].tolist()[:2] == ["transshipment_ambient", "warehouse_mixed"]
    assert valid["supercharger"].tolist()[:2] == [True, False]
    assert pd.isna(valid["supercharger"].iloc[2])


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"Centro": ""}, "Centro", "REQUIRED"),  # an owned hub needs its facility
        ({"Tipo": "subcontracted"}, "Centro", "NOT_APPLICABLE"),  # a subcontracted one has none
        ({"Tipo": "partner", "Centro": ""}, "Tipo", "INVALID_CHOICE"),
        ({"Categoría": "garage"}, "Categoría", "INVALID_CHOICE"),
        ({"Cargador rápido": "quizá"}, "Cargador rápido", "INVALID_BOOLEAN"),
        ({"País": "Spain"}, "País", "INVALID_COUNTRY"),
        ({"Hub": ""}, "Hub", "REQUIRED"),
    ],
)
def test_a_bad_cell_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, object], column: str, code: str
) -> None:
    _, rejects = validate(tmp_path, row(**cells))
    assert list(zip(rejects["column"], rejects["code"], strict=True)) == [(column, code)]


def test_facilities_resolve_by_name_and_an_unknown_one_is_rejected(tmp_path: Path) -> None:
    valid, _ = validate(
        tmp_path, row(Centro="madrid  warehouse"), row(Hub="B", Centro="Madrid Warehuose")
    )
    refs = References([ReferenceTable(FACILITIES, [{"id": "f-1", "name": "Madrid Warehouse"}])])
    records, rejects = SPEC.to_records(valid, refs)
    assert records["facility_id"].tolist() == ["f-1"]
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (3, "Centro", "UNKNOWN_FACILITY")
    assert "Did you mean 'Madrid Warehouse'?" in reject["message"]
