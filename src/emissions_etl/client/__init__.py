"""HTTP client of the Emissions Accounting Service: auth schemes, retries, limits, typed errors."""

from __future__ import annotations

from emissions_etl.client._client import EmissionsClient
from emissions_etl.client.auth import ApiKeyAuth, JwtAuth, LegacyAuth
from emissions_etl.client.limiter import DEFAULT_POLICIES, LimitPolicy, RateLimitTransport
from emissions_etl.client.pagination import iter_pages
from emissions_etl.client.problem import error_from_response
from emissions_etl.client.retry import RetryTransport, parse_retry_after

__all__ = [
    "ApiKeyAuth",
    "DEFAULT_POLICIES",
    "EmissionsClient",
    "JwtAuth",
    "LegacyAuth",
    "LimitPolicy",
    "RateLimitTransport",
    "RetryTransport",
    "error_from_response",
    "iter_pages",
    "parse_retry_after",
]
