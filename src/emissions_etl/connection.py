"""Build the service client from settings: the one place where the API key leaves its SecretStr,
and where every resource's declared limits reach the client."""

from __future__ import annotations

from emissions_etl.client import (
    ApiKeyAuth,
    EmissionsClient,
    LimitPolicy,
    LocalTokenSource,
    PrefectTokenSource,
    TokenSource,
)
from emissions_etl.resources import RESOURCES
from emissions_etl.settings import Settings


def resource_limits() -> dict[tuple[str, str], LimitPolicy]:
    """The rate and concurrency limits every resource declares, by (method, path template)."""
    return {key: policy for spec in RESOURCES.values() for key, policy in spec.limits.items()}


def open_client(settings: Settings) -> EmissionsClient:
    """An ``EmissionsClient`` for the configured service (ConfigurationError if incomplete)."""
    url, key, organization_id = settings.require_api()
    auth = ApiKeyAuth(key.get_secret_value(), organization_id)
    return EmissionsClient(
        url,
        auth,
        ca_file=settings.ca_file,
        policies=resource_limits(),
        token_source=limits_source(settings),
        owns_token_source=True,
    )


def limits_source(settings: Settings) -> TokenSource:
    """Where the client takes its rate tokens and concurrency slots: the machine's limits file,
    behind the Prefect server's limits when workers on several machines share the key."""
    machine = LocalTokenSource(settings.limits_file)
    if settings.shared_limits == "prefect":
        return PrefectTokenSource(machine)
    return machine
