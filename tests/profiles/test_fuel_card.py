"""The fuel-card statement (an xlsx with a title block and a totals row), loaded through the
real CLI as logistics recharges (``fuel_card``) and as the fleet's consumptions
(``fuel_card_fleet``, the same layout declared once)."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.profiles.conftest import (
    ROOT,
    SAMPLES,
    last_run,
    needs_resource,
    read_rejects,
    run_cli,
    tenant_env,
)

SAMPLE = SAMPLES / "fuel_card" / "solred_extracto_2026-03.xlsx"
FLEET = ROOT / "sample_data" / "inbox" / "vehicles" / "flota_2026.xlsx"
ADBLUE = [6, 15, 35, 37, 39, 41, 54, 56, 73, 89, 97, 126, 129, 134]
MISTAKES = {
    (16, "Producto", "NOT_AN_ACTIVITY"),
    (42, "Litros", "NOT_POSITIVE"),
    (68, "Producto", "UNMAPPED_VALUE"),
    (93, "Fecha", "INVALID_DATE"),
    (146, "Fecha", "INVALID_DATE"),  # the statement's totals row
}


def _check_rejects(found: list[dict]) -> None:
    adblue = sorted(r["row"] for r in found if r["value"] == "AdBlue")
    assert adblue == ADBLUE
    assert all(r["code"] == "NOT_AN_ACTIVITY" for r in found if r["value"] == "AdBlue")
    assert "exhaust additive" in next(r for r in found if r["value"] == "AdBlue")["message"]
    others = {(r["row"], r["column"], r["code"]) for r in found if r["value"] != "AdBlue"}
    assert others >= MISTAKES
    assert {row for row, _, _ in others} == {row for row, _, _ in MISTAKES}


@needs_resource("vehicle_consumptions")
def test_the_statement_loads_as_the_fleets_consumptions(tenant: Tenant) -> None:
    env = tenant_env(tenant)
    fleet = run_cli("load", FLEET, env=env)
    assert fleet.returncode == 1, fleet.stderr  # the fleet sample has its own mistakes
    rejects = tenant.workdir / "rejects.json"

    done = run_cli("load", SAMPLE, "--profile", "fuel_card_fleet", "--rejects", rejects, env=env)

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "vehicle_consumptions", 141, 122, 19,
    )  # fmt: skip
    _check_rejects(read_rejects(rejects))


@needs_resource("logistics_recharges")
def test_the_statement_is_recognised_and_loads_as_recharges(tenant: Tenant) -> None:
    rejects = tenant.workdir / "rejects.json"
    done = run_cli("load", SAMPLE, "--rejects", rejects, env=tenant_env(tenant))

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "logistics_recharges", 141, 122, 19,
    )  # fmt: skip
    _check_rejects(read_rejects(rejects))
