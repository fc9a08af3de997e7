"""Logistics recharges beyond the generic tests: fuel and TOC names that do not resolve are
rejects listing what the service knows, and a recharge sent again (the same country, date,
quantity and plate) is updated by the service, not added."""

from __future__ import annotations

from emissions_etl.loading.pipeline import load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, write_example
from tests.resources.examples import EXAMPLES

EXAMPLE = EXAMPLES["logistics_recharges"]


def recharge(**cells: object) -> list[object]:
    row = dict(zip(EXAMPLE.header, EXAMPLE.rows[0], strict=True))
    row.update(cells)
    return [row[name] for name in EXAMPLE.header]


def test_unknown_fuel_and_toc_names_are_rejects_listing_what_is_known(tenant: Tenant) -> None:
    rows = [
        recharge(client_row_id="A"),
        recharge(client_row_id="B", fuel="AdBlue", quantity=20.0),
        recharge(client_row_id="C", toc="furgoneta", quantity=30.0),
    ]
    path = write_example(tenant.workdir / "recharges.xlsx", EXAMPLE, rows)

    summary = load(tenant, "logistics_recharges", path)

    assert (summary.rows_loaded, summary.rows_rejected) == (1, 2)
    rejects = summary.rejects.sort_values("row").to_dict("records")
    assert [(r["row"], r["column"], r["code"]) for r in rejects] == [
        (3, "fuel", "UNKNOWN_REFERENCE"),
        (4, "toc", "UNKNOWN_REFERENCE"),
    ]
    assert "known: cng, diesel, electricity" in rejects[0]["message"]


def test_a_recharge_sent_again_is_updated_not_added(tenant: Tenant) -> None:
    path = write_example(tenant.workdir / "recharges.xlsx", EXAMPLE, EXAMPLE.rows)
    load(tenant, "logistics_recharges", path)
    elsewhere = Warehouse(tenant.workdir / "elsewhere.duckdb")  # knows nothing of that load

    with tenant.client() as client:
        again = load_file(
            path, api=client, warehouse=elsewhere, spec=resource_spec("logistics_recharges")
        )
        held = list(client.iter_items("/v1/logistics/recharges"))

    assert again.rows_sent == len(EXAMPLE.rows)
    assert len(held) == len(EXAMPLE.rows)
    mapped = "SELECT remote_id FROM remote_ids WHERE resource = 'logistics_recharges'"
    assert set(tenant.warehouse.query(mapped)["remote_id"]) == set(
        elsewhere.query(mapped)["remote_id"]
    )
