"""Reference data: waste emission factors (facts §1.4) and units."""

from __future__ import annotations

import uuid

import pytest

from emissions_sandbox.reference_data import WASTE_EF_NAMESPACE
from tests.sandbox_fixture import SandboxServer

pytestmark = pytest.mark.timeout(60)

REQUIRED_PAIRS = [
    ("200101", "R3"), ("200101", "D1"), ("150101", "R3"), ("150102", "R3"), ("150102", "R1"),
    ("150102", "D1"), ("200102", "R5"), ("200108", "R3"), ("200108", "D1"), ("200301", "D1"),
    ("200301", "R1"), ("200301", "D10"), ("170201", "R3"), ("170201", "R1"), ("170405", "R4"),
    ("160214", "R4"), ("170904", "D1"), ("170904", "R5"),
]  # fmt: skip


@pytest.mark.parametrize(("low_code", "rd_code"), REQUIRED_PAIRS)
def test_required_pair_exists_with_a_stable_id(
    sandbox: SandboxServer, low_code: str, rd_code: str
) -> None:
    with sandbox.client() as client:
        page = client.get(
            "/v1/waste-efs", params={"low_code": low_code, "rd_code": rd_code, "region": "GLO"}
        ).json()
    assert page["total"] == 1
    expected = uuid.uuid5(WASTE_EF_NAMESPACE, f"{low_code}|{rd_code}|GLO")
    assert page["items"][0]["id"] == str(expected)


def test_at_least_twenty_ler_codes_are_covered(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        items = [
            item
            for page in (1, 2, 3)
            for item in client.get(
                "/v1/waste-efs", params={"region": "GLO", "size": 100, "page": page}
            ).json()["items"]
        ]
    assert len({item["low_code"] for item in items}) >= 20


def test_low_code_filter_accepts_the_spaced_form(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        page = client.get("/v1/waste-efs", params={"low_code": "20 01 01", "region": "ES"}).json()
    assert page["total"] >= 2
    assert {i["region"] for i in page["items"]} == {"ES"}


def test_units_list_kilograms_and_tonnes(sandbox: SandboxServer) -> None:
    with sandbox.client() as client:
        units = {u["name"]: u["id"] for u in client.get("/v1/units").json()}
    assert units["kilograms"] == "61743a63-ff70-459c-9567-5eee8f7dfd5c"
    assert units["tonnes"] == "c6d4a0f1-2b9e-4a57-9d1f-0b6f5a7e3c21"
