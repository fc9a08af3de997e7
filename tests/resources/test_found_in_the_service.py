"""Records the service holds are found before anything is written: made in its own screens or
through the API, loaded from another warehouse, or from an earlier version of an export."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.errors import MirrorRefusedError
from emissions_etl.loading.pipeline import LoadOptions, LoadSummary, load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, load_parents, write_example
from tests.resources.examples import EXAMPLES

TRAVEL_HEADER = ["travel_date", "transport_type", "distance_km", "travel_number", "round_trip"]


def trips(count: int, *, first_day: int = 0) -> list[list[Any]]:
    """``count`` different car trips, one a day."""
    start = dt.date(2026, 1, 1)
    return [
        [(start + dt.timedelta(days=first_day + n)).isoformat(), "car", 100.0 + n, 1, "no"]
        for n in range(count)
    ]


def write_trips(path: Path, rows: list[list[Any]]) -> Path:
    """The trips as an agency's export named ``path``. Its title is its name, so that two
    exports of the same trips are two files, not a copy of one (which is loaded once): openpyxl
    stamps a workbook's time to the second, and two written within one were byte for byte
    the same."""
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.properties.title = path.stem
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Viajes"
    for row in [TRAVEL_HEADER, *rows]:
        sheet.append(row)
    workbook.save(path)
    return path


def travels_in_service(tenant: Tenant) -> list[dict[str, Any]]:
    with tenant.client() as client:
        return list(client.iter_items("/v1/business-travels"))


def load_trips(tenant: Tenant, path: Path, **options: Any) -> LoadSummary:
    return load(tenant, "business_travels", path, **options)


def test_facilities_and_vehicles_made_in_the_services_own_screens_are_adopted_not_doubled(
    tenant: Tenant,
) -> None:
    facilities, vehicles = EXAMPLES["facilities"], EXAMPLES["vehicles"]
    with tenant.client() as client:
        # As a person typed them in the service: other case, other spaces, an old address.
        made = client.send_json(
            "POST",
            "/v1/facilities",
            {"name": "valencia  OFFICE", "type": "office", "country": "ES", "address": "Old"},
        )
        fuels = client.send_json("GET", "/v1/vehicle-fuels")
        kinds = client.send_json("GET", "/v1/unknown-vehicles")
        van = client.send_json(
            "POST",
            "/v1/vehicles",
            {
                "type": "freight", "ownership": "owned", "license_plate": "1234-klm",
                "country": "ES",
                "unknown_vehicle_id": next(k["id"] for k in kinds if k["type"] == "van"),
                "vehicle_fuel_id": next(f["id"] for f in fuels if f["fuel"] == "diesel"),
            },
        )  # fmt: skip
    facilities_file = write_example(tenant.workdir / "f.xlsx", facilities, facilities.rows)
    vehicles_file = write_example(tenant.workdir / "v.xlsx", vehicles, vehicles.rows)

    loaded = [load(tenant, "facilities", facilities_file), load(tenant, "vehicles", vehicles_file)]

    assert [s.rows_adopted for s in loaded] == [1, 1]
    with tenant.client() as client:
        assert facilities.count(client) == len(facilities.rows)
        assert vehicles.count(client) == len(vehicles.rows)
        found = client.send_json("GET", f"/v1/facilities/{made['id']}")
        kept_van = client.send_json("GET", f"/v1/vehicles/{van['id']}")
    assert found["address"] == "Calle de Colón 10, Valencia"  # updated where it differed
    assert kept_van["registration_year"] == 2021


def test_trips_and_wastes_made_through_the_api_first_are_adopted(tenant: Tenant) -> None:
    wastes = EXAMPLES["wastes"]
    with tenant.client() as client:
        client.send_json("POST", "/v1/business-travels", {
            "travel_date": "2026-01-02", "transport_type": "car", "distance_km": 101.0,
            "travel_number": 1, "round_trip": False,
        })  # fmt: skip
    path = write_trips(tenant.workdir / "trips.xlsx", trips(3))
    # Wastes keyed by the row id the service keeps: the same ids made first by another tool.
    header = [*wastes.header, "client_row_id"]
    rows = [[*row, f"W-{n}"] for n, row in enumerate(wastes.rows)]
    first = Warehouse(tenant.workdir / "other-tool.duckdb")
    elsewhere = tenant.workdir / "other.xlsx"
    write_example(elsewhere, _with_header(wastes, header), rows[:2])
    with tenant.client() as client:
        load_file(elsewhere, api=client, warehouse=first, spec=resource_spec("wastes"))
    wastes_file = write_example(tenant.workdir / "w.xlsx", _with_header(wastes, header), rows)

    trips_loaded = load_trips(tenant, path)
    wastes_loaded = load(tenant, "wastes", wastes_file)

    assert (trips_loaded.rows_adopted, trips_loaded.rows_sent) == (1, 2)
    assert len(travels_in_service(tenant)) == 3
    assert (wastes_loaded.rows_adopted, wastes_loaded.rows_sent) == (2, len(rows) - 2)
    with tenant.client() as client:
        assert wastes.count(client) == len(rows)


def _with_header(example: Any, header: list[str]) -> Any:
    from dataclasses import replace

    return replace(example, header=header)


def test_an_agency_export_its_cumulative_reexport_and_its_correction_count_each_trip_once(
    tenant: Tenant,
) -> None:
    october = trips(41, first_day=2)
    # Two colleagues on the same train the same day: two trips, twice the emissions.
    october[10] = october[11] = ["2026-01-20", "train", 300.0, 1, "no"]
    write_trips(tenant.workdir / "agency-2026-10.xlsx", october)
    november = [*trips(2), *october]  # two new trips above the old rows, a new file name
    write_trips(tenant.workdir / "agency-2026-11.xlsx", november)
    corrected = [row for n, row in enumerate(november) if n not in (5, 20, 30)]
    write_trips(tenant.workdir / "agency-2026-11-v2.xlsx", corrected)

    loads = [
        load_trips(tenant, tenant.workdir / "agency-2026-10.xlsx", source="agency"),
        load_trips(tenant, tenant.workdir / "agency-2026-11.xlsx", source="agency"),
        load_trips(tenant, tenant.workdir / "agency-2026-11-v2.xlsx", source="agency", mirror=True),
    ]

    assert [s.rows_sent for s in loads] == [41, 2, 0]
    assert [s.rows_deleted for s in loads] == [0, 0, 3]
    held = travels_in_service(tenant)
    assert len(held) == 40
    assert sum(1 for trip in held if trip["transport_type"] == "train") == 2
    landed = tenant.warehouse.query(
        "SELECT count(*) AS n, count(DISTINCT remote_id) AS ids FROM emissions "
        "WHERE resource = 'business_travels' AND source_name = 'agency'"
    )
    assert landed.to_dict("records") == [{"n": 40, "ids": 40}]


def test_a_new_source_like_another_is_created_and_named(tenant: Tenant) -> None:
    path = write_trips(tenant.workdir / "agency-2026-10.xlsx", trips(4))
    load_trips(tenant, path)
    renamed = write_trips(tenant.workdir / "agency-2026-11.xlsx", trips(4))

    again = load_trips(tenant, renamed)  # no --source: a data set of its own

    assert again.rows_sent == 4
    assert any("--source 'agency-2026-10.xlsx'" in note for note in again.notes), again.notes


def test_a_mirror_deletes_nothing_while_rows_are_rejected(tenant: Tenant) -> None:
    path = write_trips(tenant.workdir / "t.xlsx", trips(10))
    load_trips(tenant, path)
    rows = trips(10)[:9]
    rows[0][2] = -5  # a bad distance
    write_trips(path, rows)

    with pytest.raises(MirrorRefusedError, match="rows are rejected"):
        load_trips(tenant, path, mirror=True)

    assert len(travels_in_service(tenant)) == 10


def test_a_mirror_that_would_delete_most_of_its_source_refuses_unless_allowed(
    tenant: Tenant,
) -> None:
    path = write_trips(tenant.workdir / "t.xlsx", trips(10))
    load_trips(tenant, path)
    write_trips(path, trips(10)[:4])

    with pytest.raises(MirrorRefusedError, match="would delete 6 of the 10 records"):
        load_trips(tenant, path, mirror=True)
    dry = load_trips(tenant, path, mirror=True, allow_mass_delete=True, dry_run=True)
    allowed = load_trips(tenant, path, mirror=True, allow_mass_delete=True)

    assert any("--mirror would delete 6 record(s)" in note for note in dry.notes), dry.notes
    assert allowed.rows_deleted == 6
    assert len(travels_in_service(tenant)) == 4


def test_the_inbox_folder_inside_a_resource_folder_names_the_source(tenant: Tenant) -> None:
    folder = tenant.workdir / "inbox" / "business_travels" / "agency"
    folder.mkdir(parents=True)
    write_trips(folder / "2026-10.xlsx", trips(3))
    write_trips(folder / "2026-11.xlsx", [*trips(1, first_day=9), *trips(3)])

    loads = [load_trips(tenant, path) for path in sorted(folder.iterdir())]

    assert [s.source_name for s in loads] == ["agency", "agency"]
    assert [s.rows_sent for s in loads] == [3, 1]


def test_rebuild_warehouse_restores_mapping_and_co2e_so_the_next_load_creates_nothing(
    tenant: Tenant,
) -> None:
    loaded = {}
    for resource in ("facilities", "vehicles", "vehicle_consumptions", "business_travels"):
        example = EXAMPLES[resource]
        load_parents(tenant, example)
        path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
        load(tenant, resource, path)
        loaded[resource] = path
    env = {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(tenant.workdir / "rebuilt.duckdb"),
    }

    done = run_etl(["rebuild-warehouse"], env=env, timeout=180)

    assert done.returncode == 0, done.stderr
    assert "business_travels: 6 record(s) keep no key in the service" in done.stdout
    rebuilt = Warehouse(tenant.workdir / "rebuilt.duckdb")
    # Activity records (a load lands aggregates before their children's co2e is summed).
    totals = (
        "SELECT resource, round(coalesce(sum(co2e_kg), 0), 6) AS kg FROM emissions "
        "WHERE NOT is_aggregate GROUP BY ALL ORDER BY 1"
    )
    assert rebuilt.query(totals).to_dict("records") == tenant.warehouse.query(totals).to_dict(
        "records"
    )
    counts = "SELECT resource, count(*) AS n FROM emissions GROUP BY ALL"
    with tenant.client() as client:  # every record of the service, made by a load or not
        assert {r["resource"]: r["n"] for r in rebuilt.query(counts).to_dict("records")} == {
            "facilities": len(list(client.iter_items("/v1/facilities"))),
            **{r: EXAMPLES[r].count(client) for r in loaded if r != "facilities"},
        }
    with tenant.client() as client:
        for resource, path in loaded.items():
            again = load_file(
                path,
                api=client,
                warehouse=rebuilt,
                spec=resource_spec(resource),
                options=LoadOptions(),
            )
            assert again.rows_sent == 0, (resource, again)
