"""What comes from a file, the warehouse or the service is printed as it is: a value that looks
like rich's markup (``[/x]``, ``[bold]...[/bold]``) is text, never a style nor a traceback."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.test_cli import service_env

from .pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx

__all__ = ["tenant"]
MARKUP = "[bold]Madrid[/bold] [/x]"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = run_etl([*args], timeout=180, env={**os.environ, "COLUMNS": "80", **(env or {})})
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def test_sql_prints_a_closing_tag_and_a_style_in_a_table_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    with Warehouse(path).writer():
        pass

    done = run("sql", "--warehouse", str(path), "--format", "table",
               "SELECT '[/x]' AS a, '[bold]b[/bold]' AS \"[red]c\"")  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "[/x]" in done.stdout
    assert "[bold]b[/bold]" in done.stdout
    assert "[red]c" in done.stdout


def test_validate_prints_a_file_named_like_markup_and_its_rejects_file_as_they_are(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "[red]out"
    folder.mkdir()
    path = write_wastes_xlsx(folder / "[b]w[i].xlsx", [waste_row(1), waste_row(2, quantity=0)])
    target = folder / "[red]r.json"

    done = run("validate", "--resource", "wastes", str(path), "--rejects", str(target))

    assert done.returncode == 1, done.stderr
    assert "[b]w[i].xlsx (wastes): 2 rows read, 1 valid, 1 rejected" in done.stdout
    assert "[b]w[i].xlsx sheet Wastes row 5, Base quantity:" in done.stdout
    assert f"rejects written to {target}" in done.stdout
    assert json.loads(target.read_text())[0]["file"] == "[b]w[i].xlsx"


def test_validate_prints_a_rejected_value_like_markup_as_it_is(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "w.xlsx", [waste_row(1, quantity=MARKUP)])

    done = run("validate", str(path))

    assert done.returncode == 1, done.stderr
    assert f"got '{MARKUP}'" in done.stdout


def test_an_error_naming_a_file_like_markup_prints_it_as_it_is(tmp_path: Path) -> None:
    done = run("validate", str(tmp_path / "[/x][bold]missing.xlsx"))

    assert done.returncode == 2
    assert "[/x][bold]missing.xlsx" in done.stderr
    assert done.stderr.startswith("error: ")


def test_loads_summary_prints_a_file_and_a_facility_like_markup_as_they_are(
    tenant: Tenant,
) -> None:
    path = write_wastes_xlsx(tenant.workdir / "[b]w[i].xlsx",
                             [waste_row(1), waste_row(2, facility=MARKUP)])  # fmt: skip
    done = run("load", str(path), env=service_env(tenant))

    assert done.returncode == 1, done.stderr
    summary_row = next(line for line in done.stdout.splitlines() if "partial" in line)
    assert "[b]w[i].xlsx" in summary_row
    assert "[b]w[i].xlsx: 1 rejected cell(s) in 1 row(s)" in done.stdout
    assert f"Facility: No facility '{MARKUP}' in this organization" in done.stdout
