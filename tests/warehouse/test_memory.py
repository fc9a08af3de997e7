"""DuckDB's memory limit follows the machine (or ``EMISSIONS_WAREHOUSE_MEMORY``), what does not
fit spills beside the warehouse (or to ``EMISSIONS_WAREHOUSE_TEMP``), it runs on a thread per
core (or ``EMISSIONS_WAREHOUSE_THREADS``), a writer gives back what DuckDB cached once a group
of rows has landed, and a limit still met is one line naming the setting to raise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emissions_etl.errors import ConfigurationError, WarehouseMemoryError
from emissions_etl.settings import Settings
from emissions_etl.warehouse import MemorySettings, Warehouse, parse_memory
from emissions_etl.warehouse._memory import MEMORY_SHARE, MINIMUM_BYTES, physical_memory
from emissions_etl.warehouse._resting import EVICT_ABOVE
from emissions_etl.warehouse._target import WarehouseTarget
from tests.cli_process import run_etl

from .conftest import mapping_frame, source_frame

#: A statement no memory limit of 20 MB holds: 3 million distinct keys grouped.
TOO_BIG = (
    "SELECT count(*) FROM "
    "(SELECT md5(range::VARCHAR) AS k, count(*) FROM range(3000000) GROUP BY k)"
)


def setting(con_owner: Warehouse, name: str) -> str:
    [(value,)] = con_owner.query(f"SELECT current_setting('{name}')").itertuples(index=False)
    return str(value)


def test_the_memory_limit_is_a_share_of_the_machine_unless_set() -> None:
    expected = max(int(physical_memory() * MEMORY_SHARE), MINIMUM_BYTES)

    assert MemorySettings().limit_bytes() == expected
    assert MemorySettings(limit="512MB").limit_bytes() == 512 * 10**6


def test_a_memory_setting_is_a_size_or_a_share_of_the_machine() -> None:
    assert parse_memory("2GB") == 2 * 10**9
    assert parse_memory("1.5 GiB") == int(1.5 * 2**30)
    assert parse_memory("10%") == int(physical_memory() * 0.10)


def test_a_memory_setting_that_is_no_size_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EMISSIONS_WAREHOUSE_MEMORY", "lots")

    with pytest.raises(ConfigurationError, match="EMISSIONS_WAREHOUSE_MEMORY: .*not a size"):
        Settings()


def test_duckdb_runs_on_the_threads_of_the_variable_else_one_per_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMISSIONS_WAREHOUSE_THREADS", "3")
    given = Warehouse(tmp_path / "given.duckdb")  # no settings: a notebook's, a test's
    with given.writer():
        pass
    monkeypatch.delenv("EMISSIONS_WAREHOUSE_THREADS")
    default = Warehouse(tmp_path / "default.duckdb")
    with default.writer():
        pass

    assert setting(given, "threads") == "3"
    assert setting(default, "threads") == str(os.cpu_count())
    assert Settings(warehouse_threads=2).open_warehouse().memory.threads == 2


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_a_thread_count_that_is_not_one_or_more_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("EMISSIONS_WAREHOUSE_THREADS", value)

    with pytest.raises(ConfigurationError, match="EMISSIONS_WAREHOUSE_THREADS"):
        Settings()
    with pytest.raises(ValueError, match="EMISSIONS_WAREHOUSE_THREADS=.*1 or more"):
        MemorySettings()


def test_the_settings_give_the_warehouse_its_limit_and_spill_folder(tmp_path: Path) -> None:
    settings = Settings(
        warehouse=str(tmp_path / "w.duckdb"),
        warehouse_memory="300MB",
        warehouse_temp=str(tmp_path / "spill"),
    )

    warehouse = settings.open_warehouse()

    assert warehouse.memory == MemorySettings(limit="300MB", temp=str(tmp_path / "spill"))


def test_a_writer_runs_under_the_limit_and_spills_beside_the_file(warehouse: Warehouse) -> None:
    small = Warehouse(warehouse.path, memory=MemorySettings(limit="300MB"))
    with small.writer():
        limit = setting(small, "memory_limit")
        spill = Path(setting(small, "temp_directory"))

    assert limit == "286.1 MiB"  # 300 MB, as DuckDB shows it
    assert spill.parent == warehouse.path.with_name("warehouse.duckdb.tmp")
    assert not spill.parent.exists()  # nothing left beside the warehouse once closed


def test_the_temp_setting_moves_where_duckdb_spills(warehouse: Warehouse, tmp_path: Path) -> None:
    moved = Warehouse(warehouse.path, memory=MemorySettings(temp=str(tmp_path / "fast-disk")))
    with moved.writer():
        spill = Path(setting(moved, "temp_directory"))

    assert spill.parent == tmp_path / "fast-disk"


def test_a_lake_spills_beside_its_catalog_file_or_its_local_data_folder(tmp_path: Path) -> None:
    memory = MemorySettings()

    catalog = memory.spill_root(WarehouseTarget(f"ducklake:{tmp_path / 'lake.ducklake'}"))
    local = memory.spill_root(WarehouseTarget("ducklake:postgres:dbname=lake", "/srv/lake/"))
    remote = memory.spill_root(WarehouseTarget("ducklake:postgres:dbname=lake", "s3://b/lake/"))

    assert catalog == tmp_path / "lake.ducklake.tmp"
    assert local == Path("/srv/lake.tmp")
    assert remote == Path.home() / ".cache" / "emissions-etl" / "lake.tmp"


def test_a_writer_gives_back_what_duckdb_cached_once_rows_have_landed(
    warehouse: Warehouse,
) -> None:
    keys = [f"row-{n}" for n in range(50_000)]
    rows = source_frame(keys).assign(note="a line people wrote about the row " * 30)  # ~1 KB
    with warehouse.writer() as writer:
        writer.runs.land_source_rows("run", "wastes", rows)  # ~60 MB as DuckDB holds it
        writer.mappings.upsert_mapping("wastes", mapping_frame({key: f"id-{key}" for key in keys}))
        held = warehouse.query("SELECT sum(memory_usage_bytes) AS held FROM duckdb_memory()")
        landed = warehouse.query("SELECT count(*) AS n FROM source_rows")

    assert int(landed["n"][0]) == 50_000
    assert int(held["held"][0]) <= EVICT_ABOVE


def test_a_statement_past_the_limit_is_one_line_naming_the_setting(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass
    small = Warehouse(warehouse.path, memory=MemorySettings(limit="20MB"))

    with pytest.raises(WarehouseMemoryError) as raised:
        small.query(TOO_BIG)

    message = str(raised.value)
    assert "\n" not in message
    assert "Out of Memory" in message
    assert "raise EMISSIONS_WAREHOUSE_MEMORY (--warehouse-memory), now 20MB" in message


def test_sql_out_of_memory_exits_3_with_the_setting_to_raise(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass
    env = {**os.environ, "EMISSIONS_WAREHOUSE": str(warehouse.path)}

    done = run_etl(["sql", TOO_BIG, "--warehouse-memory", "20MB"], env=env, timeout=120)

    assert done.returncode == 3
    [line] = done.stderr.strip().splitlines()
    assert "EMISSIONS_WAREHOUSE_MEMORY" in line
    assert "Traceback" not in done.stderr
