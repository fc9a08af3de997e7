"""The fleet recharges sample: its deliberate mistakes are exactly those documented in
sample_data/inbox/logistics_recharges/README.md, and a load gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_sample, validated

FILE = "recargas_flota_2026_t1.xlsx"


def test_the_list_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("logistics_recharges", FILE) == (
        110,
        [
            (12, "País", "INVALID_COUNTRY"),
            (23, "Cantidad", "NOT_POSITIVE"),
            (34, "Cantidad", "OUT_OF_RANGE"),
            (45, "Fecha", "INVALID_DATE"),
            (56, "Combustible", "REQUIRED"),
            (67, "País", "DUPLICATE_ROW_ID"),
        ],
    )


def test_the_list_loads_101_recharges_and_rejects_9(tenant: Tenant) -> None:
    summary = load_sample(tenant, "logistics_recharges", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (110, 101, 9)
    later = summary.rejects[summary.rejects["row"] > 67]
    assert sorted(zip(later["row"], later["column"], later["code"], strict=True)) == [
        (78, "Combustible", "UNKNOWN_REFERENCE"),
        (89, "Tipo vehículo", "UNKNOWN_REFERENCE"),
        (100, "Matrícula", "REJECTED_BY_SERVICE"),
    ]
    refused = later[later["code"] == "REJECTED_BY_SERVICE"]["message"].iloc[0]
    assert "VALIDATION_ERROR" in refused
    assert "at most 255 characters" in refused
    with tenant.client() as client:
        assert sum(1 for _ in client.iter_items("/v1/logistics/recharges")) == 101
