"""Profiles' tests run the real CLI (`emissions-etl load`/`validate`) as a subprocess against the
served sandbox, with a fresh organization each and its settings as EMISSIONS_* variables."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.resources import RESOURCES
from tests.cli_process import run_etl
from tests.pipeline.tenancy import Tenant, tenant  # noqa: F401  (fixture)

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_data" / "profiles"
#: The demo's facilities the tenant fixture does not create.
MORE_FACILITIES = ("Valencia Office", "Sevilla Logistics Hub")


def needs_resource(name: str) -> pytest.MarkDecorator:
    """Skip while the profile's target resource has not landed in the registry."""
    return pytest.mark.skipif(
        name not in RESOURCES, reason=f"resource {name} is not in emissions_etl.resources yet"
    )


def run_cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``emissions-etl ARGS`` with only the EMISSIONS_* variables of ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl([*map(str, args)], timeout=300, env={**clean, **(env or {})})


def tenant_env(tenant: Tenant, **extra: str) -> dict[str, str]:  # noqa: F811
    """The settings a load of ``tenant`` needs, as a deployment would set them."""
    return {
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(tenant.workdir / "warehouse.duckdb"),
        **extra,
    }


def last_run(tenant: Tenant) -> dict[str, Any]:  # noqa: F811
    """The newest load run of the tenant's warehouse, with its counts."""
    runs = tenant.warehouse.query(
        "SELECT * FROM load_runs ORDER BY started_at DESC LIMIT 1"
    ).to_dict("records")
    assert runs, "no load run recorded"
    return runs[0]


def read_rejects(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8")))


@pytest.fixture
def demo_tenant(tenant: Tenant) -> Tenant:  # noqa: F811
    """A fresh organization with the four facilities the demo creates."""
    with tenant.client() as client:
        for name in MORE_FACILITIES:
            client.create_facility(name=name, type="office", country="ES")
    return tenant
