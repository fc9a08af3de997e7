"""EmissionsClient: the pipeline's one door to the Emissions Accounting Service.

An ``httpx.Client`` over RetryTransport(RateLimitTransport(HTTPTransport)) with typed errors for
every status >= 400, and one method per operation the pipeline uses.
"""

from __future__ import annotations

import datetime as dt
import enum
import ipaddress
import ssl
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

import httpx
import orjson

from emissions_etl import __version__
from emissions_etl.client._query import chunk_values, timestamp
from emissions_etl.client._token_source import TokenSource
from emissions_etl.client.json_types import QueryParams, QueryValue, json_object, json_objects
from emissions_etl.client.limiter import LimitPolicy, RateLimitTransport
from emissions_etl.client.pagination import is_last_page, iter_pages, page_count
from emissions_etl.client.problem import error_from_response
from emissions_etl.client.retry import RetryTransport
from emissions_etl.errors import ConfigurationError, IngestJobError, TransportError
from emissions_etl.json_values import JsonObject, JsonValue


class _ClientAuth(enum.Enum):
    """``request``'s default auth: the client's own, sent as httpx's ``USE_CLIENT_DEFAULT``
    (whose type httpx names only privately, ``httpx._client.UseClientDefault``)."""

    OWN = "own"


#: Pages of one list read at once once the first page says how many there are.
PAGE_READERS = 4


class EmissionsClient:
    """A thread-safe client of the service; use it as a context manager or call ``close()``."""

    def __init__(
        self,
        base_url: str,
        auth: httpx.Auth,
        *,
        ca_file: str | Path | None = None,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        max_attempts: int = 6,
        user_agent: str = f"emissions-etl/{__version__}",
        policies: Mapping[tuple[str, str], LimitPolicy] | None = None,
        shared_limits_file: Path | None = None,
        token_source: TokenSource | None = None,
        owns_token_source: bool = False,
        max_connections: int = 32,
    ) -> None:
        """``shared_limits_file`` shares the limits with every process of this machine;
        ``token_source`` replaces that pool (``PrefectTokenSource`` for workers on several
        machines), closed with the client when ``owns_token_source`` (else it may be shared
        by several clients)."""
        _require_secure(base_url)
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_connections
        )
        inner = transport or httpx.HTTPTransport(verify=_tls_context(ca_file), limits=limits)
        self._http = httpx.Client(
            base_url=base_url,
            auth=auth,
            transport=RetryTransport(
                RateLimitTransport(
                    inner,
                    policies=policies,
                    shared_budget_path=shared_limits_file,
                    token_source=token_source,
                    owns_token_source=owns_token_source,
                ),
                max_attempts=max_attempts,
            ),
            timeout=timeout,
            headers={"User-Agent": user_agent},
            follow_redirects=False,
        )

    # -- plumbing ---------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: Mapping[str, str] | None = None,
        auth: httpx.Auth | None | _ClientAuth = _ClientAuth.OWN,
    ) -> httpx.Response:
        """Send one request; raises TransportError or the ApiStatusError subclass for >= 400.

        A ``json`` body is encoded with orjson."""
        content = None
        if json is not None:
            content = orjson.dumps(json, option=orjson.OPT_SERIALIZE_NUMPY)
            headers = {**(headers or {}), "Content-Type": "application/json"}
        try:
            response = self._http.request(
                method,
                path,
                params=params,
                content=content,
                headers=headers,
                auth=httpx.USE_CLIENT_DEFAULT if auth is _ClientAuth.OWN else auth,
            )
        except httpx.TransportError as exc:
            raise TransportError(
                f"{method} {path}: {type(exc).__name__}: {exc}", method=method, url=path
            ) from exc
        if response.status_code >= 400:
            raise error_from_response(response)
        return response

    def get_json(self, path: str, params: QueryParams | None = None) -> JsonObject:
        """GET ``path`` and return the decoded JSON object."""
        return json_object(decoded(self.request("GET", path, params=params)), f"GET {path}")

    def send_json(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        params: QueryParams | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> JsonValue:
        """Send ``body`` as JSON and return the decoded answer (None for an empty 204)."""
        response = self.request(method, path, params=params, json=body, headers=headers)
        if response.status_code == 204 or not response.content:
            return None
        return decoded(response)

    def iter_items(
        self,
        path: str,
        params: QueryParams | None = None,
        *,
        total: Callable[[int], None] | None = None,
    ) -> Iterator[JsonObject]:
        """Every item of a list endpoint, whatever its shape: a Page or Package page (followed
        page by page), a bare array, or an object holding one array (``{fuels: [...]}``);
        ``total`` is told how many the first page says there are (a page's ``total``)."""
        query = {key: value for key, value in (params or {}).items() if value is not None}
        what = f"GET {path}"
        answer = decoded(self.request("GET", path, params={**query, "page": 1, "size": 100}))
        if isinstance(answer, list):
            yield from json_objects(answer, what)
            return
        first = json_object(answer, what)
        count = first.get("total")
        if total is not None and isinstance(count, int):
            total(count)
        if "items" not in first:
            yield from json_objects(next((v for v in first.values() if isinstance(v, list)), []),
                                    what)  # fmt: skip
            return
        items = json_objects(first["items"], what)
        yield from items
        pages = page_count(first, "pages")
        if not items or is_last_page(first, 1):
            return
        if pages is None:  # a Package page: its end shows as it is read
            yield from iter_pages(self, path, query, start_page=2)
            return

        # Page 1 says how many there are: the rest are read a few at a time, in page order.
        def page(number: int) -> list[JsonObject]:
            answer = self.get_json(path, params={**query, "page": number, "size": 100})
            return json_objects(answer.get("items") or [], what)

        with ThreadPoolExecutor(PAGE_READERS, thread_name_prefix="pages") as pool:
            for page_items in pool.map(page, range(2, pages + 1)):
                yield from page_items

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> EmissionsClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EmissionsClient(base_url={str(self._http.base_url)!r})"

    # -- login and reference data ----------------------------------------------------------------

    def login(self, email: str, password: str) -> JsonObject:
        """``POST /auth/login``: ``{access_token, token_type, expires_in}``."""
        body = {"email": email, "password": password}
        answer = self.request("POST", "/auth/login", json=body, auth=None)
        return json_object(decoded(answer), "POST /auth/login")

    def list_units(self) -> list[JsonObject]:
        """``GET /v1/units``: a bare array of ``{id, name, type}``."""
        return json_objects(decoded(self.request("GET", "/v1/units")), "GET /v1/units")

    def iter_waste_efs(
        self, *, low_code: str | None = None, rd_code: str | None = None, region: str | None = None
    ) -> Iterator[JsonObject]:
        """Every waste emission factor matching the filters."""
        filters = {"low_code": low_code, "rd_code": rd_code, "region": region}
        return iter_pages(self, "/v1/waste-efs", filters)

    # -- facilities -----------------------------------------------------------------------------

    def iter_facilities(self, **filters: QueryValue) -> Iterator[JsonObject]:
        """Every facility matching the filters (``name``, ``country``, ``type``, ``status``)."""
        return iter_pages(self, "/v1/facilities", filters)

    def create_facility(self, **fields: object) -> JsonObject:
        answer = self.request("POST", "/v1/facilities", json=fields)
        return json_object(decoded(answer), "POST /v1/facilities")

    def get_facility(self, facility_id: str) -> JsonObject:
        return self.get_json(f"/v1/facilities/{facility_id}")

    # -- v2 wastes and ingest jobs --------------------------------------------------------------

    def create_wastes(
        self,
        records: Sequence[Mapping[str, object]],
        *,
        idempotency_key: str,
        dry_run: bool = False,
    ) -> JsonObject:
        """``POST /v2/wastes``: the ingest job (202, or 200 on a replay) or the dry-run result."""
        response = self.request(
            "POST",
            "/v2/wastes",
            params={"dry_run": "true"} if dry_run else None,
            json={"records": [dict(record) for record in records]},
            headers={"Idempotency-Key": idempotency_key},
        )
        return json_object(decoded(response), "POST /v2/wastes")

    def delete_wastes(self, waste_ids: Sequence[str], *, idempotency_key: str) -> JsonObject:
        """``POST /v2/wastes/delete``: the ingest job of the deletion."""
        response = self.request(
            "POST",
            "/v2/wastes/delete",
            json={"waste_ids": list(waste_ids)},
            headers={"Idempotency-Key": idempotency_key},
        )
        return json_object(decoded(response), "POST /v2/wastes/delete")

    def get_ingest_job(self, job_id: str) -> JsonObject:
        return self.get_json(f"/v2/ingest-jobs/{job_id}")

    def iter_ingest_jobs(self, **filters: QueryValue) -> Iterator[JsonObject]:
        """The caller's ingest jobs (``status``, ``operation``, ``created_after``, ...)."""
        return iter_pages(self, "/v2/ingest-jobs", filters)

    def iter_ingest_job_items(
        self, job_id: str, *, status: str | None = None
    ) -> Iterator[JsonObject]:
        return iter_pages(self, f"/v2/ingest-jobs/{job_id}/items", {"status": status})

    def wait_for_ingest_job(
        self,
        job_id: str,
        *,
        timeout: float = 900,
        poll_initial: float = 0.2,
        poll_max: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> JsonObject:
        """Poll until the job leaves ``processing``; IngestJobError if it failed or timed out.

        Pauses grow to ``poll_max``, 1 s: a job queued behind others is seen finished within a
        second (one GET a second per followed job), where longer pauses idled the tail of
        every load."""
        started = time.monotonic()
        waited = 0.0
        delay = poll_initial
        while True:
            job = self.get_ingest_job(job_id)
            status = job.get("status")
            if status == "failed":
                raise IngestJobError(job_id, "the job failed", job=job)
            if status != "processing":
                return job
            # Slept time counts too, so an injected ``sleep`` still reaches the timeout.
            elapsed = max(time.monotonic() - started, waited)
            if elapsed >= timeout:
                raise IngestJobError(job_id, f"still processing after {timeout:g}s", job=job)
            pause = min(delay, poll_max, timeout - elapsed)
            sleep(pause)
            waited += pause
            delay = min(delay * 2, poll_max)

    # -- v2 webhook endpoints (organization admin key) ------------------------------------------

    def iter_webhook_endpoints(self) -> Iterator[JsonObject]:
        """The organization's webhook endpoints; list items never carry the ``secret``."""
        return iter_pages(self, "/v2/webhook-endpoints")

    def create_webhook_endpoint(
        self,
        url: str,
        event_types: Sequence[str],
        description: str | None = None,
        enabled: bool = True,
    ) -> JsonObject:
        """``POST /v2/webhook-endpoints`` (201): the endpoint with its ``secret`` (shown once)."""
        body = {
            "url": url,
            "event_types": list(event_types),
            "description": description,
            "enabled": enabled,
        }
        answer = self.request("POST", "/v2/webhook-endpoints", json=body)
        return json_object(decoded(answer), "POST /v2/webhook-endpoints")

    def update_webhook_endpoint(self, endpoint_id: str, **fields: object) -> JsonObject:
        """``PATCH /v2/webhook-endpoints/{id}`` with the given fields only (``enabled``, ...)."""
        path = f"/v2/webhook-endpoints/{endpoint_id}"
        return json_object(decoded(self.request("PATCH", path, json=fields)), f"PATCH {path}")

    def delete_webhook_endpoint(self, endpoint_id: str) -> None:
        """``DELETE /v2/webhook-endpoints/{id}`` (204)."""
        self.request("DELETE", f"/v2/webhook-endpoints/{endpoint_id}")

    def iter_wastes(
        self,
        *,
        ids: Sequence[str] | None = None,
        facility_id: str | None = None,
        client_row_id: Sequence[str] | str | None = None,
        updated_since: str | dt.date | None = None,
        start_date: str | dt.date | None = None,
        end_date: str | dt.date | None = None,
    ) -> Iterator[JsonObject]:
        """Wastes matching every filter; long ``ids``/``client_row_id`` lists are split."""
        base = {
            "facility_id": facility_id,
            "updated_since": timestamp(updated_since),
            "start_date": timestamp(start_date),
            "end_date": timestamp(end_date),
        }
        row_ids = [client_row_id] if isinstance(client_row_id, str) else client_row_id
        for id_chunk in _chunks_or_all("ids", ids):
            for row_chunk in _chunks_or_all("client_row_id", row_ids):
                params = {**base, "ids": id_chunk, "client_row_id": row_chunk}
                yield from iter_pages(self, "/v2/wastes", params)


def _chunks_or_all(name: str, values: Sequence[str] | None) -> Iterator[list[str] | None]:
    """One ``None`` when there is no filter, else the filter split to fit a URL."""
    if values is None:
        yield None
        return
    if not values:
        return  # an empty id list matches nothing: no request at all
    yield from chunk_values(name, list(values))


def decoded(response: httpx.Response) -> JsonValue:
    """The response's JSON body, decoded with orjson (pages of 100 records in a fraction of the
    standard library's time)."""
    value: JsonValue = orjson.loads(response.content)
    return value


def _require_secure(base_url: str) -> None:
    """Plain http only to loopback: credentials must not cross a network in clear."""
    url = httpx.URL(base_url)
    if url.scheme == "https":
        return
    if url.scheme != "http":
        raise ConfigurationError(f"service URL must be https:// (got {url.scheme or 'none'}://)")
    if not _is_loopback(url.host):
        raise ConfigurationError(
            f"refusing plain http:// to {url.host}: use https:// (http is allowed on loopback only)"
        )


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _tls_context(ca_file: str | Path | None) -> ssl.SSLContext | bool:
    """An SSL context trusting ``ca_file``, or the default verification when none is given."""
    if ca_file is None:
        return True
    try:
        return ssl.create_default_context(cafile=str(ca_file))
    except (OSError, ssl.SSLError) as exc:
        raise ConfigurationError(f"CA file {ca_file} cannot be used: {exc}") from exc
