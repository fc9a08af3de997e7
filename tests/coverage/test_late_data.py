"""Late data over the served sandbox: a facility's March wastes arrive after the inventory was
filed with March estimated; the late file's load closes the gap (its estimate is gone) and the
restatement names the estimate real data replaced. Every record is a real load."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd

from emissions_etl.coverage import CoverageRequest, read_coverage
from emissions_etl.inventory import Estimates, file_inventory, read_inventory, restate_against
from emissions_etl.loading.pipeline import load_file
from emissions_etl.resources import resource_spec
from tests.pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx

__all__ = ["tenant"]

AS_OF = dt.date(2026, 5, 20)  # April ended; March's data was due on 10 April


def load(tenant: Tenant, path: Path) -> None:
    with tenant.client() as client:
        summary = load_file(path, api=client, warehouse=tenant.warehouse,
                            spec=resource_spec("wastes"))  # fmt: skip
    assert summary.outcome == "succeeded", summary


def march(tenant: Tenant) -> pd.Series:
    rows = read_coverage(tenant.warehouse, CoverageRequest(year=2026, as_of=AS_OF)).rows
    madrid = rows[(rows["resource"] == "wastes") & (rows["entity"] == "Madrid Warehouse")]
    assert pd.to_datetime(madrid["month"]).dt.month.tolist() == [1, 2, 3, 4]
    return madrid[pd.to_datetime(madrid["month"]).dt.month == 3].iloc[0]


def test_a_late_file_closes_its_gap_and_the_restatement_names_the_estimate_it_replaced(
    tenant: Tenant,
) -> None:
    load(tenant, write_wastes_xlsx(tenant.workdir / "q1.xlsx", [waste_row(n) for n in (0, 1, 3)]))
    gap = march(tenant)
    filed, _ = file_inventory(tenant.warehouse, year=2026, by="ana",
                              estimates=Estimates(as_of=AS_OF))  # fmt: skip

    load(tenant, write_wastes_xlsx(tenant.workdir / "late.xlsx", [waste_row(2)]))
    closed = march(tenant)
    now = read_inventory(tenant.warehouse, year=2026, estimates=Estimates(as_of=AS_OF))
    restated = restate_against(tenant.warehouse, filed.filed_id, now)

    assert (gap["status"], bool(gap["overdue"]), gap["estimate_method"]) == (
        "missing", True, "neighbours_mean")  # fmt: skip
    assert gap["estimate_kg"] > 0
    assert filed.estimates_as_of == AS_OF
    assert (closed["status"], closed["records"]) == ("received", 1)
    assert pd.isna(closed["estimate_kg"])
    assert pd.isna(closed["estimate_method"])
    assert closed["co2e_kg"] > 0
    assert now.line("total_location")["estimated_kg"] == 0.0  # nothing missing any more
    [replaced] = restated.estimates.to_dict("records")
    assert (replaced["change"], replaced["entity"], replaced["month"]) == (
        "replaced by real data", "Madrid Warehouse", dt.date(2026, 3, 1))  # fmt: skip
    assert replaced["estimate_kg when filed"] == gap["estimate_kg"]
    assert replaced["co2e_kg now"] == closed["co2e_kg"]
    assert restated.count("added") == 1
    assert "of its 1 estimate(s), 1 replaced by real data" in restated.summary()
