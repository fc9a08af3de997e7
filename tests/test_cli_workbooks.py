"""`emissions-etl` on one workbook of many resources, as people run it: every sheet loads as its
resource in one call and the sheets not loaded are named; a sheet that cannot be told apart is
one error line while the others load; validate reports per sheet and annotates every sheet of
the rejects copy; --sheet repeats; a combined template, filled in, loads back as it is."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tests.pipeline.tenancy import Tenant, tenant
from tests.pipeline.workbooks import LOADS, SHEETS, data_collection, write_workbook
from tests.resources.examples import EXAMPLES
from tests.test_cli import run, service_env

__all__ = ["tenant"]


def counts(tenant: Tenant, *resources: str) -> dict[str, int]:
    with tenant.client() as client:
        return {resource: EXAMPLES[resource].count(client) for resource in resources}


def test_load_takes_every_sheet_as_its_resource_and_names_the_ones_it_skips(
    tenant: Tenant,
) -> None:
    path = data_collection(tenant.workdir / "datos_sostenibilidad_2026.xlsx")

    done = run("load", str(path), env=service_env(tenant))

    assert done.returncode == 0, done.stdout + done.stderr
    for sheet, (resource, _) in LOADS.items():
        [line] = [line for line in done.stdout.splitlines() if f"sheet {sheet} " in line]
        assert f" {resource} " in line
        assert " succeeded " in line
    assert f"{path.name} sheet Notas: not loaded, its header fits no resource" in done.stdout
    assert f"{path.name} sheet Resumen: not loaded, its header fits no resource" in done.stdout
    assert counts(tenant, *(r for r, _ in LOADS.values())) == dict(LOADS.values())


def test_a_sheet_fitting_two_resources_is_refused_naming_them_while_the_others_load(
    tenant: Tenant,
) -> None:
    both = [["Nombre", "Tipo", "País"], ["Almacén Norte", "warehouse", "ES"]]
    path = write_workbook(
        tenant.workdir / "datos.xlsx",
        [("Datos", both), ("Flota", SHEETS["Flota"]), ("Viajes", SHEETS["Viajes"])],
    )

    done = run("load", str(path), env=service_env(tenant))

    assert done.returncode == 2, done.stdout + done.stderr
    # (The other sheets' stages are told in lines of their own: stderr is no terminal.)
    [error] = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert error.startswith(f"error: {path}: sheet Datos: its header fits facilities and ")
    assert "logistic_hubs equally" in error
    assert counts(tenant, "vehicles", "business_travels", "facilities") == {
        "vehicles": 3, "business_travels": 3, "facilities": 0,
    }  # fmt: skip


def test_validate_reports_per_sheet_and_annotates_every_sheet_of_the_rejects_copy(
    tmp_path: Path,
) -> None:
    fleet = [row[:] for row in SHEETS["Flota"]]
    fleet[2][3] = "borrowed"  # ownership
    trips = [row[:] for row in SHEETS["Viajes"]]
    trips[3][5] = "tres"  # travellers
    path = write_workbook(
        tmp_path / "datos.xlsx",
        [("Notas", [["Léame"]]), ("Flota", fleet), ("Viajes", trips),
         ("Centros", SHEETS["Centros"])],
    )  # fmt: skip
    out = tmp_path / "rejects.xlsx"

    done = run("validate", str(path), "--rejects", str(out))

    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[:4] == [
        "datos.xlsx sheet Notas: not loaded, its header fits no resource",
        "datos.xlsx sheet Flota (vehicles): 3 rows read, 2 valid, 1 rejected",
        "datos.xlsx sheet Viajes (business_travels): 3 rows read, 2 valid, 1 rejected",
        "datos.xlsx sheet Centros (facilities): 3 rows read, 3 valid, 0 rejected",
    ]
    annotated = openpyxl.load_workbook(out)
    assert annotated["Flota"]["D3"].comment is not None
    assert annotated["Viajes"]["F4"].comment is not None
    rejects = list(annotated["Rejects"].iter_rows(min_row=2, values_only=True))
    assert sorted((row[1], row[2], row[3]) for row in rejects) == [
        ("Flota", 3, "Régimen"), ("Viajes", 4, "Viajeros"),
    ]  # fmt: skip


def test_sheet_repeats_to_pick_the_sheets(tmp_path: Path) -> None:
    path = data_collection(tmp_path / "datos.xlsx")

    done = run("validate", str(path), "--sheet", "Flota", "--sheet", "Viajes")
    one = run("validate", str(path), "--sheet", "Centros")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [  # in the order picked
        "datos.xlsx sheet Flota (vehicles): 3 rows read, 3 valid, 0 rejected",
        "datos.xlsx sheet Viajes (business_travels): 3 rows read, 3 valid, 0 rejected",
    ]
    assert one.returncode == 0, one.stderr
    assert one.stdout.splitlines() == ["datos.xlsx (facilities): 3 rows read, 3 valid, 0 rejected"]


def test_a_combined_template_filled_in_loads_back_as_it_is(tenant: Tenant) -> None:
    out = tenant.workdir / "recogida_datos.xlsx"
    wanted = ("vehicle_consumptions", "facilities", "business_travels", "vehicles")
    written = run("template", *wanted, "--out", str(out), "--no-with-service")
    assert written.returncode == 0, written.stderr
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["facilities", "business_travels", "vehicles",
                               "vehicle_consumptions", "Lists", "About"]  # fmt: skip
    about = [row[0] for row in book["About"].iter_rows(values_only=True) if row and row[0]]
    assert [line.split(":")[0] for line in about if not line.startswith(("▸", "Fill", "Load",
            "column"))] == list(book.sheetnames[:4])  # fmt: skip
    for resource in wanted:  # filled in as a person would, under the template's own header
        example = EXAMPLES[resource]
        sheet = book[resource]
        header = [cell.value for cell in sheet[1]]
        for row in example.rows:
            values = dict(zip(example.header, row, strict=True))
            sheet.append([values.get(column) for column in header])
    book.save(out)

    done = run("load", str(out), env=service_env(tenant))

    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{out.name} sheet About: not loaded, its header fits no resource" in done.stdout
    assert "Lists" not in done.stdout  # hidden: nobody's data
    assert counts(tenant, *wanted) == {r: len(EXAMPLES[r].rows) for r in wanted}
