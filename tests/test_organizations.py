"""Settings per organization from the TOML file named by EMISSIONS_ORGANIZATIONS."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.errors import ConfigurationError
from emissions_etl.organizations import (
    find_organization,
    from_public,
    matching,
    organization_id_of,
    read_organizations,
)
from emissions_etl.settings import Settings
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.pipeline.tenancy import new_tenant, waste_row, write_wastes_xlsx

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
        ('organization = ["acme-es"]', "organization entry 1 is not a table"),
        (
            'defaults = "x"\n[[organization]]\nname = "a"\norganization_id = "x"\napi_key = "k"',
            "defaults\\] is not a table",
        ),
    ],
)
def test_an_unusable_file_is_one_error_naming_what_to_fix(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "orgs.toml"
    path.write_text(text)

    with pytest.raises(ConfigurationError, match=message):
        read_organizations(path, {})


def test_load_takes_one_organization_of_the_file_with_its_own_key(
    sandbox: Any, tmp_path: Path
) -> None:
    tenants = {}
    for name in ("acme-es", "acme-pt"):
        (tmp_path / name).mkdir()
        tenants[name] = new_tenant(sandbox, tmp_path / name)
    entries = [
        f'[[organization]]\nname = "{name}"\norganization_id = "{tenant.organization_id}"\n'
        f'api_key_env = "KEY_{name[-2:].upper()}"'
        for name, tenant in tenants.items()
    ]
    toml = tmp_path / "organizations.toml"
    toml.write_text(f'[defaults]\napi_url = "{sandbox.base_url}"\n\n' + "\n\n".join(entries))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")},
        "KEY_ES": tenants["acme-es"].api_key,
        "KEY_PT": tenants["acme-pt"].api_key,
        "EMISSIONS_CA_FILE": str(sandbox.ca_file),
        "EMISSIONS_WAREHOUSE": str(tmp_path / "group.duckdb"),
    }
    path = write_wastes_xlsx(tmp_path / "pt.xlsx", [waste_row(n) for n in range(4)])

    done = run_etl(
        ["load", str(path), "--organizations", str(toml), "--organization", "acme-pt"],
        env=env,
        timeout=300,
    )  # fmt: skip
    by_id = run_etl(
        ["load", str(path), "--organizations", str(toml),
         "--organization", tenants["acme-es"].organization_id],
        env=env, timeout=300,
    )  # fmt: skip
    unknown = run_etl(
        ["load", str(path), "--organization", "acme-fr"],
        env={**env, "EMISSIONS_ORGANIZATIONS": str(toml)},
        timeout=300,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    with tenants["acme-pt"].client() as client:
        assert sum(1 for _ in client.iter_wastes()) == 4
    assert by_id.returncode == 0, by_id.stderr  # the same, named by its id
    with tenants["acme-es"].client() as client:
        assert sum(1 for _ in client.iter_wastes()) == 4
    landed = Warehouse(tmp_path / "group.duckdb").query(
        "SELECT DISTINCT organization_id FROM emissions ORDER BY 1"
    )
    assert landed["organization_id"].tolist() == sorted(
        tenant.organization_id for tenant in tenants.values()
    )
    assert unknown.returncode == 2
    assert "no organization named 'acme-fr' (organizations known: acme-es, acme-pt)" in (
        " ".join(unknown.stderr.split())
    )


def test_an_organization_is_named_by_its_name_else_by_its_id(tmp_path: Path) -> None:
    path = tmp_path / "orgs.toml"
    path.write_text(FILE)
    organizations = read_organizations(path, {"ACME_ES_KEY": "key-es"})

    assert find_organization(organizations, "acme-pt").organization_id == "org-pt"
    assert find_organization(organizations, "org-pt").name == "acme-pt"
    assert matching([("a", "b"), ("b", "c")], "b") == ("b", "c")  # a name wins over an id
    assert matching([("a", "b")], "z") is None


def test_reading_an_inventory_needs_the_ids_of_the_file_not_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "orgs.toml"
    path.write_text(FILE)  # acme-es's key variable is not set here

    assert organization_id_of("acme-es", path) == "org-es"
    assert organization_id_of("org-pt", path) == "org-pt"
    assert organization_id_of("org-elsewhere", path) == "org-elsewhere"  # an id no file lists
    assert organization_id_of("acme-es", None) == "acme-es"
