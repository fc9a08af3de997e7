"""The shipment legs sample: its deliberate mistakes are exactly those documented in
sample_data/inbox/logistics_requests/README.md, and a load after the facilities and hubs samples
gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_parent_samples, load_sample, validated

FILE = "envios_2026_t1.xlsx"


def test_the_workbook_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("logistics_requests", FILE) == (
        130,
        [
            (13, "Peso", "NOT_POSITIVE"),
            (25, "Fecha envío", "INVALID_DATE"),
            (37, "Modo", "INVALID_CHOICE"),
            (49, "Km", "ROUTE_REQUIRED"),
            (61, "Tipo vehículo", "REQUIRED"),
            (73, "Expedición", "DUPLICATE_ROW_ID"),
        ],
    )


def test_the_workbook_loads_120_legs_and_rejects_10(tenant: Tenant) -> None:
    load_parent_samples(tenant, "facilities", "logistic_hubs")

    summary = load_sample(tenant, "logistics_requests", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (130, 120, 10)
    later = summary.rejects[~summary.rejects["row"].isin([13, 25, 37, 49, 61, 73])]
    assert sorted(zip(later["row"], later["column"], later["code"], strict=True)) == [
        (85, "Tipo vehículo", "UNKNOWN_REFERENCE"),
        (97, "Hub", "PARENT_NOT_LOADED"),
        (109, "Destino", "REJECTED_BY_SERVICE"),
        (121, "Origen", "REJECTED_BY_SERVICE"),
    ]
    assert later["message"].str.contains("LOCATION_NOT_FOUND").sum() == 2
    with tenant.client() as client:
        legs = list(client.iter_items("/v1/logistics/requests"))
    assert len(legs) == 120
    assert sum(1 for leg in legs if leg["hub_id"]) > 0
