"""``load --from-sql`` and ``validate --from-sql`` as people run them: rejects named by key on
the terminal and in ``--rejects``, one-line errors, a sources file, a dry run's words, and a
password given in a conninfo that appears nowhere."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import openpyxl
import pytest

from tests.pipeline.tenancy import Tenant, tenant
from tests.postgres_server import PostgresServer, available
from tests.tables.erp import erp_row, erp_rows, parquet_folder, postgres_table, sqlite_table
from tests.test_cli import run, service_env

__all__ = ["tenant"]
pytestmark = pytest.mark.timeout(300)
PASSWORD = "Erp-s3cret-42"


def from_sqlite(tmp_path: Path, rows: list[tuple[object, ...]]) -> list[str]:
    path = sqlite_table(tmp_path / "erp.sqlite", rows)
    return ["--from-sql", "SELECT * FROM erp.wastes", "--resource", "wastes", "--key", "doc_id",
            "--attach", f"erp=sqlite:{path}"]  # fmt: skip


def test_validate_from_sql_names_each_rejected_row_by_key_and_exits_1(tmp_path: Path) -> None:
    rows = [*erp_rows(3), erp_row(7, quantity=-2.0)]
    out = tmp_path / "rejects.json"
    done = run("validate", *from_sqlite(tmp_path, rows), "--rejects", str(out))
    assert done.returncode == 1, done.stderr
    assert "wastes (wastes): 4 rows read, 3 valid, 1 rejected" in done.stdout
    assert "wastes doc_id=D-0007, base_quantity: base_quantity must be" in done.stdout
    [reject] = json.loads(out.read_text())
    assert (reject["file"], reject["key"], reject["code"]) == (
        "wastes", "doc_id=D-0007", "NOT_POSITIVE",
    )  # fmt: skip


def test_a_querys_rejects_in_a_workbook_list_each_row_with_its_key(tmp_path: Path) -> None:
    rows = [erp_row(1), erp_row(2, doc_id="D-0001")]
    out = tmp_path / "rejects.xlsx"
    assert run("validate", *from_sqlite(tmp_path, rows), "--rejects", str(out)).returncode == 1
    workbook = openpyxl.load_workbook(out)
    assert workbook.sheetnames == ["Rejects"]
    header, *lines = workbook["Rejects"].iter_rows(values_only=True)
    keys = [line[header.index("key")] for line in lines]
    assert keys == ["doc_id=D-0001", "doc_id=D-0001"]


def test_a_query_without_a_key_is_refused_in_one_line_with_exit_2(tmp_path: Path) -> None:
    args = [arg for arg in from_sqlite(tmp_path, erp_rows(1)) if arg not in ("--key", "doc_id")]
    done = run("validate", *args)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "no key: name the column" in done.stderr


def test_files_and_a_query_together_are_refused(tmp_path: Path) -> None:
    done = run("load", "wastes.xlsx", *from_sqlite(tmp_path, erp_rows(1)))
    assert done.returncode == 2
    assert "give files, or --from-sql QUERY: one at a time" in done.stderr


def test_a_dry_run_says_what_it_would_create_update_and_delete(
    tenant: Tenant, tmp_path: Path
) -> None:
    env = service_env(tenant)
    rows = erp_rows(6)
    assert run("load", *from_sqlite(tmp_path, rows), env=env).returncode == 0
    changed = [*rows[:4], erp_row(4, quantity=9.0), erp_row(20)]
    done = run("load", *from_sqlite(tmp_path, changed), "--mirror", "--dry-run", env=env)
    assert done.returncode == 0, done.stderr
    assert "wastes (source 'wastes'), dry run: would create 1 and update 1" in done.stdout
    assert "--mirror would delete 1 record(s) of source 'wastes', last seen at wastes " in (
        done.stdout
    )
    assert "doc_id=D-0005" in done.stdout


def test_a_sources_file_loads_each_of_its_sources(tenant: Tenant, tmp_path: Path) -> None:
    database = sqlite_table(tmp_path / "erp.sqlite", erp_rows(3))
    folder = parquet_folder(tmp_path / "lake" / "wastes", [erp_row(n) for n in range(10, 14)])
    sources = tmp_path / "sources.toml"
    sources.write_text(
        f"""
[[source]]
name = "register"
resource = "wastes"
query = "SELECT * FROM erp.wastes"
key = "doc_id"
attach = {{ erp = "sqlite:{database}" }}

[[source]]
resource = "wastes"
query = "SELECT * FROM read_parquet('{folder}/*.parquet')"
key = "doc_id"
""",
        encoding="utf-8",
    )
    done = run("load", "--sources", str(sources), env=service_env(tenant))
    assert done.returncode == 0, done.stdout + done.stderr
    with duckdb.connect(str(tenant.workdir / "w.duckdb"), read_only=True) as con:
        loaded = con.execute(
            "SELECT source_name, count(*) FROM remote_ids GROUP BY ALL ORDER BY 1"
        ).fetchall()
    assert loaded == [("register", 3), ("wastes", 4)]


def every_text_of(path: Path) -> str:
    """Every value of every table of the warehouse file, as text."""
    with duckdb.connect(str(path), read_only=True) as con:
        names = [name for (name,) in con.execute("SHOW TABLES").fetchall()]
        return "\n".join(repr(con.execute(f'SELECT * FROM "{n}"').fetchall()) for n in names)


@pytest.mark.xdist_group("postgres")
@pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)")
def test_a_password_in_the_conninfo_appears_nowhere(
    tenant: Tenant, postgres: PostgresServer, tmp_path: Path
) -> None:
    conninfo = postgres.create_database("erp")  # trust on loopback: any password is taken
    postgres_table(conninfo, [*erp_rows(3), erp_row(4, quantity=-1.0)])
    attach = f"erp=postgres:{conninfo} password={PASSWORD}"
    out = tmp_path / "rejects.json"
    args = ["--from-sql", "SELECT * FROM erp.public.wastes", "--resource", "wastes",
            "--key", "doc_id", "--attach", attach, "--rejects", str(out)]  # fmt: skip
    loaded = run("load", *args, env=service_env(tenant))
    refused = run("load", *args[:-4], "--attach", f"{attach} port=9", env=service_env(tenant))
    assert (loaded.returncode, refused.returncode) == (1, 2)
    assert "cannot attach erp=postgres:" in refused.stderr
    shown = loaded.stdout + loaded.stderr + refused.stdout + refused.stderr
    assert PASSWORD not in shown
    assert PASSWORD not in out.read_text()
    stored = every_text_of(tenant.workdir / "w.duckdb")
    assert "doc_id=D-0004" in stored  # the reject, by key
    assert PASSWORD not in stored


def test_a_file_given_is_checked_though_the_nightlys_sources_file_is_set(tmp_path: Path) -> None:
    from tests.pipeline.tenancy import waste_row, write_wastes_xlsx

    path = write_wastes_xlsx(tmp_path / "ok.xlsx", [waste_row(1)])
    done = run("validate", str(path), env={"EMISSIONS_SOURCES": str(tmp_path / "none.toml")})
    assert done.returncode == 0, done.stderr
    assert "ok.xlsx (wastes): 1 rows read, 1 valid, 0 rejected" in done.stdout


def test_a_query_that_returns_no_rows_exits_2_saying_so(tmp_path: Path) -> None:
    args = from_sqlite(tmp_path, erp_rows(2))
    args[1] = "SELECT * FROM erp.wastes WHERE false"
    done = run("validate", *args)
    assert done.returncode == 2
    assert "error: wastes: the query returned no rows" in done.stderr


def test_load_validate_and_prefect_setup_show_the_sources_file_with_its_variable() -> None:
    for command in ("load", "validate", "prefect-setup"):
        shown = run(command, "--help", env={"COLUMNS": "200"}).stdout
        assert "--sources" in shown
        assert "EMISSIONS_SOURCES" in shown
    shown = run("load", "--help", env={"COLUMNS": "200"}).stdout
    assert all(option in shown for option in ("--from-sql", "--key", "--attach"))
