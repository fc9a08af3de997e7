"""A workbook is planned sheet by sheet: each sheet to the resource its name or header fits, the
sheets that fit nothing named as not loaded, the ones that cannot be told apart refused (no
guessing), and nothing of a sheet given to a resource it was not meant for. Offline: real
workbooks written by openpyxl, no service."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from emissions_etl.errors import (
    AmbiguousSourceError,
    SheetNotFoundError,
    UnsupportedSourceError,
)
from emissions_etl.loading.file_plan import PlannedFile, plan_file
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.loading.sheet_names import _names, read_sheet_name
from emissions_etl.resources import RESOURCES, resource_spec

from .workbooks import NOTES, SHEETS, SUMMARY, data_collection, write_workbook

ROOT = Path(__file__).parents[2]


def loads(planned: list[PlannedFile]) -> dict[str, tuple[str, ...]]:
    return {entry.spec.name: entry.sheets for entry in planned if entry.spec is not None}


def not_loaded(planned: list[PlannedFile]) -> dict[str, str]:
    return {entry.sheets[0]: entry.problem for entry in planned if entry.spec is None}


def test_each_sheet_goes_to_the_resource_its_name_and_header_fit(tmp_path: Path) -> None:
    planned = plan_file(data_collection(tmp_path / "datos.xlsx"))

    assert loads(planned) == {
        "vehicle_consumptions": ("Consumos",),
        "business_travels": ("Viajes",),
        "wastes": ("Residuos",),
        "vehicles": ("Flota",),
        "facilities": ("Centros",),
    }
    assert not_loaded(planned) == {
        "Notas": "not loaded, its header fits no resource",
        "Resumen": "not loaded, its header fits no resource",
    }
    assert all(entry.skipped for entry in planned if entry.spec is None)
    # Every entry knows where each sheet of its workbook went, in the workbook's order.
    fates = [(fate.sheet, fate.resource or fate.not_loaded) for fate in planned[0].workbook]
    assert fates == [
        ("Notas", "not loaded, its header fits no resource"),
        ("Consumos", "vehicle_consumptions"),
        ("Viajes", "business_travels"),
        ("Residuos", "wastes"),
        ("Flota", "vehicles"),
        ("Centros", "facilities"),
        ("Resumen", "not loaded, its header fits no resource"),
    ]


def test_with_the_facilities_sheet_first_the_fleet_is_still_vehicles(tmp_path: Path) -> None:
    # The issue: the workbook was taken as facilities, and the van "Furgo 1" (a name, a type and
    # a country) became a facility of type freight.
    order = ["Centros", "Flota", "Consumos", "Viajes", "Residuos", "Resumen"]
    planned = plan_file(data_collection(tmp_path / "datos.xlsx", order))

    assert loads(planned)["facilities"] == ("Centros",)
    assert loads(planned)["vehicles"] == ("Flota",)
    assert not_loaded(planned) == {"Resumen": "not loaded, its header fits no resource"}


def test_a_header_fitting_two_resources_equally_is_refused_naming_them(tmp_path: Path) -> None:
    both = [["Nombre", "Tipo", "País"], ["Almacén Norte", "warehouse", "ES"]]
    path = write_workbook(tmp_path / "w.xlsx", [("Datos", both), ("Flota", SHEETS["Flota"])])

    planned = plan_file(path)

    assert loads(planned) == {"vehicles": ("Flota",)}
    [refused] = [entry for entry in planned if entry.spec is None]
    assert not refused.skipped
    assert refused.error is AmbiguousSourceError
    assert refused.problem.startswith(
        "its header fits facilities and logistic_hubs equally (3 columns each)"
    )
    assert "name the sheet after its resource (facilities or logistic_hubs)" in refused.problem


def test_the_sheets_name_tells_apart_a_header_two_resources_fit(tmp_path: Path) -> None:
    both = [["Nombre", "Tipo", "País"], ["Almacén Norte", "warehouse", "ES"]]
    path = write_workbook(tmp_path / "w.xlsx", [("Centros", both), ("Hubs logísticos", both)])

    assert loads(plan_file(path)) == {
        "facilities": ("Centros",),
        "logistic_hubs": ("Hubs logísticos",),
    }


def test_a_sheet_whose_name_says_one_resource_and_header_another_is_refused(
    tmp_path: Path,
) -> None:
    path = write_workbook(
        tmp_path / "w.xlsx", [("Centros", SHEETS["Flota"]), ("Viajes", SHEETS["Viajes"])]
    )

    planned = plan_file(path)

    assert loads(planned) == {"business_travels": ("Viajes",)}
    [refused] = [entry for entry in planned if entry.spec is None]
    assert refused.error is AmbiguousSourceError
    assert refused.problem.startswith("its name says facilities but its header fits vehicles")


def test_a_sheet_missing_a_required_column_is_an_error_naming_it(tmp_path: Path) -> None:
    fleet = [[cell for i, cell in enumerate(row) if i != 4] for row in SHEETS["Flota"]]
    wastes = [row[:6] + row[7:] for row in SHEETS["Residuos"]]  # no LER code
    sites = [row[:2] + row[3:] for row in SHEETS["Centros"]]  # no country: a hub's columns
    path = write_workbook(
        tmp_path / "w.xlsx",
        [("Flota", fleet), ("Hoja1", wastes), ("Hoja2", sites), ("Viajes", SHEETS["Viajes"])],
    )

    planned = plan_file(path)

    assert loads(planned) == {"business_travels": ("Viajes",)}
    problems = not_loaded(planned)
    assert problems["Flota"] == "its name says vehicles but its header lacks unknown_vehicle"
    assert problems["Hoja1"] == "its header is close to wastes but lacks ler_code"
    assert problems["Hoja2"].startswith(
        "its header fits logistic_hubs but names more columns of facilities (4 against 3), "
        "which needs country"
    )
    assert not any(entry.skipped for entry in planned if entry.spec is None)


def test_a_summary_is_skipped_by_its_name_even_when_its_header_fits(tmp_path: Path) -> None:
    # A summary of trips by date and mode reads like trips; its name says what it is.
    summary = [["Fecha", "Medio de transporte", "Km"], ["2026-01-01", "train", 1200]]
    path = write_workbook(
        tmp_path / "w.xlsx", [("Viajes", SHEETS["Viajes"]), ("Resumen viajes", summary)]
    )

    planned = plan_file(path)

    assert loads(planned) == {"business_travels": ("Viajes",)}
    assert not_loaded(planned) == {
        "Resumen viajes": "not loaded, its name marks notes or a summary"
    }


def test_a_lone_date_column_makes_no_resource(tmp_path: Path) -> None:
    pivot = [["Mes", "Fecha", "Suma de kg"], ["enero", "2026-01-31", 120]]
    path = write_workbook(tmp_path / "w.xlsx", [("Hoja3", pivot), ("Viajes", SHEETS["Viajes"])])

    assert not_loaded(plan_file(path)) == {"Hoja3": "not loaded, its header fits no resource"}


def test_a_sheet_left_empty_is_skipped(tmp_path: Path) -> None:
    path = write_workbook(
        tmp_path / "w.xlsx", [("Centros", SHEETS["Centros"][:1]), ("Viajes", SHEETS["Viajes"])]
    )

    assert not_loaded(plan_file(path)) == {"Centros": "not loaded, no rows under its header"}


def test_sheets_picked_by_name_are_the_only_ones_and_are_never_skipped(tmp_path: Path) -> None:
    path = data_collection(tmp_path / "datos.xlsx")

    planned = plan_file(path, sheets=("Flota", "Viajes"))
    notes = plan_file(path, sheets=("Notas", "Flota"))

    assert loads(planned) == {"vehicles": ("Flota",), "business_travels": ("Viajes",)}
    assert not_loaded(planned) == {}
    [refused] = [entry for entry in notes if entry.spec is None]
    assert not refused.skipped  # picked, so meant to load: an error
    assert refused.problem.startswith("its header fits no resource; closest:")
    with pytest.raises(SheetNotFoundError, match="no sheet named 'Fleet'; sheets: Notas, "):
        plan_file(path, sheets=("Fleet",))


def test_a_resource_named_takes_every_sheet_whose_header_fits_it(tmp_path: Path) -> None:
    path = data_collection(tmp_path / "datos.xlsx", ["Centros", "Flota", "Viajes"])

    planned = plan_file(path, spec=resource_spec("facilities"))

    # As before workbooks were read by sheet: the fleet's header fits facilities too.
    assert loads(planned) == {"facilities": ("Centros", "Flota")}
    assert not_loaded(planned) == {"Viajes": "not loaded, its header does not fit facilities"}


def test_a_workbook_with_nothing_to_load_is_refused_in_one_line(tmp_path: Path) -> None:
    nothing = write_workbook(tmp_path / "n.xlsx", [("Notas", NOTES), ("Resumen", SUMMARY)])
    refused = write_workbook(
        tmp_path / "r.xlsx", [("Notas", NOTES), ("Datos", [["Nombre", "Tipo", "País"], [1, 2, 3]])]
    )
    empty = write_workbook(tmp_path / "e.xlsx", [("Centros", SHEETS["Centros"][:1])])

    with pytest.raises(UnsupportedSourceError) as fits_none:
        plan_file(nothing)
    with pytest.raises(AmbiguousSourceError, match="sheet Datos: its header fits facilities"):
        plan_file(refused)
    with pytest.raises(UnsupportedSourceError, match="fits no resource") as alone:
        plan_file(write_workbook(tmp_path / "a.xlsx", [("Hoja1", NOTES)]))

    assert "\n" not in str(fits_none.value)
    assert "sheet Notas: not loaded, its header fits no resource; sheet Resumen" in str(
        fits_none.value
    )
    assert "closest:" in str(alone.value)
    # A workbook's only sheet is the data meant: a header with no rows is the file's error.
    assert [entry.spec.name for entry in plan_file(empty) if entry.spec] == ["facilities"]


def test_a_root_workbook_of_the_inbox_loads_sheet_by_sheet_parents_first(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    data_collection(inbox / "datos.xlsx")

    planned = plan_inbox(inbox)

    order = [entry.spec.name if entry.spec else entry.label for entry in planned]
    assert order[:2] == ["datos.xlsx sheet Notas", "datos.xlsx sheet Resumen"]
    assert order.index("facilities") < order.index("wastes")
    assert order.index("vehicles") < order.index("vehicle_consumptions")
    assert {entry.label for entry in planned if entry.spec} == {
        f"datos.xlsx sheet {sheet}" for sheet in SHEETS
    }


def test_the_inbox_picks_up_every_format_read_and_plans_each_by_its_content(
    tmp_path: Path,
) -> None:
    from tests.format_builders import write_html, write_ods, write_xls, write_xlsb

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    fleet, trips = SHEETS["Flota"], SHEETS["Viajes"]
    write_xls(inbox / "flota.xls", {"Flota": fleet})
    write_ods(inbox / "viajes.ods", {"Viajes": trips})
    write_xlsb(inbox / "centros.xlsb", {"Centros": SHEETS["Centros"]})
    write_html(inbox / "SAP_export.XLS", SHEETS["Residuos"])  # an HTML table SAP calls .xls
    write_html(inbox / "consumos.htm", SHEETS["Consumos"])
    (inbox / "notes.pdf").write_bytes(b"%PDF-1.7")  # not picked up

    planned = plan_inbox(inbox)

    assert {entry.path.name: entry.spec.name for entry in planned if entry.spec} == {
        "flota.xls": "vehicles", "viajes.ods": "business_travels", "centros.xlsb": "facilities",
        "SAP_export.XLS": "wastes", "consumos.htm": "vehicle_consumptions",
    }  # fmt: skip
    assert all(entry.spec is not None for entry in planned)


def test_every_sample_file_put_at_the_inbox_root_goes_to_its_folders_resource() -> None:
    samples = sorted((ROOT / "sample_data" / "inbox").glob("*/*.*"))
    files = [path for path in samples if path.suffix in (".xlsx", ".csv", ".txt")]
    assert len(files) >= 15

    for path in files:
        planned = plan_file(path)  # no folder: as if the file were at the inbox's root
        assert {entry.spec.name for entry in planned if entry.spec} == {path.parent.name}, path
        assert all(entry.spec is not None for entry in planned), path


@pytest.mark.parametrize(
    ("sheet", "resource"),
    [
        ("Centros", "facilities"),
        ("Instalaciones", "facilities"),
        ("Instal·lacions", "facilities"),
        ("Standorte", "facilities"),
        ("Centros logísticos", "logistic_hubs"),
        ("Flota", "vehicles"),
        ("Vehículos", "vehicles"),
        ("Frota", "vehicles"),
        ("Fuhrpark", "vehicles"),
        ("Véhicules", "vehicles"),
        ("Consumos de flota", "vehicle_consumptions"),
        ("Consommations", "vehicle_consumptions"),
        ("Viajes 2026", "business_travels"),
        ("Viagens", "business_travels"),
        ("Dienstreisen", "business_travels"),
        ("Compras T1", "purchases"),
        ("Achats", "purchases"),
        ("Empleados", "employees"),
        ("Mitarbeiter", "employees"),
        ("Residuos", "wastes"),
        ("Déchets", "wastes"),
        ("Residus", "wastes"),
        ("Envíos", "logistics_requests"),
        ("Recargas", "logistics_recharges"),
        ("Movilidad", "commuting_periods"),
        ("vehicle_consumptions", "vehicle_consumptions"),
        ("business_travels", "business_travels"),
    ],
)
def test_sheet_names_are_read_in_the_languages_our_users_write(sheet: str, resource: str) -> None:
    said = read_sheet_name(sheet)
    assert said.resources == {resource}
    assert not said.not_data


def test_a_name_for_two_resources_leaves_the_choice_to_the_header() -> None:
    assert read_sheet_name("Desplazamientos").resources == {"business_travels",
                                                            "commuting_periods"}  # fmt: skip
    assert read_sheet_name("Repostajes").resources == {"vehicle_consumptions",
                                                       "logistics_recharges"}  # fmt: skip


@pytest.mark.parametrize("sheet", ["Notas", "Resumen", "Summary", "Übersicht", "About", "Índice"])
def test_notes_and_summaries_are_known_by_their_names(sheet: str) -> None:
    assert read_sheet_name(sheet).not_data


def test_the_sheet_names_file_names_every_resource_and_no_other() -> None:
    named = {resource for _, resource in _names()} - {"-"}
    assert named == set(RESOURCES)
    for name in RESOURCES:  # what `template` calls its sheets
        assert read_sheet_name(name).resources == {name}


def test_a_fuel_card_statement_is_the_resource_its_sheet_is_named_after(tmp_path: Path) -> None:
    # One layout, two profiles (fuel_card: recharges; fuel_card_fleet: the fleet's consumptions):
    # the header alone says recharges, as a file's always did; the sheet's name can say which.
    statement = ROOT / "sample_data" / "profiles" / "fuel_card" / "solred_extracto_2026-03.xlsx"
    source = openpyxl.load_workbook(statement).active
    assert source is not None
    rows = [list(row) for row in source.iter_rows(values_only=True)]
    path = write_workbook(
        tmp_path / "w.xlsx", [("Consumos", rows), ("Recargas", rows), ("Movimientos", rows)]
    )

    assert loads(plan_file(path)) == {
        "vehicle_consumptions": ("Consumos",),
        "logistics_recharges": ("Recargas", "Movimientos"),
    }
