"""The request body limit (README "Request body limit"): 413 `REQUEST_TOO_LARGE` in the path's
error shape, decided from Content-Length before any body byte is read, or by counting a chunked
body as it streams in; the largest legitimate bodies fit under the default.

Most cases run on a sandbox served with `--max-body-bytes 65536` (`strict_sandbox_server`), so
bodies stay small; the default limit is checked on the session sandbox.
"""

from __future__ import annotations

import json
import socket
import ssl
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from emissions_sandbox.settings import DEFAULT_MAX_BODY_BYTES
from tests.sandbox_fixture import SandboxServer, tls_context

from .conftest import STRICT_BODY_LIMIT
from .logistics_support import fresh_client, leg
from .waste_requests import new_facility, record, waste_ef_id

pytestmark = pytest.mark.timeout(120)

SMALL_LIMIT = STRICT_BODY_LIMIT
CHUNK = 4096


@pytest.fixture(scope="module")
def small(strict_sandbox_server: SandboxServer) -> Iterator[httpx.Client]:
    """A client of the sandbox served with `--max-body-bytes 65536`."""
    with strict_sandbox_server.client() as client:
        yield client


def _padded_wastes_body(client: httpx.Client, size: int) -> bytes:
    """A valid POST /v2/wastes body of exactly `size` bytes (JSON whitespace as padding)."""
    facility = new_facility(client)
    body = json.dumps({"records": [record(facility, waste_ef_id(client, "200101", "R3"))]})
    encoded = body.encode()
    assert len(encoded) <= size
    return encoded[:-1] + b" " * (size - len(encoded)) + b"}"


def _chunks(total: int) -> Iterator[bytes]:
    """`total` bytes of a JSON array, streamed (httpx sends a generator body chunked)."""
    yield b"["
    sent = 1
    while sent < total - 1:
        piece = min(CHUNK, total - 1 - sent)
        yield b" " * piece
        sent += piece
    yield b"]"


def _v1_too_large(response: httpx.Response) -> None:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["code"] == "REQUEST_TOO_LARGE"
    assert set(body) == {"detail", "code"}
    assert str(SMALL_LIMIT) in body["detail"]


def _v2_too_large(response: httpx.Response, path: str) -> None:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "REQUEST_TOO_LARGE"
    assert problem["type"] == "https://emissions.example/problems/request-too-large"
    assert problem["status"] == 413
    assert problem["instance"] == path
    assert problem["errors"] == []


def test_a_body_exactly_at_the_limit_is_accepted(small: httpx.Client) -> None:
    body = _padded_wastes_body(small, SMALL_LIMIT)

    response = small.post(
        "/v2/wastes",
        content=body,
        headers={"content-type": "application/json", "Idempotency-Key": str(uuid.uuid4())},
    )

    assert len(body) == SMALL_LIMIT
    assert response.status_code == 202, response.text


def test_one_byte_over_the_limit_is_413_problem_details(small: httpx.Client) -> None:
    body = _padded_wastes_body(small, SMALL_LIMIT + 1)

    response = small.post(
        "/v2/wastes",
        content=body,
        headers={"content-type": "application/json", "Idempotency-Key": str(uuid.uuid4())},
    )

    _v2_too_large(response, "/v2/wastes")


def test_a_declared_oversized_length_is_413_v1_shape(small: httpx.Client) -> None:
    response = small.post(
        "/v1/facilities",
        content=b"{" + b" " * SMALL_LIMIT + b"}",
        headers={"content-type": "application/json"},
    )

    assert "transfer-encoding" not in response.request.headers
    assert int(response.request.headers["content-length"]) > SMALL_LIMIT
    _v1_too_large(response)


@pytest.mark.parametrize("path", ["/v2/wastes", "/v2/webhook-endpoints"])
def test_a_chunked_oversized_body_is_413_problem_details(small: httpx.Client, path: str) -> None:
    response = small.post(
        path,
        content=_chunks(SMALL_LIMIT * 4),
        headers={"content-type": "application/json", "Idempotency-Key": str(uuid.uuid4())},
    )

    assert response.request.headers["transfer-encoding"] == "chunked"
    _v2_too_large(response, path)


@pytest.mark.parametrize("path", ["/v1/facilities", "/v1/logistics/requests/bulk"])
def test_a_chunked_oversized_body_is_413_v1_shape(small: httpx.Client, path: str) -> None:
    response = small.post(
        path, content=_chunks(SMALL_LIMIT * 4), headers={"content-type": "application/json"}
    )

    assert response.request.headers["transfer-encoding"] == "chunked"
    _v1_too_large(response)


def test_a_chunked_body_under_the_limit_is_read(small: httpx.Client) -> None:
    facility = json.dumps({"name": "Chunked plant", "type": "factory", "country": "ES"}).encode()

    response = small.post(
        "/v1/facilities",
        content=iter([facility[:10], facility[10:], b" " * (SMALL_LIMIT - len(facility))]),
        headers={"content-type": "application/json"},
    )

    assert response.request.headers["transfer-encoding"] == "chunked"
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "Chunked plant"


def test_the_connection_still_serves_after_a_413(small: httpx.Client) -> None:
    refused = small.post(
        "/v1/facilities",
        content=_chunks(SMALL_LIMIT * 2),
        headers={"content-type": "application/json"},
    )
    after = small.get("/v1/units")

    assert refused.status_code == 413
    assert after.status_code == 200


def test_the_default_limit_answers_from_the_declared_length_alone(
    sandbox: SandboxServer,
) -> None:
    """Headers only, no body byte sent: the 413 comes back anyway, so nothing was buffered."""
    url = urlsplit(sandbox.base_url)
    head = (
        f"POST /v2/wastes HTTP/1.1\r\nHost: {url.netloc}\r\n"
        f"x-api-key: {sandbox.org.api_key}\r\nx-organization-id: {sandbox.org.organization_id}\r\n"
        f"Idempotency-Key: {uuid.uuid4()}\r\ncontent-type: application/json\r\n"
        f"Content-Length: {DEFAULT_MAX_BODY_BYTES + 1}\r\n\r\n"
    )
    with socket.create_connection((url.hostname, url.port), timeout=10) as raw:
        tls = tls_context(sandbox.ca_file).wrap_socket(raw, server_hostname=url.hostname)
        tls.sendall(head.encode())
        answer = _read_response(tls)

    status_line, _, rest = answer.partition("\r\n")
    assert status_line == "HTTP/1.1 413 Request Entity Too Large"
    assert "content-type: application/problem+json" in rest.lower()
    assert '"code":"REQUEST_TOO_LARGE"' in rest
    assert str(DEFAULT_MAX_BODY_BYTES) in rest


def _read_response(tls: ssl.SSLSocket) -> str:
    """One HTTP/1.1 response with a Content-Length, read off the socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += tls.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += tls.recv(65536)
    return (head + b"\r\n\r\n" + body).decode()


def _long_waste(facility: str, ef: str, index: int) -> dict[str, Any]:
    return record(
        facility,
        ef,
        identification_name=f"{index:06d}".ljust(255, "n"),
        description="d" * 500,
        destination="p" * 255,
        client_row_id=f"{index:06d}".ljust(255, "c"),
        total_km_to_waste_center=123.45,
        unit_id="61743a63-ff70-459c-9567-5eee8f7dfd5c",
    )


def test_the_largest_waste_request_fits_under_the_default(
    sandbox: SandboxServer, client: httpx.Client, facility: str, paper_r3: str
) -> None:
    """5,000 records with every bounded text at its maximum and a 500-character description,
    as a dry run (validated whole, nothing written)."""
    body = json.dumps({"records": [_long_waste(facility, paper_r3, i) for i in range(5000)]})

    response = client.post(
        "/v2/wastes",
        content=body.encode(),
        params={"dry_run": "true"},
        headers={"content-type": "application/json", "Idempotency-Key": str(uuid.uuid4())},
    )

    assert len(body) > 7 * 1024 * 1024
    assert response.status_code == 200, response.text[:500]
    assert response.json() == {"dry_run": True, "valid": True, "records": 5000}


def test_the_largest_logistics_bulk_fits_under_the_default(sandbox: SandboxServer) -> None:
    """5,000 legs with every free-text field at 255 characters (toc and places aside)."""
    texts = ("client", "movement_stage", "vehicle_license_plate", "trailer_license_plate")
    records = [
        leg(
            movement_id=f"{i:06d}".ljust(255, "m"),
            movement_stretch="s" * 255,
            package_key=f"{i:06d}".ljust(255, "k"),
            **{name: name[0] * 255 for name in texts},
        )
        for i in range(5000)
    ]
    body = json.dumps({"records": records}).encode()

    with fresh_client(sandbox, "Largest bulk") as client:
        client.timeout = httpx.Timeout(120)
        response = client.post(
            "/v1/logistics/requests/bulk",
            content=body,
            headers={"content-type": "application/json"},
        )

    assert len(body) > 9 * 1024 * 1024
    assert response.status_code == 200, response.text[:500]
    assert response.json()["success"] == 5000
