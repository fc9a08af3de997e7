"""Expectations files: what they say, read into the warehouse's terms, and each mistake refused
with the file and the key, before anything is stored."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from emissions_etl.coverage import parse_expectations, read_expectations
from emissions_etl.errors import InputError
from emissions_etl.warehouse import Expectation


def parsed(text: str, tmp_path: Path) -> tuple[Expectation, ...]:
    path = tmp_path / "expectations.toml"
    path.write_text(text, encoding="utf-8")
    return read_expectations(path)


def refused(text: str, tmp_path: Path) -> str:
    with pytest.raises(InputError) as raised:
        parsed(text, tmp_path)
    assert str(raised.value).startswith(str(tmp_path / "expectations.toml"))
    return str(raised.value)


def test_a_file_says_its_defaults_a_resources_and_an_entitys(tmp_path: Path) -> None:
    found = parsed(
        'due_day = 15\nestimate = "year_earlier"\n\n[wastes]\ncadence = "quarterly"\n'
        'from = "2025-03"\n\n[wastes.entities." Valencia Office "]\nexpected = false\n'
        "until = 2026-05-17\n",
        tmp_path,
    )

    assert found == (
        Expectation(estimate="year_earlier", due_day=15),
        Expectation(resource="wastes", cadence="quarterly", expected_from=dt.date(2025, 3, 1)),
        Expectation(resource="wastes", entity="Valencia Office", expected=False,
                    expected_until=dt.date(2026, 5, 1)),
    )  # fmt: skip


def test_an_empty_file_says_nothing_but_the_defaults(tmp_path: Path) -> None:
    assert parsed("", tmp_path) == (Expectation(),)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[wastes]\ncadense = 'monthly'\n", "[wastes]: unknown key 'cadense'"),
        ("[wastez]\n", "[wastez]: no resource of that name has coverage; use one of"),
        ("[vehicles]\n", "[vehicles]: no resource of that name has coverage"),
        ("[business_travels.entities.x]\nexpected = false\n",
         "business_travels is expected of the organization as a whole, it has no entities"),
        ("[wastes]\ncadence = 'weekly'\n", "cadence = 'weekly': use one of monthly, quarterly"),
        ("[wastes]\nfrom = '2026-13'\n", "[wastes] from = '2026-13': no month 13"),
        ("[wastes]\nfrom = 'March'\n", "give a month such as 2026-05"),
        ("[wastes]\nfrom = '2026-05'\nuntil = '2026-01'\n", "until 2026-01 is before from 2026-05"),
        ("[wastes]\nexpected = 'no'\n", "expected = 'no': give true or false"),
        ("[wastes]\nestimate = 'zero'\n", "estimate = 'zero': use one of neighbours"),
        ("due_day = 40\n", "due_day = 40: give a day of the month, 1 to 31"),
        ("[wastes.entities.'Bilbao Office']\n[wastes.entities.'bilbao  office ']\n",
         "the same entity as [wastes.entities.\"Bilbao Office\"]"),
        ("[wastes.entities.'Bilbao Office']\ncadence = 3\n", "cadence = 3: use one of"),
        ("due_day = 10\nwastes = 3\n", "the file's top level: unknown key 'wastes'"),
    ],
)
def test_each_mistake_is_refused_with_what_to_change(text: str, says: str, tmp_path: Path) -> None:
    assert says in refused(text, tmp_path)


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    assert "not a TOML file" in refused("[wastes\n", tmp_path)


def test_a_file_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the expectations file"):
        read_expectations(tmp_path / "nowhere.toml")


def test_a_document_read_in_code_is_checked_the_same() -> None:
    with pytest.raises(ValueError, match="unknown key 'x'"):
        parse_expectations({"x": 1})
