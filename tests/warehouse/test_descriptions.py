"""What every table, view and column means is written into the warehouse as DuckDB comments
when what it describes is made or changed, and never at an open that changes nothing."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from emissions_etl.warehouse import Warehouse
from emissions_etl.warehouse._descriptions import declared, described
from tests.postgres_server import PostgresServer, available

from .conftest import comments

SOME_COLUMN_COMMENTS = (
    "SELECT table_name, column_name, comment FROM duckdb_columns() "
    "WHERE database_name = current_database() AND table_name IN ('load_runs', 'emissions') "
    "ORDER BY ALL"
)


def _opened(warehouse: Warehouse) -> Warehouse:
    with warehouse.writer():
        pass
    return warehouse


def _altered(path: Path, *statements: str) -> None:
    """Run ``statements`` on the file as another program (an older version) would have."""
    con = duckdb.connect(str(path))
    try:
        for statement in statements:
            con.execute(statement)
    finally:
        con.close()


def test_a_writer_opening_a_warehouse_that_has_them_writes_no_comment_again(
    warehouse: Warehouse,
) -> None:
    _opened(warehouse)
    made = warehouse.query("SELECT name, created_at FROM view_version ORDER BY name")

    _opened(warehouse)

    assert warehouse.query("SELECT name, created_at FROM view_version ORDER BY name").equals(made)


def test_a_lake_writer_opening_it_again_changes_nothing_in_its_catalog(tmp_path: Path) -> None:
    """A lake's every open would otherwise be a snapshot: its writers would conflict."""
    lake = _opened(Warehouse(f"ducklake:{tmp_path / 'catalog.ducklake'}"))
    snapshots = "SELECT count(*) AS n FROM ducklake_snapshots('lake')"
    before = int(lake.query(snapshots)["n"].iloc[0])

    _opened(lake)

    assert int(lake.query(snapshots)["n"].iloc[0]) == before


def test_a_warehouse_written_before_its_comments_gets_them_from_its_next_writer(
    warehouse: Warehouse,
) -> None:
    _opened(warehouse)
    _altered(
        warehouse.path,
        "COMMENT ON TABLE load_runs IS NULL",
        "COMMENT ON COLUMN load_runs.run_id IS NULL",
        "COMMENT ON COLUMN emissions.co2e_kg IS NULL",
        "UPDATE view_version SET digest = 'of an older version' WHERE name = 'views.sql'",
    )

    _opened(warehouse)

    table = warehouse.query("SELECT comment FROM duckdb_tables() WHERE table_name = 'load_runs'")[
        "comment"
    ].tolist()
    columns = warehouse.query(SOME_COLUMN_COMMENTS)
    assert table == [described("load_runs").description]
    for row in columns.itertuples():
        assert row.comment == described(row.table_name).columns[row.column_name]


def test_a_column_a_migration_adds_gets_its_comment_though_the_views_did_not_change(
    warehouse: Warehouse,
) -> None:
    """A warehouse of schema version 5 gains load_runs.file_sha256 (migration 6) at its next
    writer; its views.sql digest is the current one, yet the new column is commented."""
    _opened(warehouse)
    _altered(
        warehouse.path,
        "ALTER TABLE load_runs DROP COLUMN file_sha256",
        "DELETE FROM schema_version WHERE version >= 6",  # and the later ones, as at version 5
    )

    _opened(warehouse)

    comment = warehouse.query(
        "SELECT comment FROM duckdb_columns() "
        "WHERE table_name = 'load_runs' AND column_name = 'file_sha256'"
    )["comment"].tolist()
    assert comment == [described("load_runs").columns["file_sha256"]]


@pytest.mark.slow  # a PostgreSQL server: left out of the fast run
@pytest.mark.xdist_group("postgres")  # the lake modules share one PostgreSQL, on one worker
@pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)")
def test_a_lake_catalogued_in_postgresql_keeps_the_comments_of_its_tables_columns_and_views(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    location = f"ducklake:postgres:{postgres.create_database('comments')}"
    lake = _opened(Warehouse(location, data_path=tmp_path / "data"))

    objects, columns = comments(lake)

    kept = {name: comment for name, comment in objects.items() if described(name).kind != "macro"}
    assert kept == {item.name: item.description for item in declared() if item.kind != "macro"}
    tables = [(table, name, comment) for table, name, comment in columns
              if described(table).kind == "table"]  # fmt: skip
    assert len(tables) > 100
    for table, name, comment in tables:
        assert comment == described(table).columns[name], f"{table}.{name}"
