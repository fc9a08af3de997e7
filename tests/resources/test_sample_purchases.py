"""The purchases sample: its deliberate mistakes are exactly those documented in
sample_data/inbox/purchases/README.md, and a load gives the counts it states."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.loading.pipeline import validate_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load

LEDGER = Path(__file__).parents[2] / "sample_data" / "inbox" / "purchases" / "compras_2026_t1.xlsx"


def test_the_ledger_has_its_documented_mistakes_and_no_others() -> None:
    result = validate_file(LEDGER, spec=resource_spec("purchases"))
    assert result.rows_read == 90
    rejects = result.rejects
    assert sorted(zip(rejects["row"], rejects["column"], rejects["code"], strict=True)) == [
        (11, "País", "INVALID_COUNTRY"),
        (20, "Importe", "INVALID_NUMBER"),
        (29, "Moneda", "INVALID_UNIT"),
        (38, "Reciclado", "OUT_OF_RANGE"),
        (47, "Fecha factura", "REQUIRED"),
        (56, "Concepto", "REQUIRED"),
        (65, "Pedido", "DUPLICATE_ROW_ID"),
    ]


def test_the_ledger_loads_82_purchases_2_failed_and_rejects_8(tenant: Tenant) -> None:
    summary = load(tenant, "purchases", LEDGER)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (90, 82, 8)
    assert summary.rows_failed == 2
    by_service = summary.rejects[summary.rejects["code"] == "REJECTED_BY_SERVICE"]
    assert by_service[["row", "column"]].values.tolist() == [[83, "Factor propio"]]
    failed = tenant.warehouse.query(
        "SELECT source_row, error_code FROM purchases WHERE status = 'error' ORDER BY source_row"
    )
    assert failed.values.tolist() == [[74, "SECTOR_NOT_FOUND"], [89, "CUSTOM_EF_NOT_FOUND"]]
