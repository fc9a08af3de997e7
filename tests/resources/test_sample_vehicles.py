"""The fleet sample: its deliberate mistakes are exactly those its README lists, and a load
gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_sample, validated

FILE = "flota_2026.xlsx"


def test_the_list_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("vehicles", FILE) == (
        36,
        [
            (10, "Año", "OUT_OF_RANGE"),
            (14, "Régimen", "INVALID_CHOICE"),
            (18, "Combustible", "REQUIRED"),
            (22, "País", "INVALID_COUNTRY"),
            (37, "Matrícula", "DUPLICATE_ROW_ID"),
        ],
    )


def test_the_list_loads_30_vehicles_and_rejects_6(tenant: Tenant) -> None:
    summary = load_sample(tenant, "vehicles", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (36, 30, 6)
    unknown = summary.rejects[summary.rejects["code"] == "UNKNOWN_REFERENCE"]
    assert list(zip(unknown["row"], unknown["column"], strict=True)) == [(6, "Combustible")]
    with tenant.client() as client:
        vehicles = list(client.iter_items("/v1/vehicles"))
    assert len(vehicles) == 30
    assert {vehicle["country"] for vehicle in vehicles} == {"ES", "PT"}
