"""``emissions-etl report`` as people run it: the page, the default warehouse, exit codes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl


def report(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}
    return run_etl(["report", *args], timeout=180, env={**clean, **env})


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.strip().startswith("error: ")
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_report_writes_the_page_and_exits_0(sample_warehouse: Warehouse, tmp_path: Path) -> None:
    out = tmp_path / "out" / "report.html"
    done = report("--warehouse", str(sample_warehouse.path), "--out", str(out))

    assert done.returncode == 0, done.stderr
    assert "Plotly.newPlot" in out.read_text(encoding="utf-8")
    assert (
        "total GHG emissions 52.6 t co2e (operational_control, every year), all activity co2e "
        "52.6 t; 27 records, 10 runs"
    ) in done.stdout


def test_the_warehouse_defaults_to_the_emissions_warehouse_setting(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    done = report("--out", str(out), EMISSIONS_WAREHOUSE=str(sample_warehouse.path))

    assert done.returncode == 0, done.stderr
    assert sample_warehouse.path.name in out.read_text(encoding="utf-8")


def test_an_empty_warehouse_exits_0_with_a_page_saying_so(
    empty_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    done = report("--warehouse", str(empty_warehouse.path), "--out", str(out))

    assert done.returncode == 0, done.stderr
    assert "Nothing is loaded yet" in out.read_text(encoding="utf-8")
    assert "nothing is loaded" in done.stdout


def test_a_missing_warehouse_exits_2_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = report("--warehouse", str(tmp_path / "nowhere.duckdb"), "--out", str(out))

    assert_one_line_error(done, 2)
    assert "nowhere.duckdb" in done.stderr
    assert not out.exists()


def test_a_target_that_cannot_be_written_exits_2(
    empty_warehouse: Warehouse, tmp_path: Path
) -> None:
    a_folder = tmp_path / "already-a-folder"
    a_folder.mkdir()
    done = report("--warehouse", str(empty_warehouse.path), "--out", str(a_folder))

    assert_one_line_error(done, 2)
    assert a_folder.is_dir()


def test_a_file_that_is_not_a_warehouse_exits_3(tmp_path: Path) -> None:
    (tmp_path / "notes.duckdb").write_text("not a database\n" * 100)
    done = report("--warehouse", str(tmp_path / "notes.duckdb"), "--out", str(tmp_path / "r.html"))

    assert_one_line_error(done, 3)


def test_help_shows_the_warehouse_option_and_its_default() -> None:
    done = run_etl(["report", "--help"])

    assert done.returncode == 0
    assert "--warehouse" in done.stdout
    assert "EMISSIONS_WAREHOUSE" in done.stdout
    assert "--out" in done.stdout


def test_the_inventory_follows_emissions_consolidation_and_a_bad_one_exits_2(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    done = report("--warehouse", str(sample_warehouse.path), "--out", str(out),
                  EMISSIONS_CONSOLIDATION="equity_share")  # fmt: skip
    bad = report("--warehouse", str(sample_warehouse.path), "--out", str(out),
                 "--consolidation", "ownership")  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert '<strong id="consolidation-approach">equity share</strong>' in out.read_text("utf-8")
    assert_one_line_error(bad, 2)
    assert "unknown consolidation approach 'ownership'" in bad.stderr
