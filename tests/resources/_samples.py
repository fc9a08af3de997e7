"""Loading the sample inbox's files the way the demo does: parents from their own sample files,
into an organization that starts without facilities."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.loading.pipeline import LoadSummary, validate_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox"
#: The file of each resource the other samples name as parents.
PARENT_FILES = {
    "facilities": "centros_2026.xlsx",
    "logistic_hubs": "hubs_2026.xlsx",
    "vehicles": "flota_2026.xlsx",
    "employees": "plantilla_2026.xlsx",
}


def sample(resource: str, name: str) -> Path:
    return INBOX / resource / name


def validated(resource: str, name: str) -> tuple[int, list[tuple[int, str, str]]]:
    """Rows read and (row, column, code) of every reject, offline."""
    result = validate_file(sample(resource, name), spec=resource_spec(resource))
    rejects = zip(result.rejects["row"], result.rejects["column"], result.rejects["code"],
                  strict=True)  # fmt: skip
    return result.rows_read, sorted(rejects)


def load_sample(tenant: Tenant, resource: str, name: str) -> LoadSummary:
    return load(tenant, resource, sample(resource, name))


def load_parent_samples(tenant: Tenant, *resources: str) -> None:
    """The demo's state: the tenant's own facilities removed, then each parent's sample file."""
    with tenant.client() as client:
        for item in list(client.iter_items("/v1/facilities")):
            client.send_json("DELETE", f"/v1/facilities/{item['id']}")
    for resource in resources:
        load_sample(tenant, resource, PARENT_FILES[resource])
