"""The Prefect global concurrency limits through which machines share an API key's limits
(``PrefectTokenSource``): their names, and the ones ``emissions-etl prefect-setup`` creates."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from emissions_etl.client._token_source import Bucket
from emissions_etl.client.limiter import LimitPolicy


def limit_name(bucket: Bucket, prefix: str = "emissions-etl") -> str:
    """``emissions-etl-post-v1-logistics-requests`` for a rate, ``...-requests-bulk-in-flight``
    for a concurrency cap (Prefect names may not contain ``/``)."""
    route = re.sub(r"[^a-z0-9]+", "-", bucket.route.lower()).strip("-")
    suffix = "-in-flight" if bucket.kind == "slots" else ""
    return f"{prefix}-{bucket.method.lower()}-{route}{suffix}"


@dataclass(frozen=True)
class PrefectLimit:
    """A global concurrency limit PrefectTokenSource needs on the server."""

    name: str
    limit: int


def prefect_limits(policies: Mapping[tuple[str, str], LimitPolicy]) -> list[PrefectLimit]:
    """The limits to create on the Prefect server for ``policies`` (``prefect-setup`` does):
    one per rate and per concurrency cap, as large as it."""
    limits = []
    for (method, route), policy in sorted(policies.items()):
        if policy.rate_per_second:
            bucket = Bucket("rate", "", method.upper(), route)
            limits.append(PrefectLimit(limit_name(bucket), int(policy.rate_per_second)))
        if policy.max_concurrency:
            bucket = Bucket("slots", "", method.upper(), route)
            limits.append(PrefectLimit(limit_name(bucket), policy.max_concurrency))
    return limits
