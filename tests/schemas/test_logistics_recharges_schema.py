"""A fuel list's tricky readings: fuel words, two-letter countries, bounds, and the service's
upsert key (country, date, quantity, plate) as the row's key: the same four twice are one
recharge, and quantities that differ in the third decimal are two."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec
from emissions_etl.resources.logistics_recharges import FUELS, TOCS

HEADER = ["Fecha", "Matrícula", "Combustible", "Cantidad", "País", "Tipo vehículo", "Nº operación"]


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "recargas.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(HEADER)
        writer.writerows(rows)
    spec = resource_spec("logistics_recharges")
    [(_, valid, rejects)] = list(iter_validated(path, spec, LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    good = ["14/03/2026", "4821 LKM", "Gasóleo", "312,45", "ES", "", "60215043"]
    values = dict(zip(HEADER, good, strict=True))
    values.update(cells)
    return [values[name] for name in HEADER]


def test_fuel_words_resolve_to_the_catalogue(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(Combustible="Electricidad", Cantidad="85,5", País="pt", **{"Nº operación": "2"}),
        row(Combustible="GNC", Cantidad="40", **{"Nº operación": "3"}),
    )
    assert rejects.empty, rejects.to_dict("records")
    catalogue = [{"id": f"id-{name}", "name": name} for name in ("diesel", "electricity", "cng")]
    refs = References([ReferenceTable(FUELS, catalogue), ReferenceTable(TOCS, [])])
    records, unknown = resource_spec("logistics_recharges").to_records(valid, refs)
    assert unknown.empty
    assert records["fuel_id"].tolist() == ["id-diesel", "id-electricity", "id-cng"]
    assert records["country"].tolist() == ["ES", "PT", "ES"]


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"País": "España"}, "País", "INVALID_COUNTRY"),
        ({"País": "ESP"}, "País", "INVALID_COUNTRY"),
        ({"Cantidad": "0"}, "Cantidad", "NOT_POSITIVE"),
        ({"Cantidad": "2500000"}, "Cantidad", "OUT_OF_RANGE"),
        ({"Fecha": "15/13/2026"}, "Fecha", "INVALID_DATE"),
        ({"Combustible": ""}, "Combustible", "REQUIRED"),
    ],
)
def test_a_broken_rule_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, str], column: str, code: str
) -> None:
    valid, rejects = validate(tmp_path, row(**cells))
    assert valid.empty
    assert (rejects["column"].tolist(), rejects["code"].tolist()) == ([column], [code])


def test_the_same_country_date_quantity_and_plate_twice_is_one_recharge(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(Combustible="diesel", **{"Nº operación": "2"}),  # same four: the same recharge
        row(Cantidad="312,451", **{"Nº operación": "3"}),  # another quantity: another one
        row(Matrícula="", **{"Nº operación": "4"}),  # no plate: another one
    )
    assert valid["source_key"].tolist() == [
        "es|2026-03-14|312.45|4821 lkm", "es|2026-03-14|312.451|4821 lkm", "es|2026-03-14|312.45|",
    ]  # fmt: skip
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (3, "País", "DUPLICATE_ROW_ID")
    assert reject["message"] == (
        "País, Fecha, Cantidad and Matrícula are those of row 2: the same record; "
        "give each row its own."
    )
