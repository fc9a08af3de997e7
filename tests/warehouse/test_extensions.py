"""The DuckDB extensions a lake loads come from their packages; a lake's connections load them
without DuckDB hashing each binary again (90-110 ms a load), a file's keep DuckDB's check."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from emissions_etl.duckdb_extensions import load_packaged
from emissions_etl.warehouse import Warehouse

pytestmark = pytest.mark.timeout(120)


def _made(warehouse: Warehouse) -> Warehouse:
    with warehouse.writer():
        pass
    return warehouse


def _checks_signatures(warehouse: Warehouse) -> bool:
    setting = warehouse.query("SELECT current_setting('allow_unsigned_extensions') AS allowed")
    return not bool(setting["allowed"][0])


def test_a_lakes_connections_load_the_packaged_extensions_without_the_signature_check(
    tmp_path: Path,
) -> None:
    lake = _made(Warehouse(f"ducklake:{tmp_path / 'catalog.ducklake'}"))

    assert not _checks_signatures(lake)
    assert lake.query("SELECT count(*) AS n FROM emissions")["n"][0] == 0  # ducklake loaded


def test_a_file_warehouse_keeps_duckdbs_signature_check(tmp_path: Path) -> None:
    assert _checks_signatures(_made(Warehouse(tmp_path / "warehouse.duckdb")))


def test_a_packaged_extension_passes_duckdbs_signature_check() -> None:
    con = duckdb.connect()
    try:
        load_packaged(con, "ducklake")  # signed: loads where the check stays on
        loaded = con.execute(
            "SELECT loaded FROM duckdb_extensions() WHERE extension_name = 'ducklake'"
        ).fetchone()
    finally:
        con.close()
    assert loaded == (True,)
