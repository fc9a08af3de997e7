"""Settings per organization from the TOML file named by EMISSIONS_ORGANIZATIONS."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.organizations import from_public, read_organizations
from emissions_etl.settings import Settings

FILE = """
[defaults]
api_url = "https://api.example.com"

[[organization]]
name = "acme-es"
organization_id = "org-es"
api_key_env = "ACME_ES_KEY"
inbox = "/data/inbox/es"

[[organization]]
name = "acme-pt"
organization_id = "org-pt"
api_key = "key-pt"
api_url = "https://eu.example.com"
"""


def test_each_organization_has_its_settings_over_the_shared_ones(tmp_path: Path) -> None:
    path = tmp_path / "orgs.toml"
    path.write_text(FILE)

    es, pt = read_organizations(path, {"ACME_ES_KEY": "key-es"})
    base = Settings(api_url="https://ignored", warehouse="w.duckdb")

    assert (es.settings(base).organization_id, es.settings(base).api_url) == (
        "org-es",
        "https://api.example.com",
    )
    assert es.settings(base).api_key is not None
    assert es.settings(base).api_key.get_secret_value() == "key-es"
    assert pt.settings(base).api_url == "https://eu.example.com"
    assert (es.inbox_under(Path("/in")), pt.inbox_under(Path("/in"))) == (
        Path("/data/inbox/es"),
        Path("/in/acme-pt"),
    )
    assert "key" not in str(es.public()).replace("api_key", "")
    assert from_public([pt.public()], {"acme-pt": pt.api_key}) == [pt]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[organization]]\nname = "a b"\norganization_id = "x"\napi_key = "k"', "letters"),
        ('[[organization]]\nname = "a"\napi_key = "k"', "no organization_id"),
        ('[[organization]]\nname = "a"\norganization_id = "x"\napi_key_env = "NOPE"', "NOPE"),
        ('[[organization]]\nname = "a"\norganization_id = "x"', "no api_key"),
        ("[defaults]\n", "no \\[\\[organization\\]\\] entry"),
        ("[[organization]\n", "unreadable"),
    ],
)
def test_an_unusable_file_is_one_error_naming_what_to_fix(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "orgs.toml"
    path.write_text(text)

    with pytest.raises(ConfigurationError, match=message):
        read_organizations(path, {})
