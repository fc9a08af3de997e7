"""Cells are read as numbers, dates and text without ever raising: what cannot be read is a bad
cell in the returned mask."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pandas as pd
import pytest

from emissions_etl.sources.cells import (
    as_text,
    has_control_characters,
    object_kind,
    parse_date,
    parse_number,
)


def dates(values: list[object], dtype: str = "str") -> tuple[list[str | None], list[bool]]:
    parsed, bad = parse_date(pd.Series(values, dtype=dtype))
    assert parsed.dtype == "datetime64[ns]"
    return [None if pd.isna(d) else d.strftime("%Y-%m-%d") for d in parsed], bad.tolist()


def test_a_time_and_a_zone_after_the_date_keep_the_date_as_written() -> None:
    written = ["2026-03-01T10:00:00+02:00", "2026-03-01T23:30:00-05:00", "2026-03-01T10:00Z",
               "2026-03-01 10:00:00", "01.03.2026 23:59",
               "2026-03-01T10:00:00.123+0530"]  # fmt: skip
    assert dates(written) == (["2026-03-01"] * 6, [False] * 6)


def test_zoned_date_objects_keep_their_own_wall_clock_date() -> None:
    eastern = dt.timezone(dt.timedelta(hours=-5))
    values = [dt.datetime(2026, 3, 1, 23, 30, tzinfo=eastern),
              dt.datetime(2026, 3, 2, 0, 30, tzinfo=dt.UTC), dt.date(2026, 3, 3)]  # fmt: skip
    assert dates(values, dtype="object") == (
        ["2026-03-01", "2026-03-02", "2026-03-03"],
        [False] * 3,
    )


@pytest.mark.parametrize(
    ("values", "dtype"),
    [
        (["10000-01-01", "2026-02-30", "0001-01-01", "3000000", "31/02/2026"], "str"),
        ([3e6, -1.0, float("inf"), 1e308], "float64"),
        ([dt.date(9999, 12, 31), dt.time(10, 0), True, 10**400], "object"),
    ],
)
def test_impossible_and_out_of_range_dates_are_bad_cells(values: list[object], dtype: str) -> None:
    parsed, bad = dates(values, dtype)
    assert parsed == [None] * len(values)
    assert bad == [True] * len(values)


def test_dates_at_the_edges_of_the_range() -> None:
    assert dates(["1900-01-01", "2199-12-31", "1899-12-31", "2200-01-01"]) == (
        ["1900-01-01", "2199-12-31", None, None],
        [False, False, True, True],
    )


@pytest.mark.parametrize(
    ("text", "number"),
    [("12,5", 12.5), ("1.234,5", 1234.5), ("1,234,567.5", 1234567.5), ("1 234,5", 1234.5),
     ("1'234.5", 1234.5), ("\u22125", -5.0), ("1e3", 1000.0), ("1e308", 1e308)],
)  # fmt: skip
def test_numbers_are_read_as_people_write_them(text: str, number: float) -> None:
    parsed, bad = parse_number(pd.Series([text], dtype="str"))
    assert parsed.tolist() == [number]
    assert bad.tolist() == [False]


@pytest.mark.parametrize(
    "text", ["1e400", "NaN", "inf", "-Infinity", "∞", "1,2,3", "12.34.5", "١٢", "１２", "0x10",
             "1_000", "1" + "0" * 400, "--5"],
)  # fmt: skip
def test_text_that_is_no_finite_number_is_a_bad_cell(text: str) -> None:
    parsed, bad = parse_number(pd.Series([text, "5"], dtype="str"))
    assert pd.isna(parsed.iloc[0])
    assert bad.tolist() == [True, False]


def test_huge_integers_in_object_cells_are_bad_cells_not_errors() -> None:
    parsed, bad = parse_number(pd.Series([10**400, 5, None], dtype=object))
    assert bad.tolist() == [True, False, False]
    assert parsed.iloc[1] == 5
    assert as_text(pd.Series([10**400, 5], dtype=object)).tolist() == ["1" + "0" * 400, "5"]


def test_a_column_of_whole_and_decimal_numbers_reads_as_its_text_reads() -> None:
    rng = random.Random(11)
    cells: list[object] = [rng.choice([rng.randint(-10**18, 10**18), rng.uniform(-1e6, 1e6),
                                       rng.randint(0, 99), None]) for _ in range(500)]  # fmt: skip
    mixed = pd.Series(cells, dtype=object)
    parsed, bad = parse_number(mixed)
    from_text, bad_text = parse_number(as_text(mixed))
    assert object_kind(mixed) == "mixed-integer-float"
    assert not bad.any()
    assert parsed.equals(from_text)
    assert bad.tolist() == bad_text.tolist()
    parsed, bad = parse_number(pd.Series([10**400, 2.5, None], dtype=object))
    assert bad.tolist() == [True, False, False]
    assert parsed.iloc[1] == 2.5


def test_no_cell_makes_the_parsers_raise() -> None:
    rng = random.Random(7)
    alphabet = "0123456789.,;:-+eE/TZ :\u00a0\u2212'∞naifINF\x00\x07\n\t年"
    cells: list[object] = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
                           for _ in range(3000)]  # fmt: skip
    cells += [None, np.nan, 1e308, -1e308, 10**30, True, dt.time(1, 2), dt.timedelta(days=3),
              dt.date(1, 1, 1), pd.Timestamp("2262-04-11"), b"bytes", ("tuple",)]  # fmt: skip
    for values in (pd.Series(cells, dtype=object), pd.Series([str(c) for c in cells], dtype="str")):
        numbers, bad_numbers = parse_number(values)
        parsed, bad_dates = parse_date(values)
        assert len(numbers) == len(bad_numbers) == len(parsed) == len(bad_dates) == len(values)
        assert np.isfinite(numbers.dropna()).all()
        as_text(values)
        has_control_characters(values)


def test_control_characters_are_found_in_text_cells_only() -> None:
    text = pd.Series(["a\x00b", "ok", "tab\there", "two\nlines", "cr\r\n", None, "bell\x07",
                      "c1\x85", "del\x7f"], dtype="str")  # fmt: skip
    assert has_control_characters(text).tolist() == [
        True, False, False, False, False, False, True, True, True
    ]  # fmt: skip
    mixed = pd.Series(["a\x00b", 5.0, None, dt.date(2026, 1, 1)], dtype=object)
    assert has_control_characters(mixed).tolist() == [True, False, False, False]
    assert has_control_characters(pd.Series([1.0, 2.0])).tolist() == [False, False]
