"""HTTP client of the Emissions Accounting Service: auth schemes, retries, limits, typed errors.

Floor: with ``warehouse``, below settings. May import domain, sources and errors; never the
warehouse beside it, nor anything above.
"""

from __future__ import annotations

from emissions_etl.client._client import EmissionsClient
from emissions_etl.client._prefect_budget import DEFAULT_OCCUPY, PrefectTokenSource
from emissions_etl.client._prefect_limits import PrefectLimit, limit_name, prefect_limits
from emissions_etl.client._shared_budget import DEFAULT_LIMITS_FILE, LocalTokenSource
from emissions_etl.client._token_source import Bucket, Lease, TokenSource
from emissions_etl.client.auth import ApiKeyAuth, JwtAuth, LegacyAuth
from emissions_etl.client.limiter import DEFAULT_POLICIES, LimitPolicy, RateLimitTransport
from emissions_etl.client.pagination import iter_pages
from emissions_etl.client.problem import error_from_response
from emissions_etl.client.retry import RetryTransport, parse_retry_after

__all__ = [
    "ApiKeyAuth",
    "Bucket",
    "DEFAULT_LIMITS_FILE",
    "DEFAULT_OCCUPY",
    "DEFAULT_POLICIES",
    "EmissionsClient",
    "JwtAuth",
    "Lease",
    "LegacyAuth",
    "LimitPolicy",
    "LocalTokenSource",
    "PrefectLimit",
    "PrefectTokenSource",
    "RateLimitTransport",
    "RetryTransport",
    "TokenSource",
    "error_from_response",
    "iter_pages",
    "limit_name",
    "parse_retry_after",
    "prefect_limits",
]
