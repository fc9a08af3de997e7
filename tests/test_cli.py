"""The `emissions-etl` command as people run it: exit codes, one-line errors, rejects files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import openpyxl

from .pipeline.tenancy import Tenant, tenant, waste_row, write_wastes_xlsx

__all__ = ["tenant"]
CLI = str(Path(sys.executable).with_name("emissions-etl"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_validate_exits_0_when_every_row_is_valid(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(n) for n in range(3)])
    done = run("validate", str(path))
    assert done.returncode == 0, done.stderr
    assert "3 rows read, 3 valid, 0 rejected" in done.stdout


def test_validate_exits_1_and_writes_rejects_as_json(tmp_path: Path) -> None:
    rows = [waste_row(1), waste_row(2, quantity="lots")]
    path = write_wastes_xlsx(tmp_path / "bad.xlsx", rows)
    done = run("validate", str(path), "--rejects", str(tmp_path / "rejects.json"))
    assert done.returncode == 1
    rejects = json.loads((tmp_path / "rejects.json").read_text())
    assert [(r["row"], r["column"], r["value"]) for r in rejects] == [(5, "Base quantity", "lots")]


def test_validate_writes_an_annotated_copy_of_the_workbook(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "bad.xlsx", [waste_row(1, quantity=-2)])
    out = tmp_path / "annotated.xlsx"
    assert run("validate", str(path), "--rejects", str(out)).returncode == 1
    sheet = openpyxl.load_workbook(out)["Wastes"]
    assert sheet["E4"].comment is not None
    assert "greater than 0" in sheet["E4"].comment.text


def test_a_file_that_cannot_be_used_exits_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.csv").write_text("just,some,words\n1,2,3\n")
    for target in (tmp_path / "missing.xlsx", tmp_path / "notes.csv"):
        done = run("validate", str(target))
        assert done.returncode == 2
        assert done.stderr.strip().count("\n") == 0
        assert "Traceback" not in done.stderr


def test_load_without_settings_exits_2_naming_what_is_missing(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(1)])
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    done = run("load", str(path), env=env)
    assert done.returncode == 2
    assert "EMISSIONS_API_URL" in done.stderr


def test_load_reports_rejected_rows_with_exit_1_and_never_prints_the_key(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(1), waste_row(2, facility="X")])
    other = write_wastes_xlsx(tenant.workdir / "v.xlsx", [waste_row(3, quantity=0)])
    env = {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(tenant.workdir / "w.duckdb"),
    }
    done = run("load", str(path), str(other), "--rejects", str(tenant.workdir / "r.json"), env=env)
    assert done.returncode == 1, done.stderr
    assert "partial" in done.stdout
    assert tenant.api_key not in done.stdout + done.stderr
    rejects = json.loads((tenant.workdir / "r.json").read_text())
    assert [(r["file"], r["code"]) for r in rejects] == [  # sorted by file, sheet, row
        ("v.xlsx", "NOT_POSITIVE"),
        ("w.xlsx", "UNKNOWN_FACILITY"),
    ]
