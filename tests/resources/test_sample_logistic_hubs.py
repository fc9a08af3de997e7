"""The hubs sample: its deliberate mistakes are exactly those its README lists, and a load after
the facilities sample gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_parent_samples, load_sample, validated

FILE = "hubs_2026.xlsx"


def test_the_list_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("logistic_hubs", FILE) == (
        24,
        [
            (8, "Categoría", "INVALID_CHOICE"),
            (11, "Centro", "NOT_APPLICABLE"),
            (14, "Cargador rápido", "INVALID_BOOLEAN"),
            (17, "Centro", "REQUIRED"),
            (23, "Hub", "DUPLICATE_ROW_ID"),
        ],
    )


def test_the_list_loads_18_hubs_and_rejects_6(tenant: Tenant) -> None:
    load_parent_samples(tenant, "facilities")

    summary = load_sample(tenant, "logistic_hubs", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (24, 18, 6)
    unknown = summary.rejects[summary.rejects["code"] == "UNKNOWN_FACILITY"]
    assert list(zip(unknown["row"], unknown["column"], strict=True)) == [(4, "Centro")]
    with tenant.client() as client:
        hubs = list(client.iter_items("/v1/logistic-hubs"))
    assert len(hubs) == 18
    assert sum(1 for hub in hubs if hub["facility_id"]) == 3
