"""Build the service client from settings: the one place where the API key leaves its SecretStr."""

from __future__ import annotations

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.settings import Settings


def open_client(settings: Settings) -> EmissionsClient:
    """An ``EmissionsClient`` for the configured service (ConfigurationError if incomplete)."""
    url, key, organization_id = settings.require_api()
    auth = ApiKeyAuth(key.get_secret_value(), organization_id)
    return EmissionsClient(url, auth, ca_file=settings.ca_file)
