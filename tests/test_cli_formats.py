"""`emissions-etl validate` and `load` on the formats people send besides xlsx: a legacy .xls, an
.ods, an .xlsb and the HTML table SAP names .xls give the same rows, the same rejects (at the
row and column the file shows) and, loaded over a served sandbox, the same co2e as the same
waste register in .xlsx; ``--rejects OUT.xlsx`` writes an annotated .xlsx copy of each and says
that the original format is not written back."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.warehouse import Warehouse
from tests.format_builders import (
    REGISTER_REJECTS,
    WASTE_REGISTER,
    XLSB_FIXTURE,
    register_xlsx,
    write_html,
    write_ods,
    write_xls,
)
from tests.pipeline.tenancy import new_tenant
from tests.test_cli import run, service_env

#: How each format's copy of the register is made, and the name it is given.
WRITERS: dict[str, tuple[str, Callable[[Path], object]]] = {
    "xls": ("register.xls", lambda p: write_xls(p, {"Wastes": WASTE_REGISTER})),
    "ods": ("register.ods", lambda p: write_ods(p, {"Wastes": WASTE_REGISTER})),
    "xlsb": ("register.xlsb", lambda p: shutil.copy(XLSB_FIXTURE, p)),
    "html": ("ZWASTE_export.xls", lambda p: write_html(p, WASTE_REGISTER, charset="windows-1252")),
}


def register(folder: Path, kind: str) -> Path:
    name, write = WRITERS[kind]
    path = folder / name
    write(path)
    return path


def validate(path: Path, rejects: Path) -> tuple[str, set[tuple[int, str, str]]]:
    done = run("validate", str(path), "--rejects", str(rejects))
    assert done.returncode == 1, done.stdout + done.stderr
    found = {(r["row"], r["column"], r["code"]) for r in json.loads(rejects.read_text())}
    return done.stdout.splitlines()[0].split(": ", 1)[1], found


@pytest.mark.parametrize("kind", list(WRITERS))
def test_validate_gives_the_rows_and_rejects_of_the_same_data_in_xlsx(
    tmp_path: Path, kind: str
) -> None:
    xlsx = validate(register_xlsx(tmp_path / "register.xlsx"), tmp_path / "x.json")

    other = validate(register(tmp_path, kind), tmp_path / "o.json")

    assert other == xlsx
    assert xlsx == ("5 rows read, 3 valid, 2 rejected", REGISTER_REJECTS)


@pytest.mark.parametrize("kind", list(WRITERS))
def test_rejects_as_xlsx_annotate_a_copy_and_say_the_format_is_not_written_back(
    tmp_path: Path, kind: str
) -> None:
    out = tmp_path / "rejects.xlsx"

    done = run("validate", str(register(tmp_path, kind)), "--rejects", str(out))

    assert done.returncode == 1, done.stdout + done.stderr
    [warning] = [line for line in done.stderr.splitlines() if line.strip()]
    assert "annotated copy is an .xlsx" in warning
    copy = openpyxl.load_workbook(out)
    sheet = copy.worksheets[0]
    assert sheet["B4"].value == "INV-00001"  # rows and columns where the file has them
    assert "number" in sheet["E6"].comment.text
    assert "#DIV/0!" in sheet["E7"].comment.text


@pytest.mark.parametrize("kind", list(WRITERS))
def test_load_lands_the_rows_and_co2e_of_the_same_data_in_xlsx(
    sandbox, tmp_path: Path, kind: str
) -> None:  # type: ignore[no-untyped-def]
    landed = {}
    for name, make in (("xlsx", register_xlsx), (kind, lambda p: register(p.parent, kind))):
        folder = tmp_path / name
        folder.mkdir()
        tenant = new_tenant(sandbox, folder)
        path = make(folder / "register.xlsx")
        done = run("load", str(path), env=service_env(tenant))
        assert done.returncode == 1, done.stdout + done.stderr  # loaded, with rejects
        landed[name] = Warehouse(folder / "w.duckdb").query(
            "SELECT source_row, activity_date, round(co2e_kg, 6) AS co2e, facility_name "
            "FROM emissions ORDER BY source_row"
        ).to_dict("records")

    assert landed[kind] == landed["xlsx"]
    assert [row["source_row"] for row in landed["xlsx"]] == [4, 5, 8]
    assert all(row["co2e"] > 0 for row in landed["xlsx"])
