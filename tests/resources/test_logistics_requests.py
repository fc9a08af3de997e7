"""Logistics requests beyond the generic tests: the bulk's errors[] land at their row and the
place the service could not find, names resolve (or are rejects naming what is known), and a
leg sent again is updated by the service's dedup key, movement id or not."""

from __future__ import annotations

from emissions_etl.domain.row_keys import source_of_key
from emissions_etl.loading.pipeline import load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, load_parents, write_example
from tests.resources.examples import EXAMPLES

EXAMPLE = EXAMPLES["logistics_requests"]
HEADER = EXAMPLE.header


def leg(**cells: object) -> list[object]:
    row = dict(zip(HEADER, EXAMPLE.rows[0], strict=True))
    row.update(cells)
    return [row[name] for name in HEADER]


def test_each_refused_or_unknown_cell_is_a_reject_at_its_row_and_column(tenant: Tenant) -> None:
    load_parents(tenant, EXAMPLE)
    rows = [
        leg(movement_id="M-1"),
        leg(movement_id="M-2", origin="Atlantis"),
        leg(movement_id="M-3"),
        leg(movement_id="M-4", toc="van_disel"),
        leg(movement_id="M-5", hub="Hub Murcia"),
        leg(movement_id="M-6", destination="Madrid, ES", origin="Springfield, US"),
    ]
    path = write_example(tenant.workdir / "legs.xlsx", EXAMPLE, rows)

    summary = load(tenant, "logistics_requests", path)

    assert (summary.rows_loaded, summary.rows_rejected) == (2, 4)
    found = sorted(zip(summary.rejects["row"], summary.rejects["column"],
                       summary.rejects["code"], strict=True))  # fmt: skip
    assert found == [
        (3, "origin", "REJECTED_BY_SERVICE"),
        (5, "toc", "UNKNOWN_REFERENCE"),
        (6, "hub", "PARENT_NOT_LOADED"),
        (7, "origin", "REJECTED_BY_SERVICE"),
    ]
    messages = dict(zip(summary.rejects["row"], summary.rejects["message"], strict=True))
    assert "LOCATION_NOT_FOUND" in messages[3]
    assert "Atlantis" in messages[3]
    assert "Did you mean 'van_diesel'?" in messages[5]
    assert "logistic_hubs file" in messages[6]


def test_a_leg_sent_again_updates_its_record_movement_id_or_not(tenant: Tenant) -> None:
    load_parents(tenant, EXAMPLE)
    path = write_example(tenant.workdir / "legs.xlsx", EXAMPLE, EXAMPLE.rows)
    load(tenant, "logistics_requests", path)
    # Another warehouse knows nothing of the first load: every row is new to it.
    elsewhere = Warehouse(tenant.workdir / "elsewhere.duckdb")
    with tenant.client() as client:
        again = load_file(
            path, api=client, warehouse=elsewhere, spec=resource_spec("logistics_requests")
        )
        items = list(client.iter_items("/v1/logistics/requests"))

    assert again.rows_sent == len(EXAMPLE.rows)
    assert len(items) == len(EXAMPLE.rows)
    mapped = "SELECT remote_id FROM remote_ids WHERE resource = 'logistics_requests'"
    ids_here = set(tenant.warehouse.query(mapped)["remote_id"])
    assert ids_here == set(elsewhere.query(mapped)["remote_id"])
    assert len(ids_here) == len(EXAMPLE.rows)
    [own_key] = [item["movement_id"] for item in items if not item["movement_id"].startswith("MOV")]
    assert source_of_key(own_key) == "legs.xlsx"  # its content key, in its source
