"""A cell of an export that shows a spreadsheet error is a FORMULA_ERROR at its own header, before
a profile's table or join could make a value of it (``emissions-etl validate``, offline)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.profiles.conftest import run_cli


def test_formula_errors_in_an_export_are_rejected_where_they_are(tmp_path: Path) -> None:
    statement = tmp_path / "extracto.csv"
    statement.write_text(
        "Fecha;Nº Tarjeta;Matrícula;País;Producto;Litros\n"
        "14/03/2026;7078 1200 0002 4411;4821 LKM;España;Diesel e+;312,45\n"
        "15/03/2026;7078 1200 0002 4411;4821 LKM;España;#N/A;100\n"  # a table's lookup
        "16/03/2026;7078 1200 0002 4411;#REF!;España;Diesel e+;#DIV/0!\n",  # kept, read as is
        encoding="utf-8",
    )
    rejects = tmp_path / "rejects.json"

    done = run_cli("validate", statement, "--profile", "fuel_card", "--rejects", rejects)

    assert done.returncode == 1, done.stdout + done.stderr
    listed = json.loads(rejects.read_text())
    found = {(r["row"], r["column"], r["code"], r["value"]) for r in listed}
    assert found == {
        (3, "Producto", "FORMULA_ERROR", "#N/A"),  # not UNMAPPED_VALUE: no product is "#N/A"
        (4, "Matrícula", "FORMULA_ERROR", "#REF!"),
        (4, "Litros", "FORMULA_ERROR", "#DIV/0!"),
    }
    assert "1 valid, 2 rejected" in done.stdout
