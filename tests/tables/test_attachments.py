"""``--attach NAME=URI``: the kinds of database, read-only attachment, and a password that is
never shown."""

from __future__ import annotations

import pytest

from emissions_etl.errors import TableSourceError
from emissions_etl.scrubbing import scrub
from emissions_etl.tables import parse_attachment, parse_attachments


@pytest.mark.parametrize(
    ("given", "kind", "target"),
    [
        ("erp=postgres:host=db dbname=erp", "postgres", "host=db dbname=erp"),
        ("erp=postgresql:host=db", "postgres", "host=db"),
        ("crm=mysql:host=db user=etl database=crm", "mysql", "host=db user=etl database=crm"),
        ("legacy=sqlite:/data/legacy.db", "sqlite", "/data/legacy.db"),
        ("mart=duckdb:/data/mart.duckdb", "duckdb", "/data/mart.duckdb"),
        ("mart=/data/mart.duckdb", "duckdb", "/data/mart.duckdb"),
        ("lake=s3://bucket/mart.duckdb", "duckdb", "s3://bucket/mart.duckdb"),
    ],
)
def test_an_attachment_names_its_kind_by_its_prefix_else_a_duckdb_file(
    given: str, kind: str, target: str
) -> None:
    attachment = parse_attachment(given)
    assert (attachment.kind, attachment.target) == (kind, target)


def test_every_database_is_attached_read_only() -> None:
    statements = [
        parse_attachment(text).attach_sql()
        for text in ("a=postgres:host=db", "b=mysql:host=db", "c=sqlite:x.db", "d=x.duckdb")
    ]
    assert all(statement.endswith("READ_ONLY)") for statement in statements)


def test_a_password_in_a_conninfo_is_masked_where_it_is_shown_and_scrubbed_everywhere() -> None:
    attachment = parse_attachment("erp=postgres:host=db user=etl password=Erp-s3cret-42")
    assert "Erp-s3cret-42" not in attachment.described
    assert "Erp-s3cret-42" not in repr(attachment)
    assert scrub("DuckDB said: Erp-s3cret-42 was refused") == "DuckDB said: *** was refused"


def test_a_password_is_taken_out_of_the_conninfo_whole() -> None:
    attachment = parse_attachment("erp=postgres:host=db password='two words' dbname=erp")
    assert attachment.password == "two words"
    assert attachment.without_password().target == "host=db dbname=erp"


@pytest.mark.parametrize("given", ["erp", "=postgres:host=db", "1erp=x.duckdb", "erp="])
def test_an_attachment_that_is_not_name_equals_uri_is_refused_saying_what_one_is(
    given: str,
) -> None:
    with pytest.raises(TableSourceError, match="is not NAME=URI"):
        parse_attachment(given)


def test_a_name_attached_twice_is_refused() -> None:
    with pytest.raises(TableSourceError, match="erp attached twice"):
        parse_attachments(["erp=a.duckdb", "ERP=b.duckdb"])
