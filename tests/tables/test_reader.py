"""A table source's rows as batches a file's reader gives: read from SQLite, a DuckDB file, a
Parquet folder, a Delta table and an Iceberg table on a DuckDB of its own, in the key's order,
named by source and key, at most a batch at a time."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from emissions_etl.errors import TableSourceError
from emissions_etl.resources import resource_spec
from emissions_etl.sources.headers import ColumnNamer
from emissions_etl.tables import TableReader, TableSource, parse_attachment
from tests.tables.erp import arrow_table, erp_row, erp_rows, parquet_folder, sqlite_table

pytestmark = pytest.mark.timeout(120)
WASTES = resource_spec("wastes")


def read_all(source: TableSource, batch_rows: int = 1000) -> list[pd.DataFrame]:
    namer = ColumnNamer(WASTES.columns, WASTES.aliases, WASTES.required_columns)
    with TableReader(source) as reader:
        return list(reader.batches(namer, batch_rows))


def sqlite_source(tmp_path: Path, rows: list[tuple[object, ...]]) -> TableSource:
    path = sqlite_table(tmp_path / "erp.sqlite", rows)
    return TableSource(
        "SELECT * FROM erp.wastes", "wastes", ("doc_id",), (parse_attachment(f"erp=sqlite:{path}"),)
    )


def test_a_sqlite_tables_rows_come_in_key_order_each_named_by_source_and_key(
    tmp_path: Path,
) -> None:
    rows = [erp_row(3), erp_row(1), erp_row(2)]
    [batch] = read_all(sqlite_source(tmp_path, rows))
    assert batch["_key"].tolist() == ["doc_id=D-0001", "doc_id=D-0002", "doc_id=D-0003"]
    assert batch["_file"].unique().tolist() == ["wastes"]
    assert batch["_row"].tolist() == [1, 2, 3]
    assert batch["base_quantity"].tolist() == [101.0, 102.0, 103.0]


def test_the_querys_columns_are_named_as_a_headers_cells_are(tmp_path: Path) -> None:
    path = sqlite_table(tmp_path / "erp.sqlite", erp_rows(1))
    query = (
        'SELECT doc_id, facility AS "Centro", identification_name AS "Identification name", '
        "start_date, end_date, base_quantity AS qty, ler_code, rd_code FROM erp.wastes"
    )
    source = TableSource(query, "wastes", ("doc_id",), (parse_attachment(f"erp=sqlite:{path}"),))
    [batch] = read_all(source)
    assert {"facility", "identification_name", "base_quantity"} <= set(batch.columns)
    assert batch.attrs["headers"]["facility"] == "Centro"


def test_a_parquet_folder_is_read_whole_by_read_parquet(tmp_path: Path) -> None:
    folder = parquet_folder(tmp_path / "lake" / "wastes", erp_rows(10), files=3)
    source = TableSource(f"SELECT * FROM read_parquet('{folder}/*.parquet')", "wastes", ("doc_id",))
    batches = read_all(source, batch_rows=4)
    assert [len(batch) for batch in batches] == [4, 4, 2]
    assert pd.concat(batches)["_key"].tolist() == [f"doc_id=D-{n:04d}" for n in range(10)]
    assert source.source_name == "wastes"


def test_a_duckdb_file_is_attached_and_read(tmp_path: Path) -> None:
    path = tmp_path / "mart.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("rows", arrow_table(erp_rows(3)))
        con.execute("CREATE TABLE wastes AS SELECT * FROM rows")
    source = TableSource(
        "SELECT * FROM mart.wastes", "wastes", ("doc_id",), (parse_attachment(f"mart={path}"),)
    )
    [batch] = read_all(source)
    assert len(batch) == 3


def test_a_delta_table_is_read_by_delta_scan(tmp_path: Path) -> None:
    from deltalake import write_deltalake

    write_deltalake(str(tmp_path / "wastes"), arrow_table(erp_rows(5)))
    source = TableSource(
        f"SELECT * FROM delta_scan('{tmp_path / 'wastes'}')", "wastes", ("doc_id",)
    )
    [batch] = read_all(source)
    assert batch["_key"].tolist() == [f"doc_id=D-{n:04d}" for n in range(5)]


def test_an_iceberg_table_is_read_by_iceberg_scan(tmp_path: Path) -> None:
    from pyiceberg.catalog.sql import SqlCatalog

    catalog = SqlCatalog(
        "erp", uri=f"sqlite:///{tmp_path / 'catalog.db'}", warehouse=f"file://{tmp_path / 'ice'}"
    )
    catalog.create_namespace("erp")
    table = catalog.create_table("erp.wastes", schema=arrow_table([]).schema)
    table.append(arrow_table(erp_rows(4)))
    source = TableSource(
        f"SELECT * FROM iceberg_scan('{table.metadata_location}')", "wastes", ("doc_id",)
    )
    [batch] = read_all(source)
    assert len(batch) == 4


def test_each_row_carries_how_many_rows_hold_its_key(tmp_path: Path) -> None:
    rows = [erp_row(1), erp_row(2, doc_id="D-0001"), erp_row(3)]
    [batch] = read_all(sqlite_source(tmp_path, rows))
    assert batch.set_index("_row")["_key_rows"].to_dict() == {1: 2, 2: 2, 3: 1}


def test_a_row_with_an_empty_key_column_has_no_key(tmp_path: Path) -> None:
    rows = [erp_row(1), (None, *erp_row(2)[1:])]
    [batch] = read_all(sqlite_source(tmp_path, rows))
    assert batch["_key"].isna().tolist() == [False, True]


def test_a_key_column_the_result_lacks_is_refused_naming_its_columns(tmp_path: Path) -> None:
    source = sqlite_source(tmp_path, erp_rows(1))
    source = TableSource(source.query, "wastes", ("txn_id",), source.attachments)
    with pytest.raises(TableSourceError, match=r"--key txn_id: not a column .*doc_id, facility"):
        read_all(source)


def test_a_query_duckdb_refuses_is_one_error_naming_the_source(tmp_path: Path) -> None:
    source = TableSource("SELECT * FROM erp.nowhere", "wastes", ("doc_id",))
    with pytest.raises(TableSourceError, match="^nowhere: the query: "):
        read_all(source)


@pytest.mark.parametrize(
    "uri",
    [
        "postgres:host=127.0.0.1 port=9 user=etl password=Erp-s3cret-42 connect_timeout=2",
        "mysql:host=127.0.0.1 port=9 user=etl password=Erp-s3cret-42 database=erp",
    ],
)
def test_a_database_that_cannot_be_attached_is_one_error_without_its_password(uri: str) -> None:
    attachment = parse_attachment(f"erp={uri}")
    source = TableSource("SELECT * FROM erp.wastes", "wastes", ("doc_id",), (attachment,))
    with pytest.raises(TableSourceError) as raised:
        read_all(source)
    assert f"cannot attach erp={attachment.kind}:" in str(raised.value)
    assert "Erp-s3cret-42" not in str(raised.value)
