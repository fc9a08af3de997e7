"""The inventory of a warehouse built by a real load of ``sample_data/inbox`` (every file, parents
first, as the nightly flow loads them, into an organization of the served sandbox): its total is
the activity records' co2e under every approach, no aggregate is in it, each resource lands on
its lines, and the command writes it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import openpyxl
import pytest
from pydantic import SecretStr

from emissions_etl.inventory import evidence, read_inventory, records_behind
from emissions_etl.loading.file_loads import load_files
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.loading.pipeline import LoadOptions
from emissions_etl.settings import Settings
from emissions_etl.warehouse import APPROACHES, Warehouse
from tests.cli_process import run_etl
from tests.pipeline.tenancy import new_tenant

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.xdist_group("sample-inbox-inventory"),  # one load, on one worker
]

INBOX = Path(__file__).parents[2] / "sample_data" / "inbox"
OWN_FLEET = "own fleet leg: its fuel is counted in logistics_recharges"


@pytest.fixture(scope="module")
def loaded(sandbox, tmp_path_factory: pytest.TempPathFactory) -> Warehouse:  # type: ignore[no-untyped-def]
    """Every file of the sample inbox loaded into a fresh organization without facilities (the
    inbox brings its own), as the demo's nightly flow does."""
    tenant = new_tenant(sandbox, tmp_path_factory.mktemp("inbox"))
    with tenant.client() as client:
        for item in list(client.iter_items("/v1/facilities")):
            client.send_json("DELETE", f"/v1/facilities/{item['id']}")
    settings = Settings(
        api_url=tenant.base_url,
        api_key=SecretStr(tenant.api_key),
        organization_id=tenant.organization_id,
        ca_file=tenant.ca_file,
        warehouse=str(tenant.warehouse.path),
    )
    planned = [(f.path, f.spec) for f in plan_inbox(INBOX) if f.spec is not None]
    outcomes = load_files(planned, settings=settings, options=LoadOptions())
    assert {o.resource for o in outcomes if o.summary and o.summary.rows_loaded} == {
        spec.name for _, spec in planned
    }
    return tenant.warehouse


def test_the_inventory_total_is_the_activity_records_co2e_under_every_approach(
    loaded: Warehouse,
) -> None:
    activity = loaded.query(
        "SELECT sum(co2e_kg) AS kg, count(*) AS records FROM emissions WHERE NOT is_aggregate"
    ).iloc[0]
    assert activity["records"] > 1_000

    for approach in APPROACHES:
        inventory = loaded.query(
            "SELECT sum(co2e_kg) AS kg, sum(records) AS records FROM ghg_inventory_under(?)",
            [approach],
        ).iloc[0]
        assert inventory["records"] == activity["records"], approach
        assert inventory["kg"] == pytest.approx(activity["kg"], rel=1e-12), approach


def test_no_aggregate_is_counted(loaded: Warehouse) -> None:
    aggregates = loaded.query(
        "SELECT resource, sum(co2e_kg) AS kg FROM emissions WHERE is_aggregate GROUP BY ALL"
    )
    listed = set(loaded.query("SELECT DISTINCT resource FROM ghg_inventory")["resource"])

    assert set(aggregates["resource"]) == {"facilities", "logistic_hubs", "vehicles", "employees"}
    assert aggregates["kg"].sum() > 0  # they hold co2e, the sums of the records listed
    assert not listed & set(aggregates["resource"])


def test_each_resource_lands_on_its_lines_and_only_own_fleet_legs_stay_outside(
    loaded: Warehouse,
) -> None:
    lines = loaded.query(
        "SELECT DISTINCT resource, scope, category, unclassified_reason FROM ghg_inventory"
    )
    found = {
        (row.resource, None if row.scope is None else int(row.scope),
         None if row.category is None else int(row.category))
        for row in lines.astype(object).where(lines.notna(), None).itertuples()
    }  # fmt: skip

    assert found == {
        ("wastes", 3, 5),
        ("business_travels", 3, 6),
        ("commuting_periods", 3, 7),
        ("purchases", 3, 1),
        ("purchases", 3, 2),
        ("logistics_requests", 3, 4),
        ("logistics_requests", None, None),
        ("logistics_recharges", 1, None),
        ("logistics_recharges", 2, None),
        ("vehicle_consumptions", 1, None),
        ("vehicle_consumptions", 2, None),
    }
    assert set(lines["unclassified_reason"].dropna()) == {OWN_FLEET}


def test_the_electric_vans_charges_are_scope_2(loaded: Warehouse) -> None:
    charges = loaded.query(
        "SELECT i.scope, count(*) AS n FROM ghg_inventory_records AS i "
        "JOIN vehicle_consumptions AS c USING (remote_id) "
        "WHERE i.resource = 'vehicle_consumptions' AND c.unit = 'kWh' GROUP BY ALL"
    )

    assert charges["scope"].tolist() == [2]


def test_financial_control_moves_exactly_the_rented_vehicles_fuel_to_category_8(
    loaded: Warehouse,
) -> None:
    rented = loaded.query(
        "SELECT sum(c.co2e_kg) AS kg FROM vehicle_consumptions AS c "
        "JOIN vehicles AS v ON v.remote_id = c.vehicle_id WHERE v.ownership = 'rented'"
    )["kg"][0]
    category_8 = loaded.query(
        "SELECT sum(co2e_kg) AS kg FROM ghg_inventory_under('financial_control') "
        "WHERE scope = 3 AND category = 8"
    )["kg"][0]

    assert rented > 0
    assert category_8 == pytest.approx(rented)


def test_the_command_writes_the_inventory_of_the_loaded_warehouse(
    loaded: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "inventory.xlsx"
    done = run_etl(
        ["inventory", "--warehouse", str(loaded.path), "--year", "2026", "--out", str(out)],
        timeout=180,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    table = {row[0]: row for row in openpyxl.load_workbook(out)["By scope and category"].values}
    expected = loaded.query(
        "SELECT sum(co2e_kg) / 1000 AS t FROM ghg_inventory "
        "WHERE scope IS NOT NULL AND year(activity_month) = 2026"
    )["t"][0]
    assert table["Total GHG emissions (location-based)"][3] == pytest.approx(expected)


def test_the_sample_inventory_is_filed_and_written_again_as_filed(
    loaded: Warehouse, tmp_path: Path
) -> None:
    """The demo's warehouse, filed: read and frozen in one writer's turn (with a reader's
    memory: a load's does not hold the inventory's views of these records)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_etl([*args, "--warehouse", str(loaded.path)], timeout=300)

    filed = run("file-inventory", "--year", "2026")
    now = run("inventory", "--year", "2026", "--out", str(tmp_path / "now.csv"))
    again = run("inventory", "--filed", filed.stdout.split()[-1], "--out", str(tmp_path / "f.csv"))

    assert (filed.returncode, now.returncode, again.returncode) == (0, 0, 0), filed.stderr
    assert (tmp_path / "f.csv").read_bytes() == (tmp_path / "now.csv").read_bytes()


def test_the_evidence_of_the_sample_inventory_adds_up_to_each_line(loaded: Warehouse) -> None:
    inventory = read_inventory(loaded, year=2026)

    rows = evidence(inventory, records_behind(loaded, inventory)).rows

    summed = rows.groupby("line")["co2e_kg"].sum()
    for line in inventory.lines.to_dict("records"):
        if line["kind"] in ("activity", "scope_2_market", "total_market") or not line["records"]:
            continue
        assert summed[line["line"]] == pytest.approx(line["co2e_kg"], rel=1e-12), line["line"]
    assert rows["file"].notna().all()
    assert rows["file_sha256"].str.fullmatch("[0-9a-f]{64}").all()  # loaded by this version
