"""The HR export sample: its deliberate mistakes are exactly those its README lists, and a load
gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_sample, validated

FILE = "plantilla_2026.xlsx"


def test_the_export_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("employees", FILE) == (
        56,
        [
            (9, "Correo electrónico", "INVALID_EMAIL"),
            (17, "Situación", "INVALID_CHOICE"),
            (25, "Correo electrónico", "REQUIRED"),
            (33, "Situación", "REQUIRED"),
            (41, "employee", "DUPLICATE_ROW_ID"),
        ],
    )


def test_the_export_loads_51_employees_and_rejects_5(tenant: Tenant) -> None:
    summary = load_sample(tenant, "employees", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (56, 51, 5)
    with tenant.client() as client:
        employees = list(client.iter_items("/v1/employees"))
    assert len(employees) == 51
    assert sum(1 for employee in employees if employee["email"] is None) == 10
