"""Purchases beyond the generic tests: what the service creates but cannot calculate loads with
status error and counts as failed (no reject), and a purchase the service holds in progress is
not changed: its row counts as failed and is sent again by the next run."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, write_example
from tests.resources.examples import EXAMPLES

EXAMPLE = EXAMPLES["purchases"]
SECTOR = EXAMPLE.header.index("sector")


def test_a_sector_without_a_factor_loads_with_status_error_and_counts_as_failed(
    tenant: Tenant,
) -> None:
    unknown = list(EXAMPLE.rows[1])
    unknown[SECTOR] = "Underwater basket weaving"
    path = write_example(tenant.workdir / "purchases.xlsx", EXAMPLE, [EXAMPLE.rows[0], unknown])

    summary = load(tenant, "purchases", path)

    assert summary.rejects.empty
    assert (summary.rows_loaded, summary.rows_failed, summary.outcome) == (2, 1, "partial")
    landed = tenant.warehouse.query(
        "SELECT status, co2e_kg FROM emissions WHERE resource = 'purchases' ORDER BY status"
    )
    assert landed["status"].tolist() == ["active", "error"]
    assert landed["co2e_kg"].isna().tolist() == [False, True]
    error = tenant.warehouse.query("SELECT error_code FROM purchases WHERE error_code IS NOT NULL")
    assert error["error_code"].tolist() == ["SECTOR_NOT_FOUND"]


def test_a_purchase_in_progress_is_left_alone_and_its_change_is_sent_again(
    tenant: Tenant,
) -> None:
    path = write_example(tenant.workdir / "purchases.xlsx", EXAMPLE, EXAMPLE.rows[:2])
    load(tenant, "purchases", path)
    [remote_id] = tenant.warehouse.query(
        "SELECT remote_id FROM remote_ids WHERE resource = 'purchases' AND source_key = 'PO-1'"
    )["remote_id"]
    with tenant.client() as client:
        client.send_json("PATCH", f"/v1/purchases/{remote_id}", {"status": "in_progress"})
    rows = [list(row) for row in EXAMPLE.rows[:2]]
    rows[0][EXAMPLE.header.index("quantity")] = 999.0
    write_example(path, EXAMPLE, rows)

    first = load(tenant, "purchases", path)
    again = load(tenant, "purchases", path)

    assert first.rejects.empty
    assert (first.rows_sent, first.rows_failed, first.rows_unchanged) == (1, 1, 1)
    assert (again.rows_sent, again.rows_failed) == (1, 1)
    with tenant.client() as client:
        held = client.send_json("GET", f"/v1/purchases/{remote_id}")
    assert (held["quantity"], held["status"]) == (1250.5, "in_progress")
