"""The file of table sources: each entry a TableSource, its passwords in Secret blocks once it
is stored (never in what is stored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import TableSourceError
from emissions_etl.tables.sources_file import read_sources_file, sources_of

FILE = """
[[source]]
name = "fuel_card"
resource = "vehicle_consumptions"
query = "SELECT * FROM erp.public.fuel_card_transactions"
key = "company,txn_id"
organization = "acme-es"
[source.attach]
erp = "postgres:host=db.internal dbname=erp user=etl password=Erp-s3cret-42"

[[source]]
resource = "wastes"
query = "SELECT * FROM read_parquet('lake/wastes/*.parquet')"
key = ["doc_id"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sources.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_entry_is_a_table_source_with_its_key_and_databases(tmp_path: Path) -> None:
    fuel, wastes = read_sources_file(write(tmp_path, FILE))
    assert (fuel.source.source_name, fuel.source.key, fuel.organization) == (
        "fuel_card", ("company", "txn_id"), "acme-es",
    )  # fmt: skip
    assert [a.kind for a in fuel.source.attachments] == ["postgres"]
    assert (wastes.source.source_name, wastes.source.key, wastes.organization) == (
        "wastes", ("doc_id",), None,
    )  # fmt: skip


def test_a_password_is_moved_to_a_block_and_the_stored_entry_holds_none(tmp_path: Path) -> None:
    [fuel, _] = read_sources_file(write(tmp_path, FILE))
    moved, values = fuel.passwords_moved(lambda source, database: f"{source}-{database}")
    assert values == {"fuel_card-erp": "Erp-s3cret-42"}
    public = moved.public()
    assert "Erp-s3cret-42" not in str(public)
    assert "password=" not in str(public)
    assert public["attach"]["erp"]["password_block"] == "fuel_card-erp"


def test_a_stored_entry_reads_back_and_takes_its_password_again(tmp_path: Path) -> None:
    [fuel, _] = read_sources_file(write(tmp_path, FILE))
    moved, _values = fuel.passwords_moved(lambda source, database: "block")
    [again] = sources_of([moved.public()], where="the variable")
    [attachment] = again.with_passwords({"erp": "Erp-s3cret-42"}).attachments
    assert attachment.password == "Erp-s3cret-42"
    assert again.password_blocks == {"erp": "block"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[source]]\nresource = 'wastes'\nquery = 'SELECT 1'\n", "no key"),
        ("[[source]]\nresource = 'wastes'\nkey = 'a'\n", "no query"),
        ("[[source]]\nresource='wastes'\nquery='SELECT 1'\nkey='a'\ncolour='red'\n", "colour"),
        ("title = 'nothing'\n", r"no \[\[source\]\]"),
        ("[[source\n", "not TOML"),
        ("[[source]]\nresource = 'wastes'\nquery = 'SELECT 1'\nkey = 5\n", "key: give a column"),
    ],
)
def test_a_file_that_cannot_be_used_is_one_error_saying_why(
    tmp_path: Path, text: str, says: str
) -> None:
    with pytest.raises(TableSourceError, match=says):
        read_sources_file(write(tmp_path, text))


def test_two_sources_of_one_name_are_refused(tmp_path: Path) -> None:
    entry = "[[source]]\nname='x'\nresource='wastes'\nquery='SELECT 1'\nkey='a'\n"
    with pytest.raises(TableSourceError, match="source x named twice"):
        read_sources_file(write(tmp_path, entry * 2))
