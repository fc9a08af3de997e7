"""The Concur profile: expense entries recognised from their header and loaded through the real
CLI; trips become business travels, hotel nights and meals are left out with their reason."""

from __future__ import annotations

from pathlib import Path

from tests.pipeline.tenancy import Tenant
from tests.profiles.conftest import SAMPLES, last_run, read_rejects, run_cli, tenant_env

SAMPLE = SAMPLES / "concur_travels" / "concur_entries_2026-02.csv"
LEFT_OUT = [4, 5, 18, 22, 28, 39, 42, 45, 46, 47, 48, 59, 65, 67, 72, 73, 74]


def test_the_expense_entries_load_as_trips_with_their_mistakes(tenant: Tenant) -> None:
    rejects = tenant.workdir / "rejects.json"
    done = run_cli("load", SAMPLE, "--rejects", rejects, env=tenant_env(tenant))

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "business_travels", 85, 65, 20,
    )  # fmt: skip
    found = read_rejects(rejects)
    assert sorted(r["row"] for r in found if r["code"] == "NOT_AN_ACTIVITY") == LEFT_OUT
    assert {(r["row"], r["column"], r["code"]) for r in found if r["row"] not in LEFT_OUT} == {
        (11, "Expense Type", "UNMAPPED_VALUE"),
        (20, "To Location", "REJECTED_BY_SERVICE"),
        (35, "Transaction Date", "INVALID_DATE"),
    }
    hotel = next(r for r in found if r["value"] == "Hotel")
    assert hotel["message"].endswith("a hotel night is not a trip; the row is left out.")


def test_distances_win_over_places_and_cabins_are_for_flights(tenant: Tenant) -> None:
    path = tenant.workdir / "entries.csv"
    path.write_text(
        "Report ID,Employee,Entry ID,Transaction Date,Expense Type,From Location,To Location,"
        "Business Distance,Class of Service,Trip Type,Amount,Currency\n"
        "R1,Ana,E1,2026-02-03,Personal Car Mileage,Madrid,Toledo,72,,,50.40,EUR\n"
        'R1,Ana,E2,2026-02-04,Train,"Madrid, Spain","Valencia, Spain",,Standard,Round Trip,'
        "88.00,EUR\n"
        'R1,Ana,E3,2026-02-05,Airfare,"Madrid, Spain","Paris, France",,Coach,One Way,'
        "310.00,EUR\n",
        encoding="utf-8",
    )
    done = run_cli("load", path, env=tenant_env(tenant))

    assert done.returncode == 0, done.stdout + done.stderr
    trips = tenant.warehouse.query(
        "SELECT transport_type, coalesce(origin, '-') AS origin, distance_km, round_trip, "
        "coalesce(cabin_class, '-') AS cabin_class "
        "FROM business_travels ORDER BY travel_date"
    ).to_dict("records")
    assert [(t["transport_type"], t["origin"], t["cabin_class"]) for t in trips] == [
        ("car", "-", "-"),
        ("train", "Madrid, Spain", "-"),
        ("aircraft", "Madrid, Spain", "economy"),
    ]
    assert trips[0]["distance_km"] == 72
    assert [t["round_trip"] for t in trips] == [False, True, False]


def test_an_export_without_expense_types_is_exit_2_naming_the_column(tmp_path: Path) -> None:
    path = tmp_path / "entries.csv"
    path.write_text(
        "Report ID,Employee,Entry ID,Transaction Date,Vendor,Amount,Currency\n"
        "R1,Ana,E1,2026-02-03,Iberia,310.00,EUR\n",
        encoding="utf-8",
    )
    done = run_cli("validate", path, "--profile", "concur_travels")

    assert done.returncode == 2
    assert "profile concur_travels needs Expense Type" in done.stderr
