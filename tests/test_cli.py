"""The `emissions-etl` command as people run it: exit codes, one-line errors, the resource found
without being named, rejects printed and written, templates, and never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

import openpyxl

from emissions_etl.resources import resource_spec
from tests.cli_process import run_etl

from .pipeline.tenancy import HEADER, Tenant, tenant, waste_row, write_wastes_xlsx

__all__ = ["tenant"]
WASTES = resource_spec("wastes")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command with its output piped (as in scripts and CI), never a traceback."""
    done = run_etl([*args], timeout=180, env={**os.environ, "COLUMNS": "80", **(env or {})})
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def service_env(tenant: Tenant) -> dict[str, str]:
    return {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
        "EMISSIONS_WAREHOUSE": str(tenant.workdir / "w.duckdb"),
    }


def remote_wastes(tenant: Tenant) -> list[dict]:  # type: ignore[type-arg]
    with tenant.client() as client:
        return list(client.iter_wastes())


def one_line(text: str) -> bool:
    return text.strip() != "" and text.strip().count("\n") == 0


def test_version_prints_the_version_pyproject_gives_the_package() -> None:
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"emissions-etl {project['project']['version']}"


def test_validate_exits_0_when_every_row_is_valid(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(n) for n in range(3)])
    done = run("validate", str(path))
    assert done.returncode == 0, done.stderr
    assert "ok.xlsx (wastes): 3 rows read, 3 valid, 0 rejected" in done.stdout


def test_validate_exits_1_and_writes_rejects_as_json(tmp_path: Path) -> None:
    rows = [waste_row(1), waste_row(2, quantity="lots")]
    path = write_wastes_xlsx(tmp_path / "bad.xlsx", rows)
    done = run("validate", str(path), "--rejects", str(tmp_path / "rejects.json"))
    assert done.returncode == 1
    rejects = json.loads((tmp_path / "rejects.json").read_text())
    assert [(r["row"], r["column"], r["value"]) for r in rejects] == [(5, "Base quantity", "lots")]
    assert "bad.xlsx sheet Wastes row 5, Base quantity:" in done.stdout
    assert "got 'lots'. [INVALID_NUMBER]" in done.stdout


def test_validate_writes_an_annotated_copy_of_the_workbook(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "bad.xlsx", [waste_row(1, quantity=-2)])
    out = tmp_path / "annotated.xlsx"
    assert run("validate", str(path), "--rejects", str(out)).returncode == 1
    sheet = openpyxl.load_workbook(out)["Wastes"]
    assert sheet["E4"].comment is not None
    assert "greater than 0" in sheet["E4"].comment.text


def test_rejects_into_a_missing_folder_creates_the_folder(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "bad.xlsx", [waste_row(1, quantity=0)])
    target = tmp_path / "out" / "today" / "rejects.json"

    done = run("validate", str(path), "--rejects", str(target))

    assert done.returncode == 1, done.stderr
    assert [r["code"] for r in json.loads(target.read_text())] == ["NOT_POSITIVE"]


def test_a_stale_rejects_workbook_is_removed_when_a_later_run_has_none(tmp_path: Path) -> None:
    # (A stale JSON file becoming [] is checked on `load`, below.)
    bad = write_wastes_xlsx(tmp_path / "w.xlsx", [waste_row(1, quantity=0)])
    target = tmp_path / "r.xlsx"
    assert run("validate", str(bad), "--rejects", str(target)).returncode == 1
    assert "Rejects" in openpyxl.load_workbook(target).sheetnames

    fixed = write_wastes_xlsx(bad, [waste_row(1)])
    done = run("validate", str(fixed), "--rejects", str(target))

    assert done.returncode == 0, done.stderr
    assert not target.exists()
    assert f"no rejects: removed the earlier {target}" in done.stdout


def test_a_file_that_cannot_be_used_exits_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.csv").write_text("just,some,words\n1,2,3\n")
    (tmp_path / "broken.xlsx").write_bytes(os.urandom(2048))
    for target in ("missing.xlsx", "notes.csv", "broken.xlsx"):
        done = run("validate", str(tmp_path / target))
        assert done.returncode == 2, (target, done.stdout, done.stderr)
        assert one_line(done.stderr), done.stderr
        assert target in done.stderr


def test_a_header_only_workbook_exits_2_with_one_line(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "empty.xlsx", [])
    done = run("validate", str(path))
    assert done.returncode == 2
    assert one_line(done.stderr), done.stderr
    assert "no data rows" in done.stderr


def test_sheet_on_a_csv_warns_that_it_is_ignored(tmp_path: Path) -> None:
    lines = [",".join(HEADER), ",".join(str(cell) for cell in waste_row(1))]
    path = tmp_path / "w.csv"
    path.write_text("\n".join(lines) + "\n")

    done = run("validate", str(path), "--sheet", "Jan")

    assert done.returncode == 0, done.stderr
    assert "warning:" in done.stderr
    assert "--sheet 'Jan' is ignored" in done.stderr
    assert "1 rows read, 1 valid" in done.stdout


def test_validate_finds_the_resource_from_the_folder_name(tmp_path: Path) -> None:
    folder = tmp_path / "inbox" / "wastes"
    folder.mkdir(parents=True)
    path = write_wastes_xlsx(folder / "march.xlsx", [waste_row(1)])
    (folder / "notes.csv").write_text("just,some,words\n1,2,3\n")

    done = run("validate", str(path))
    unfit = run("validate", str(folder / "notes.csv"))

    assert done.returncode == 0, done.stderr
    assert "march.xlsx (wastes): 1 rows read" in done.stdout
    # The folder named the resource, so the file is judged as wastes, not matched by header.
    assert unfit.returncode == 2
    assert one_line(unfit.stderr)
    assert "wastes" in unfit.stderr
    assert "fits no resource" not in unfit.stderr


def test_validate_finds_the_resource_from_the_header(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "register.xlsx", [waste_row(1), waste_row(2)])
    done = run("validate", str(path))
    assert done.returncode == 0, done.stderr
    assert "register.xlsx (wastes): 2 rows read, 2 valid" in done.stdout


def test_a_file_fitting_no_resource_exits_2_naming_the_closest_resources(tmp_path: Path) -> None:
    path = tmp_path / "almost.csv"
    path.write_text("facility,identification_name,start_date,notes\nMadrid Warehouse,A,,x\n")

    done = run("validate", str(path))

    assert done.returncode == 2
    assert one_line(done.stderr), done.stderr
    assert "fits no resource" in done.stderr
    assert "closest: wastes (missing end_date, base_quantity, ler_code, rd_code)" in done.stderr
    assert "--resource" in done.stderr


def test_piped_output_is_not_cut_at_80_columns(tmp_path: Path) -> None:
    long_id = "ROW-" + "0123456789" * 12
    rows = [waste_row(1), waste_row(2), waste_row(3, quantity=-1)]
    path = write_wastes_xlsx(tmp_path / "w.xlsx", rows)
    book = openpyxl.load_workbook(path)
    sheet = book["Wastes"]
    sheet["J3"], sheet["J4"], sheet["J5"] = "Client row id", long_id, long_id
    book.save(path)

    done = run("validate", str(path))

    assert done.returncode == 1
    message = f"Client row id '{long_id}' is already used by row 4; give each row its own."
    assert message in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) > 80


def test_resources_lists_wastes_with_its_columns() -> None:
    done = run("resources")
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if " wastes " in line]
    columns = [f"{c}*" if c in WASTES.required_columns else c for c in WASTES.columns]
    assert ", ".join(columns) in line
    assert "facilities" in line  # loads after


def test_template_writes_a_workbook_with_the_columns_a_unit_dropdown_and_an_about_sheet(
    tmp_path: Path,
) -> None:
    out = tmp_path / "x.xlsx"
    done = run("template", "wastes", "--out", str(out), "--no-with-service")
    assert done.returncode == 0, done.stderr

    book = openpyxl.load_workbook(out)
    data = book.worksheets[0]
    header = [cell.value for cell in data[1]]
    assert header == list(WASTES.columns)
    unit_letter = openpyxl.utils.get_column_letter(header.index("unit") + 1)
    lists = [v for v in data.data_validations.dataValidation if v.type == "list"]
    on_unit = [v for v in lists if f"{unit_letter}2:" in str(v.sqref)]
    assert len(on_unit) == 1
    # The dropdown reads its choices from the (hidden) Lists sheet: kg and t.
    sheet_name, cells = on_unit[0].formula1.lstrip("=").split("!")
    choices = [row[0].value for row in book[sheet_name.strip("'")][cells.replace("$", "")]]
    assert choices == ["kg", "t"]
    assert "About" in book.sheetnames
    about = [row[0] for row in book["About"].iter_rows(values_only=True) if row and row[0]]
    assert about[0].startswith("wastes:")
    # Column names are marked ("▸ unit") so the sheet never reads as data to load.
    assert {f"▸ {column}" for column in WASTES.columns} <= set(about)


def test_load_help_shows_each_setting_option_with_its_environment_variable() -> None:
    done = run("load", "--help", env={"COLUMNS": "200"})
    words = " ".join(done.stdout.split())  # the help as text, whatever the wrapping
    for option, variable in (
        ("--warehouse", "EMISSIONS_WAREHOUSE"),
        ("--limits-file", "EMISSIONS_LIMITS_FILE"),
        ("--shared-limits", "EMISSIONS_SHARED_LIMITS"),
        ("--source", "EMISSIONS_SOURCE"),
    ):
        assert option in words
        assert f"[env var: {variable}]" in words
    assert "--mirror" in words
    assert "--allow-mass-delete" in words


def test_a_mirror_dry_run_says_what_it_would_delete_and_a_refused_mirror_exits_2(
    tenant: Tenant,
) -> None:
    env = service_env(tenant)
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(n) for n in range(6)])
    assert run("load", str(path), "--source", "register", env=env).returncode == 0
    write_wastes_xlsx(path, [waste_row(n) for n in (0, 1, 2, 9)])

    dry = run("load", str(path), "--source", "register", "--mirror", "--dry-run", env=env)
    refused = run("load", str(path), "--source", "register", "--mirror", env=env)
    kept = run("load", str(path), "--source", "register", env=env)

    assert dry.returncode == 0, dry.stderr
    assert "would create 1 and update 0" in dry.stdout
    assert "--mirror would delete 3 record(s) of source 'register'" in dry.stdout
    assert "w.xlsx Wastes row 7" in dry.stdout  # where the dropped rows were last seen
    assert "the mirror would be refused" in dry.stdout
    assert refused.returncode == 2
    assert "would delete 3 of the 7 records of source 'register' (43%" in refused.stderr
    assert "3 record(s) of source 'register' have no row in this file" in kept.stdout


def test_load_help_names_every_webhook_option_and_variable_whole_at_80_columns() -> None:
    done = run("load", "--help")  # COLUMNS=80

    assert "…" not in done.stdout  # nothing cut short
    words = done.stdout.split()
    for option, variable in (
        ("--webhook-url", "EMISSIONS_WEBHOOK_URL"),
        ("--webhook-listen", "EMISSIONS_WEBHOOK_LISTEN"),
        ("--webhook-secret", "EMISSIONS_WEBHOOK_SECRET"),
        ("--webhook-secret-file", "EMISSIONS_WEBHOOK_SECRET_FILE"),
        ("--webhook-fallback-after", "EMISSIONS_WEBHOOK_FALLBACK_AFTER"),
        ("--webhook-max-body-bytes", "EMISSIONS_WEBHOOK_MAX_BODY_BYTES"),
        ("--limits-file", "EMISSIONS_LIMITS_FILE"),
        ("--sector-map", "EMISSIONS_SECTOR_MAP"),
    ):
        assert option in words
        assert any(word.rstrip("];") == variable for word in words), variable


def test_an_unusable_setting_in_the_environment_exits_2_naming_it(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(1)])
    done = run("load", str(path), env={"EMISSIONS_LIMITS_FILE": str(tmp_path / "f"),
                                        "EMISSIONS_SHARED_LIMITS": "cluster"})  # fmt: skip
    assert done.returncode == 2
    assert "EMISSIONS_SHARED_LIMITS" in done.stderr
    assert "'cluster'" in done.stderr


def test_load_shares_the_limits_through_the_limits_file_given(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(1)])
    limits = tenant.workdir / "limits" / "shared.sqlite3"

    done = run("load", str(path), "--limits-file", str(limits), env=service_env(tenant))

    assert done.returncode == 0, done.stderr
    assert limits.exists()


def test_load_without_settings_exits_2_naming_what_is_missing(tmp_path: Path) -> None:
    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(1)])
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    done = run_etl(["load", str(path)], env=env, timeout=180)
    assert done.returncode == 2
    assert "EMISSIONS_API_URL" in done.stderr
    assert "Traceback" not in done.stderr


def test_rejects_into_an_existing_folder_exits_2_before_anything_is_loaded(
    tenant: Tenant,
) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(1)])
    folder = tenant.workdir / "rejects"
    folder.mkdir()

    done = run("load", str(path), "--rejects", str(folder), env=service_env(tenant))

    assert done.returncode == 2
    assert one_line(done.stderr)
    assert "is a folder" in done.stderr
    assert remote_wastes(tenant) == []
    assert not (tenant.workdir / "w.duckdb").exists()


def test_load_of_a_header_only_workbook_exits_2_with_one_line(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "empty.xlsx", [])
    done = run("load", str(path), env=service_env(tenant))
    assert done.returncode == 2
    assert one_line(done.stderr), done.stderr
    assert "no data rows" in done.stderr


def test_load_reports_rejected_rows_with_exit_1_and_never_prints_the_key(tenant: Tenant) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(1), waste_row(2, facility="X")])
    other = write_wastes_xlsx(tenant.workdir / "v.xlsx", [waste_row(3, quantity=0)])
    target = tenant.workdir / "r.json"
    env = service_env(tenant)

    done = run("load", str(path), str(other), "--rejects", str(target), env=env)

    assert done.returncode == 1, done.stderr
    # One table row per file: w.xlsx loaded one row of two, v.xlsx none of its one.
    assert re.search(r"w\.xlsx\W+wastes\W+partial\W+2\W+1\b", done.stdout), done.stdout
    assert re.search(r"v\.xlsx\W+wastes\W+rejected\W+1\W+1\b", done.stdout), done.stdout
    assert tenant.api_key not in done.stdout + done.stderr
    # The first rejects, with their reasons, on the terminal.
    assert (
        "w.xlsx sheet Wastes row 5, Facility: No facility 'X' in this organization" in done.stdout
    )
    assert "[UNKNOWN_FACILITY]" in done.stdout
    assert "v.xlsx sheet Wastes row 4, Base quantity:" in done.stdout
    assert "greater than 0" in done.stdout
    rejects = json.loads(target.read_text())
    assert [(r["file"], r["code"]) for r in rejects] == [  # sorted by file, sheet, row
        ("v.xlsx", "NOT_POSITIVE"),
        ("w.xlsx", "UNKNOWN_FACILITY"),
    ]

    write_wastes_xlsx(path, [waste_row(1), waste_row(2)])
    again = run("load", str(path), "--rejects", str(target), env=env)

    assert again.returncode == 0, again.stderr
    assert json.loads(target.read_text()) == []
    assert len(remote_wastes(tenant)) == 2
