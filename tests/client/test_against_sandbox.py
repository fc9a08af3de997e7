"""The client against a real served sandbox over HTTPS on loopback, faults injected on the wire."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from emissions_etl.client import (
    ApiKeyAuth,
    EmissionsClient,
    JwtAuth,
    LegacyAuth,
    LimitPolicy,
    RateLimitTransport,
    iter_pages,
)
from emissions_etl.errors import (
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    TransportError,
    ValidationFailedError,
)
from tests.sandbox_fixture import SandboxServer, tls_context


def api_client(sandbox: SandboxServer, **options: Any) -> EmissionsClient:
    auth = ApiKeyAuth(sandbox.org.api_key, sandbox.org.organization_id)
    return EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file, **options)


@pytest.fixture
def client(sandbox: SandboxServer) -> Iterator[EmissionsClient]:
    with api_client(sandbox) as opened:
        yield opened


def waste_record(client: EmissionsClient, facility_id: str, row_id: str) -> dict[str, Any]:
    (factor,) = client.iter_waste_efs(low_code="200101", rd_code="R3", region="GLO")
    return {
        "facility_id": facility_id,
        "identification_name": "RSU-2024-001",
        "start_date": "2024-01-01",
        "end_date": "2024-01-31",
        "base_quantity": 1000,
        "waste_efs_id": factor["id"],
        "client_row_id": row_id,
    }


def new_facility(client: EmissionsClient, name: str = "Plant") -> str:
    return str(client.create_facility(name=name, type="factory", country="ES")["id"])


# -- TLS ---------------------------------------------------------------------------------------


def test_tls_with_the_ca_file_verifies_the_sandbox(client: EmissionsClient) -> None:
    assert any(unit["name"] for unit in client.list_units())


def test_tls_without_the_ca_file_is_refused(sandbox: SandboxServer) -> None:
    auth = ApiKeyAuth(sandbox.org.api_key, sandbox.org.organization_id)
    with EmissionsClient(sandbox.base_url, auth) as untrusting, pytest.raises(TransportError):
        untrusting.list_units()


# -- authentication ----------------------------------------------------------------------------


def auth_schemes(sandbox: SandboxServer) -> dict[str, httpx.Auth]:
    org = sandbox.org
    return {
        "api-key": ApiKeyAuth(org.api_key, org.organization_id),
        "legacy": LegacyAuth(org.api_key, org.organization_id, org.user_id),
        "jwt": JwtAuth(org.email, org.password, org.organization_id, org.user_id),
    }


@pytest.mark.parametrize("scheme", ["api-key", "legacy", "jwt"])
def test_each_auth_scheme_reaches_the_facility_endpoints(
    sandbox: SandboxServer, scheme: str
) -> None:
    auth = auth_schemes(sandbox)[scheme]
    name = f"auth-{scheme}-{uuid.uuid4().hex[:8]}"
    with EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client:
        created = client.create_facility(name=name, type="factory", country="ES")
        assert client.get_facility(created["id"])["name"] == name
        assert [f["id"] for f in client.iter_facilities(name=name)] == [created["id"]]


def test_login_returns_an_hour_long_token(client: EmissionsClient, sandbox: SandboxServer) -> None:
    token = client.login(sandbox.org.email, sandbox.org.password)
    assert token["expires_in"] == 3600
    assert token["access_token"]


# -- errors ------------------------------------------------------------------------------------


def test_unknown_api_key_is_authentication_error(sandbox: SandboxServer) -> None:
    auth = ApiKeyAuth("sk_unknown", sandbox.org.organization_id)
    with (
        EmissionsClient(sandbox.base_url, auth, ca_file=sandbox.ca_file) as client,
        pytest.raises(AuthenticationError) as caught,
    ):
        client.list_units()
    assert caught.value.code == "INVALID_API_KEY"


def test_another_organizations_facility_is_permission_denied(sandbox: SandboxServer) -> None:
    other = sandbox.other_org
    with EmissionsClient(
        sandbox.base_url, ApiKeyAuth(other.api_key, other.organization_id), ca_file=sandbox.ca_file
    ) as other_client:
        foreign = new_facility(other_client)
    with api_client(sandbox) as client, pytest.raises(PermissionDeniedError) as caught:
        client.get_facility(foreign)
    assert caught.value.status == 403


def test_unknown_facility_is_not_found(client: EmissionsClient) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.get_facility(str(uuid.uuid4()))
    assert caught.value.code == "NOT_FOUND"


def test_invalid_waste_records_are_validation_failed_with_each_record(
    client: EmissionsClient,
) -> None:
    facility = new_facility(client)
    good = waste_record(client, facility, "ok")
    bad = {**good, "base_quantity": -1, "client_row_id": "bad"}
    with pytest.raises(ValidationFailedError) as caught:
        client.create_wastes([good, bad], idempotency_key=str(uuid.uuid4()))
    assert caught.value.code
    assert [(e["index"], e["code"]) for e in caught.value.errors] == [(1, "MUST_BE_POSITIVE")]


def test_v1_validation_list_is_validation_failed(client: EmissionsClient) -> None:
    with pytest.raises(ValidationFailedError) as caught:
        client.create_facility(type="factory")
    assert caught.value.errors


# -- pagination and the waste round trip -------------------------------------------------------


def test_pagination_walks_every_facility_once(client: EmissionsClient) -> None:
    prefix = f"paged-{uuid.uuid4().hex[:8]}"
    created = {new_facility(client, f"{prefix}-{n}") for n in range(7)}
    seen = [f["id"] for f in iter_pages(client, "/v1/facilities", {"name": prefix}, size=3)]
    assert sorted(seen) == sorted(created)


def test_created_wastes_are_calculated_and_read_back(client: EmissionsClient) -> None:
    facility = new_facility(client)
    prefix = f"rt-{uuid.uuid4().hex[:8]}"
    rows = [f"{prefix}-{n}" for n in range(3)]
    records = [waste_record(client, facility, row) for row in rows]
    job = client.create_wastes(records, idempotency_key=str(uuid.uuid4()))
    finished = client.wait_for_ingest_job(job["id"], timeout=30)
    assert finished["status"] == "completed"
    wastes = list(client.iter_wastes(client_row_id=rows))
    assert sorted(w["client_row_id"] for w in wastes) == sorted(rows)
    assert all(w["status"] == "active" and w["co2e"] > 0 for w in wastes)
    assert [i["status"] for i in client.iter_ingest_job_items(job["id"])] == ["succeeded"] * 3


def test_dry_run_writes_nothing(client: EmissionsClient) -> None:
    facility = new_facility(client)
    row = f"dry-{uuid.uuid4().hex[:8]}"
    result = client.create_wastes(
        [waste_record(client, facility, row)], idempotency_key=str(uuid.uuid4()), dry_run=True
    )
    assert result == {"dry_run": True, "valid": True, "records": 1}
    assert list(client.iter_wastes(client_row_id=[row])) == []


def test_deleted_wastes_are_gone(client: EmissionsClient) -> None:
    facility = new_facility(client)
    row = f"del-{uuid.uuid4().hex[:8]}"
    job = client.create_wastes(
        [waste_record(client, facility, row)], idempotency_key=str(uuid.uuid4())
    )
    client.wait_for_ingest_job(job["id"], timeout=30)
    (waste,) = client.iter_wastes(client_row_id=[row])
    deletion = client.delete_wastes([waste["id"]], idempotency_key=str(uuid.uuid4()))
    assert client.wait_for_ingest_job(deletion["id"], timeout=30)["operation"] == "delete"
    assert list(client.iter_wastes(ids=[waste["id"]])) == []


# -- faults over the real connection -----------------------------------------------------------


class FaultyTransport(httpx.BaseTransport):
    """Delegates to a real HTTPS transport, but spoils the first matching exchange.

    ``before`` faults never reach the server; ``after`` faults let the server do the work and
    then lose or spoil its answer, which is what makes a retry risky.
    """

    def __init__(self, sandbox: SandboxServer, method: str, path: str, fault: str) -> None:
        self._real = httpx.HTTPTransport(verify=tls_context(sandbox.ca_file))
        self._target = (method, path)
        self._fault = fault
        self.delivered: list[str] = []  # method + path of every request the server received
        self.faults = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        hit = (request.method, request.url.path) == self._target and self.faults == 0
        if hit and self._fault == "429-before":
            self.faults += 1
            return httpx.Response(
                429, headers={"Retry-After": "1"}, json={"detail": "Rate limit exceeded"}
            )
        if hit and self._fault == "connect-error-before":
            self.faults += 1
            raise httpx.ConnectError("connection refused (injected)")
        response = self._real.handle_request(request)
        self.delivered.append(f"{request.method} {request.url.path}")
        if hit:
            self.faults += 1
            response.read()
            response.close()
            if self._fault == "500-after":
                return httpx.Response(500, text="Internal Server Error (injected)")
            raise httpx.ReadError("connection reset by peer (injected)")
        return response

    def close(self) -> None:
        self._real.close()


def faulty_client(sandbox: SandboxServer, fault: FaultyTransport) -> EmissionsClient:
    auth = ApiKeyAuth(sandbox.org.api_key, sandbox.org.organization_id)
    return EmissionsClient(sandbox.base_url, auth, transport=fault)


@pytest.mark.parametrize("fault", ["500-after", "reset-after"])
def test_lost_answer_to_create_wastes_is_retried_without_duplicates(
    sandbox: SandboxServer, client: EmissionsClient, fault: str
) -> None:
    facility = new_facility(client)
    prefix = f"{fault}-{uuid.uuid4().hex[:8]}"
    rows = [f"{prefix}-{n}" for n in range(2)]
    records = [waste_record(client, facility, row) for row in rows]
    faults = FaultyTransport(sandbox, "POST", "/v2/wastes", fault)
    with faulty_client(sandbox, faults) as faulty:
        job = faulty.create_wastes(records, idempotency_key=str(uuid.uuid4()))
        faulty.wait_for_ingest_job(job["id"], timeout=30)
    assert faults.delivered.count("POST /v2/wastes") == 2  # the server saw the retry
    assert sorted(w["client_row_id"] for w in client.iter_wastes(client_row_id=rows)) == rows
    assert len([j for j in client.iter_ingest_jobs() if j["id"] == job["id"]]) == 1


def test_injected_429_is_waited_out(sandbox: SandboxServer) -> None:
    faults = FaultyTransport(sandbox, "GET", "/v1/units", "429-before")
    with faulty_client(sandbox, faults) as faulty:
        assert faulty.list_units()
    assert faults.faults == 1
    assert faults.delivered == ["GET /v1/units"]


def test_connect_error_on_a_bare_post_is_retried_once_delivered(sandbox: SandboxServer) -> None:
    name = f"connect-{uuid.uuid4().hex[:8]}"
    faults = FaultyTransport(sandbox, "POST", "/v1/facilities", "connect-error-before")
    with faulty_client(sandbox, faults) as faulty:
        faulty.create_facility(name=name, type="factory", country="ES")
        assert len(list(faulty.iter_facilities(name=name))) == 1
    assert faults.delivered.count("POST /v1/facilities") == 1


def test_reset_after_a_bare_post_is_not_retried(sandbox: SandboxServer) -> None:
    name = f"reset-{uuid.uuid4().hex[:8]}"
    faults = FaultyTransport(sandbox, "POST", "/v1/facilities", "reset-after")
    with faulty_client(sandbox, faults) as faulty:
        with pytest.raises(TransportError):
            faulty.create_facility(name=name, type="factory", country="ES")
        assert len(list(faulty.iter_facilities(name=name))) == 1  # created once, never twice
    assert faults.delivered.count("POST /v1/facilities") == 1


# -- limits against the sandbox's own limiter --------------------------------------------------


def limited_http(
    sandbox: SandboxServer, policies: dict[tuple[str, str], LimitPolicy]
) -> httpx.Client:
    transport = RateLimitTransport(
        httpx.HTTPTransport(verify=tls_context(sandbox.ca_file)), policies=policies
    )
    org = sandbox.org
    headers = {"x-api-key": org.api_key, "x-organization-id": org.organization_id}
    return httpx.Client(base_url=sandbox.base_url, transport=transport, headers=headers)


def test_paced_load_on_a_rate_limited_endpoint_earns_no_429(sandbox: SandboxServer) -> None:
    policies = {("POST", "/_test/rate-limited"): LimitPolicy(rate_per_second=30)}
    statuses: list[int] = []
    with limited_http(sandbox, policies) as http:

        def post(count: int) -> None:
            statuses.extend(http.post("/_test/rate-limited").status_code for _ in range(count))

        threads = [threading.Thread(target=post, args=(15,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses.count(200) == 60
    assert 429 not in statuses


def test_concurrent_load_on_a_capped_endpoint_earns_no_429(sandbox: SandboxServer) -> None:
    policies = {("POST", "/_test/concurrency-limited"): LimitPolicy(max_concurrency=10)}
    statuses: list[int] = []
    with limited_http(sandbox, policies) as http:

        def post() -> None:
            statuses.append(
                http.post("/_test/concurrency-limited", params={"hold": 0.2}).status_code
            )

        threads = [threading.Thread(target=post) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses == [200] * 20


# -- secrets -----------------------------------------------------------------------------------


def test_api_key_never_appears_in_logs_or_errors(
    sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = sandbox.org.api_key
    errors: list[Exception] = []
    with caplog.at_level(logging.DEBUG), api_client(sandbox) as client:
        client.list_units()
        new_facility(client)
        for call in (
            lambda: client.get_facility(str(uuid.uuid4())),
            lambda: client.create_facility(),
        ):
            try:
                call()
            except Exception as exc:  # noqa: BLE001 - every error is inspected below
                errors.append(exc)
    logged = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records)
    assert "GET /v1/units -> 200" in logged
    assert secret not in logged
    assert len(errors) == 2
    assert all(secret not in f"{e} {e!r} {vars(e)}" for e in errors)
