"""A purchases ledger's tricky readings: currencies and units as people write them, two-letter
countries, the recycled share, text lengths and the plausibility bound, judged offline by the
generic validator against the purchase schema."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.resources import resource_spec

HEADER = ["Pedido", "Concepto", "Sector", "País", "Importe", "Moneda", "Fecha factura",
          "Tipo de compra", "Tipo de gasto", "Reciclado", "Proveedor", "Factor propio"]  # fmt: skip


def validate(tmp_path: Path, *rows: list[object]) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "compras.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(HEADER)
        writer.writerows(rows)
    [(_, valid, rejects)] = list(iter_validated(path, resource_spec("purchases"), LoadOptions()))
    return valid, rejects


def row(**cells: object) -> list[object]:
    cells_of_a_good_row = ["PO-1", "Papel A4", "322230", "ES", "1.250,50", "EUR", "15/01/2026",
                           "", "opex", "", "B12345678", ""]  # fmt: skip
    values = dict(zip(HEADER, cells_of_a_good_row, strict=True))
    values.update(cells)
    return [values[name] for name in HEADER]


@pytest.mark.parametrize(
    ("written", "unit"),
    [
        ("€", "EUR"),
        ("euros", "EUR"),
        ("eur", "EUR"),
        ("", "EUR"),
        ("Dólares", "USD"),
        ("US$", "USD"),
        ("Kilos", "kg"),
        ("toneladas", "t"),
    ],  # fmt: skip
)
def test_units_are_read_as_the_service_names_them(tmp_path: Path, written: str, unit: str) -> None:
    valid, rejects = validate(tmp_path, row(Moneda=written))
    assert rejects.empty, rejects.to_dict("records")
    assert valid["unit"].tolist() == [unit]


def test_defaults_and_spanish_words(tmp_path: Path) -> None:
    valid, rejects = validate(
        tmp_path,
        row(),
        row(
            Pedido="PO-2",
            **{
                "Tipo de compra": "Proveedor",
                "Tipo de gasto": "Inversión",
                "Factor propio": "3F2B9C1E-8D4A-4F7B-9A51-2C6E0D9B7A10",
                "País": " pt ",
                "Reciclado": "0,25",
            },
        ),  # fmt: skip
    )
    assert rejects.empty, rejects.to_dict("records")
    assert valid["quantity"].tolist() == [1250.5, 1250.5]
    assert valid["purchase_type"].tolist() == ["spend_based", "supplier_specific"]
    assert valid["expense_type"].tolist() == ["opex", "capex"]
    assert valid["country"].tolist() == ["ES", "PT"]
    assert valid["recycled"].iloc[1] == 0.25
    records, _ = resource_spec("purchases").to_records(valid, {})  # type: ignore[arg-type]
    assert records["custom_emission_factor_id"].iloc[1] == "3f2b9c1e-8d4a-4f7b-9a51-2c6e0d9b7a10"
    assert records["unit_id"].tolist() == ["EUR", "EUR"]


@pytest.mark.parametrize(
    ("cells", "column", "code"),
    [
        ({"País": "ESP"}, "País", "INVALID_COUNTRY"),
        ({"País": "España"}, "País", "INVALID_COUNTRY"),
        ({"Moneda": "GBP"}, "Moneda", "INVALID_UNIT"),
        ({"Reciclado": "30"}, "Reciclado", "OUT_OF_RANGE"),
        ({"Importe": "-10"}, "Importe", "OUT_OF_RANGE"),
        ({"Importe": "1e12"}, "Importe", "OUT_OF_RANGE"),
        ({"Concepto": "x" * 256}, "Concepto", "TOO_LONG"),
        ({"Factor propio": "factor-acero"}, "Factor propio", "INVALID_FORMAT"),
        ({"Tipo de gasto": "mixed"}, "Tipo de gasto", "INVALID_CHOICE"),
        ({"Sector": ""}, "Sector", "REQUIRED"),
        ({"Fecha factura": "2026-13-01"}, "Fecha factura", "INVALID_DATE"),
    ],
)
def test_a_broken_rule_is_a_reject_at_its_column(
    tmp_path: Path, cells: dict[str, str], column: str, code: str
) -> None:
    valid, rejects = validate(tmp_path, row(**cells))
    assert valid.empty
    assert (rejects["column"].tolist(), rejects["code"].tolist()) == ([column], [code])


def test_the_bound_is_in_the_message(tmp_path: Path) -> None:
    _, rejects = validate(tmp_path, row(Importe="1e12"))
    assert "1,000,000,000" in rejects["message"].iloc[0]
