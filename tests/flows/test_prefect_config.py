"""Flows take their settings from Prefect blocks and variables when the environment has none."""

from __future__ import annotations

import pytest

from emissions_etl.prefect_config import SECRET_BLOCK, resolve_settings

pytestmark = pytest.mark.flow


def test_settings_come_from_a_secret_block_and_variables(
    prefect_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.blocks.system import Secret
    from prefect.variables import Variable

    for name in ("API_URL", "API_KEY", "ORGANIZATION_ID", "CA_FILE", "WAREHOUSE"):
        monkeypatch.delenv(f"EMISSIONS_{name}", raising=False)
    Secret(value="sk_live_from_block").save(SECRET_BLOCK, overwrite=True)
    Variable.set("emissions_api_url", "https://api.example.test", overwrite=True)
    Variable.set("emissions_organization_id", "org-1", overwrite=True)

    settings = resolve_settings()

    assert settings.api_key is not None
    assert settings.api_key.get_secret_value() == "sk_live_from_block"
    assert (settings.api_url, settings.organization_id) == ("https://api.example.test", "org-1")
    assert "sk_live_from_block" not in repr(settings)


def test_the_environment_wins_over_prefect(
    prefect_server: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect.variables import Variable

    Variable.set("emissions_api_url", "https://from-variable.test", overwrite=True)
    monkeypatch.setenv("EMISSIONS_API_URL", "https://from-env.test")

    assert resolve_settings().api_url == "https://from-env.test"
