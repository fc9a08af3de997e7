"""The facilities sample: its deliberate mistakes are exactly those its README lists, and a load
into an organization without facilities gives the counts it states."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.loading.pipeline import validate_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load

FILE = Path(__file__).parents[2] / "sample_data" / "inbox" / "facilities" / "centros_2026.xlsx"
DEMO_SITES = {"Madrid Warehouse", "Barcelona Plant", "Valencia Office", "Sevilla Logistics Hub"}


def test_the_list_has_its_documented_mistakes_and_no_others() -> None:
    result = validate_file(FILE, spec=resource_spec("facilities"))
    assert result.rows_read == 29
    assert sorted(
        zip(result.rejects["row"], result.rejects["column"], result.rejects["code"], strict=True)
    ) == [  # fmt: skip
        (9, "País", "INVALID_COUNTRY"),
        (14, "Factor logístico", "OUT_OF_RANGE"),
        (18, "Categorías", "INVALID_CHOICE"),
        (22, "CUPS", "INVALID_CUPS"),
        (26, "Tipo", "REQUIRED"),
        (31, "Nombre", "DUPLICATE_ROW_ID"),
    ]


def test_the_list_loads_23_sites_and_rejects_6(tenant: Tenant) -> None:
    with tenant.client() as client:  # as in the demo: the file brings every facility
        for item in list(client.iter_items("/v1/facilities")):
            client.send_json("DELETE", f"/v1/facilities/{item['id']}")

    summary = load(tenant, "facilities", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (29, 23, 6)
    with tenant.client() as client:
        names = [item["name"] for item in client.iter_items("/v1/facilities")]
    assert len(names) == 23
    assert set(names) >= DEMO_SITES
