"""Business travels beyond the generic tests: an unknown place is refused at its own column, and
a load waits until the service's worker has calculated every trip (``pending`` is unsettled)."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, write_example
from tests.resources.examples import EXAMPLES

EXAMPLE = EXAMPLES["business_travels"]


def test_an_unknown_place_is_a_reject_at_the_column_holding_it(tenant: Tenant) -> None:
    unknown = ["2026-05-04", "train", None, "Madrid", "Atlantis", 1, "no", None, None, None, None,
               "T-7"]  # fmt: skip
    path = write_example(tenant.workdir / "trips.xlsx", EXAMPLE, [EXAMPLE.rows[0], unknown])

    summary = load(tenant, "business_travels", path)

    assert (summary.rows_loaded, summary.rows_rejected) == (1, 1)
    [reject] = summary.rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["value"]) == (3, "destination", "Atlantis")
    assert "UNKNOWN_PLACE" in reject["message"]


def test_the_load_reads_trips_back_once_the_service_has_calculated_them(tenant: Tenant) -> None:
    path = write_example(tenant.workdir / "trips.xlsx", EXAMPLE, EXAMPLE.rows)

    load(tenant, "business_travels", path)

    landed = tenant.warehouse.query(
        "SELECT status, co2e_kg FROM emissions WHERE resource = 'business_travels'"
    )
    assert set(landed["status"]) == {"active"}
    assert (landed["co2e_kg"] > 0).all()
