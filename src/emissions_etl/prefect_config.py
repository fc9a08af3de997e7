"""Settings for flows: environment variables first, then Prefect blocks and variables.

Data engineers who run flows from the Prefect UI keep the key in a ``Secret`` block named
``emissions-api-key`` and the rest in variables ``emissions_api_url``,
``emissions_organization_id``, ``emissions_ca_file`` and ``emissions_warehouse``.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import SecretStr

from emissions_etl.settings import Settings

SECRET_BLOCK = "emissions-api-key"
VARIABLES = {
    "api_url": "emissions_api_url",
    "organization_id": "emissions_organization_id",
    "ca_file": "emissions_ca_file",
    "warehouse": "emissions_warehouse",
}


def resolve_settings() -> Settings:
    """Settings from the environment, completed from Prefect where a value is missing."""
    settings = Settings()
    updates: dict[str, Any] = {}
    if settings.api_key is None:
        key = _secret_block_value(SECRET_BLOCK)
        if key:
            updates["api_key"] = SecretStr(key)
    for field_name, variable in VARIABLES.items():
        if os.environ.get(f"EMISSIONS_{field_name.upper()}"):
            continue  # the environment wins
        value = _variable(variable)
        if value:
            updates[field_name] = value
    if not updates:
        return settings
    return Settings.model_validate({**settings.model_dump(), **updates})


def _secret_block_value(name: str) -> str | None:
    try:
        from prefect.blocks.system import Secret

        block: Any = Secret.load(name, _sync=True)  # type: ignore[call-arg]
        return str(block.get())
    except (ValueError, RuntimeError):
        return None  # no such block, or no Prefect API reachable: the environment must do


def _variable(name: str) -> str | None:
    try:
        from prefect.variables import Variable

        value = Variable.get(name, default=None)
    except (ValueError, RuntimeError):
        return None
    return None if value is None else str(value)
