"""The served OpenAPI document describes v2 well enough to generate a client."""

from __future__ import annotations

import pytest

from tests.sandbox_fixture import SandboxServer

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def document(sandbox: SandboxServer) -> dict:
    with sandbox.client() as client:
        response = client.get("/openapi.json")
    assert response.status_code == 200
    return dict(response.json())


def test_every_v2_operation_has_an_operation_id(document: dict) -> None:
    operations = [
        op for path, item in document["paths"].items() if path.startswith("/v2/")
        for op in item.values()
    ]  # fmt: skip
    assert operations
    assert all(op.get("operationId") for op in operations)


def test_create_wastes_declares_202_200_and_a_problem_422(document: dict) -> None:
    responses = document["paths"]["/v2/wastes"]["post"]["responses"]
    assert {"200", "202", "422"} <= set(responses)
    assert responses["422"]["content"]["application/problem+json"]["schema"] == {
        "$ref": "#/components/schemas/Problem"
    }
    assert "IngestJob" in str(responses["202"])


def test_create_wastes_documents_its_body_and_idempotency_header(document: dict) -> None:
    operation = document["paths"]["/v2/wastes"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["$ref"] == "#/components/schemas/WasteBulkCreate"
    schemas = document["components"]["schemas"]
    assert schemas["WasteBulkCreate"]["properties"]["records"]["items"] == {
        "$ref": "#/components/schemas/WasteRecord"
    }
    assert "base_quantity" in schemas["WasteRecord"]["properties"]
    assert "Idempotency-Key" in {p["name"] for p in operation["parameters"]}


def test_the_test_routes_are_not_documented(document: dict) -> None:
    assert not [path for path in document["paths"] if path.startswith("/_test")]
