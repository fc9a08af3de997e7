"""A table source's name defaults to the query's first table, and it needs a key."""

from __future__ import annotations

import pytest

from emissions_etl.errors import TableSourceError
from emissions_etl.tables import TableSource, first_table


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("SELECT * FROM erp.public.fuel_card WHERE amount > 0", "fuel_card"),
        ("SELECT t.* FROM transactions AS t JOIN cards USING (card_id)", "transactions"),
        ("SELECT * FROM read_parquet('lake/fuel/*.parquet')", "fuel"),
        ("SELECT * FROM read_parquet('s3://bucket/exports/fuel.parquet')", "fuel"),
        ("SELECT * FROM delta_scan('/lake/wastes')", "wastes"),
        ("WITH recent AS (SELECT * FROM erp.wastes) SELECT * FROM recent", "wastes"),
    ],
)
def test_the_source_is_named_after_the_first_table_or_file_the_query_reads(
    query: str, name: str
) -> None:
    assert TableSource(query, "wastes", ("doc_id",)).source_name == name


def test_a_name_given_wins_over_the_querys_table() -> None:
    source = TableSource("SELECT * FROM erp.wastes", "wastes", ("doc_id",), name="register")
    assert source.source_name == "register"


def test_a_query_that_reads_no_table_asks_for_a_source_name() -> None:
    with pytest.raises(TableSourceError, match="give --source"):
        _ = TableSource("SELECT 1 AS doc_id", "wastes", ("doc_id",)).source_name
    assert first_table("SELECT 1") is None


def test_a_source_without_a_key_is_refused_saying_how_to_name_one() -> None:
    with pytest.raises(TableSourceError, match="--key txn_id"):
        TableSource("SELECT * FROM erp.fuel", "vehicle_consumptions", ())


def test_what_a_run_records_of_a_source_holds_no_password() -> None:
    from emissions_etl.tables import parse_attachment

    attachment = parse_attachment("erp=postgres:host=db password=Erp-s3cret-42")
    source = TableSource("SELECT * FROM erp.wastes", "wastes", ("doc_id",), (attachment,))
    assert "Erp-s3cret-42" not in str(source.parameters())
    assert source.parameters()["attach"] == ["erp=postgres:host=db password=***"]
