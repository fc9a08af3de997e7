"""The commuting survey sample: its deliberate mistakes are exactly those its README lists, and
a load after the HR export sample gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_parent_samples, load_sample, validated

FILE = "encuesta_movilidad_2026.xlsx"


def test_the_survey_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("commuting_periods", FILE) == (
        96,
        [
            (8, "Medio de transporte", "INVALID_CHOICE"),
            (20, "Hasta", "DATE_ORDER"),
            (32, "Km por trayecto", "OUT_OF_RANGE"),
            (44, "Tamaño", "NOT_APPLICABLE"),
            (59, "Km por trayecto", "REQUIRED"),
            (68, "Comparte coche", "INVALID_BOOLEAN"),
        ],
    )


def test_the_survey_loads_87_periods_and_rejects_9(tenant: Tenant) -> None:
    load_parent_samples(tenant, "employees")

    summary = load_sample(tenant, "commuting_periods", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (96, 87, 9)
    later = summary.rejects[summary.rejects["code"].isin(["PARENT_NOT_LOADED",
                                                          "REJECTED_BY_SERVICE"])]  # fmt: skip
    assert sorted(zip(later["row"], later["column"], later["code"], strict=True)) == [
        (16, "Empleado", "PARENT_NOT_LOADED"),
        (17, "Empleado", "PARENT_NOT_LOADED"),
        (97, "Trayectos al día", "REJECTED_BY_SERVICE"),
    ]
    with tenant.client() as client:
        periods = sum(len(e["periods"]) for e in client.iter_items("/v1/employees"))
    assert periods == 87
    co2e = tenant.warehouse.query(
        "SELECT sum(co2e_kg) AS kg FROM emissions WHERE resource = 'commuting_periods'"
    )["kg"][0]
    assert co2e > 0
