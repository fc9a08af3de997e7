"""One data-collection workbook, many resources, over a served sandbox: every sheet loads as its
resource in one call, parents first whatever the sheets' order; notes and summaries are named,
in the outcomes and in the warehouse's run records; and a sheet renamed or moved, or a resource
spread over two sheets, keeps every row's identity (nothing is created twice); a mirror deletes
nothing while a sheet of the workbook is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from emissions_etl.errors import MirrorRefusedError
from emissions_etl.loading.file_loads import FileOutcome, load_files
from emissions_etl.loading.file_plan import plan_file
from emissions_etl.loading.pipeline import LoadOptions
from emissions_etl.settings import Settings
from tests.resources.examples import EXAMPLES

from .tenancy import Tenant
from .workbooks import LOADS, SHEETS, data_collection, rename_sheets, write_workbook


def load_workbook(tenant: Tenant, path: Path, **options: Any) -> list[FileOutcome]:
    """``path`` planned and loaded as ``emissions-etl load`` does, in one call."""
    settings = Settings(
        api_url=tenant.base_url,
        api_key=SecretStr(tenant.api_key),
        organization_id=tenant.organization_id,
        ca_file=tenant.ca_file,
        warehouse=tenant.warehouse.path,
    )
    return load_files(plan_file(path), settings=settings, options=LoadOptions(**options))


def in_service(tenant: Tenant) -> dict[str, int]:
    """Records of the workbook's resources the organization holds now."""
    with tenant.client() as client:
        return {resource: EXAMPLES[resource].count(client) for resource, _ in LOADS.values()}


@pytest.mark.parametrize(
    "order",
    [
        ["Notas", "Consumos", "Viajes", "Residuos", "Flota", "Centros", "Resumen"],
        ["Centros", "Notas", "Flota", "Consumos", "Viajes", "Residuos", "Resumen"],
    ],
    ids=["notes-first-children-before-parents", "facilities-first"],
)
def test_every_sheet_loads_as_its_resource_in_one_call_parents_first(
    tenant: Tenant, order: list[str]
) -> None:
    path = data_collection(tenant.workdir / "datos_sostenibilidad_2026.xlsx", order)

    outcomes = load_workbook(tenant, path)

    loaded = {o.label: (o.resource, o.outcome, o.summary.rows_loaded)
              for o in outcomes if o.summary is not None}  # fmt: skip
    assert loaded == {
        f"{path.name} sheet {sheet}": (resource, "succeeded", rows)
        for sheet, (resource, rows) in LOADS.items()
    }
    skipped = {o.label: (o.outcome, o.reason) for o in outcomes if o.summary is None}
    assert skipped == {
        f"{path.name} sheet Resumen": ("skipped", "not loaded, its header fits no resource"),
        **({f"{path.name} sheet Notas": ("skipped", "not loaded, its header fits no resource")}
           if "Notas" in order else {}),
    }  # fmt: skip
    assert in_service(tenant) == dict(LOADS.values())
    with tenant.client() as client:
        facilities = {item["name"] for item in client.iter_items("/v1/facilities")}
    assert "Furgo 1" not in facilities  # the issue: the van was created as a facility
    runs = tenant.warehouse.query(
        "SELECT resource, source_name, parameters FROM load_runs ORDER BY started_at"
    ).to_dict("records")
    started = [run["resource"] for run in runs]
    assert started.index("facilities") < started.index("wastes")
    assert started.index("vehicles") < started.index("vehicle_consumptions")
    assert {run["source_name"] for run in runs} == {path.name}  # one source per workbook
    for run in runs:
        parameters = json.loads(run["parameters"])
        fates = {fate["sheet"]: fate["resource"] or fate["not_loaded"]
                 for fate in parameters["workbook"]}  # fmt: skip
        assert fates["Resumen"] == "not loaded, its header fits no resource"
        assert fates["Flota"] == "vehicles"
        assert parameters["sheets"] == [s for s, (r, _) in LOADS.items() if r == run["resource"]]


def test_a_sheet_renamed_or_moved_creates_nothing_when_loaded_again(tenant: Tenant) -> None:
    path = data_collection(tenant.workdir / "datos.xlsx")
    first = load_workbook(tenant, path)
    assert all(o.outcome in ("succeeded", "skipped") for o in first), [o.reason for o in first]
    rename_sheets(
        path,
        {"Viajes": "Viajes 2026", "Consumos": "Consumos de flota", "Flota": "Vehículos",
         "Resumen": "Hoja5"},
        order=["Vehículos", "Centros", "Hoja5", "Consumos de flota", "Residuos", "Viajes 2026",
               "Notas"],
    )  # fmt: skip

    again = load_workbook(tenant, path)

    summaries = {o.resource: o.summary for o in again if o.summary is not None}
    assert set(summaries) == {resource for resource, _ in LOADS.values()}
    for resource, s in summaries.items():
        assert (s.outcome, s.rows_new, s.rows_adopted, s.rows_sent, s.rows_gone) == (
            "succeeded", 0, 0, 0, 0,
        ), resource  # fmt: skip
        assert s.rows_unchanged == s.rows_read
    assert in_service(tenant) == dict(LOADS.values())


def test_one_resource_over_two_sheets_keeps_identical_trips_two_whatever_their_order(
    tenant: Tenant,
) -> None:
    header, *trips = SHEETS["Viajes"]
    first_half = [header, trips[0], trips[1]]
    second_half = [header, trips[1], trips[2]]  # the bus trip again: a second, identical trip
    path = write_workbook(
        tenant.workdir / "viajes.xlsx",
        [("Viajes T1", first_half), ("Viajes T2", second_half), ("Flota", SHEETS["Flota"])],
    )

    first = {o.resource: o for o in load_workbook(tenant, path)}
    write_workbook(
        path,
        [("Flota", SHEETS["Flota"]), ("Viajes 2S", second_half), ("Viajes 1S", first_half)],
    )
    again = {o.resource: o.summary for o in load_workbook(tenant, path)}["business_travels"]

    travels = first["business_travels"]
    assert travels.label == "viajes.xlsx sheets Viajes T1, Viajes T2"
    assert travels.summary is not None
    assert (travels.summary.rows_read, travels.summary.rows_loaded) == (4, 4)
    assert again is not None
    assert (again.rows_new, again.rows_adopted, again.rows_unchanged) == (0, 0, 4)
    with tenant.client() as client:
        assert EXAMPLES["business_travels"].count(client) == 4
    # Two resources of one workbook share its source, never their keys.
    keys = tenant.warehouse.query(
        "SELECT resource, source_key FROM remote_ids ORDER BY resource, source_key"
    ).to_dict("records")
    trips = [k["source_key"] for k in keys if k["resource"] == "business_travels"]
    assert len(trips) == 4
    assert all(key.startswith("viajes.xlsx#") for key in trips)
    assert sorted(key.rsplit("#", 1)[1] for key in trips) == ["1", "1", "1", "2"]
    vehicles = first["vehicles"].summary
    assert vehicles is not None
    assert vehicles.rows_loaded == 3
    # A plate is a key of its own, whatever the workbook it came in.
    assert [k["source_key"] for k in keys if k["resource"] == "vehicles"] == [
        "1234klm", "5678lmn", "9012mnp"
    ]  # fmt: skip


def test_a_mirror_deletes_nothing_while_a_sheet_of_the_workbook_is_refused(
    tenant: Tenant,
) -> None:
    header, *trips = SHEETS["Viajes"]
    both = [["Nombre", "Tipo", "País"], ["Almacén Norte", "warehouse", "ES"]]
    path = write_workbook(tenant.workdir / "datos.xlsx", [("Viajes", SHEETS["Viajes"])])
    load_workbook(tenant, path)
    write_workbook(path, [("Viajes", [header, *trips[:2]]), ("Datos", both)])

    refused = {o.resource: o for o in load_workbook(tenant, path, mirror=True)}
    write_workbook(path, [("Viajes", [header, *trips[:2]])])
    mirrored = {o.resource: o for o in load_workbook(tenant, path, mirror=True)}

    error = refused["business_travels"].error
    assert isinstance(error, MirrorRefusedError)
    assert "while sheets of the workbook are refused (Datos)" in str(error)
    assert refused["unknown"].reason.startswith("[AmbiguousSourceError]")
    deleted = mirrored["business_travels"].summary
    assert deleted is not None
    assert deleted.rows_deleted == 1
    with tenant.client() as client:
        assert EXAMPLES["business_travels"].count(client) == 2
