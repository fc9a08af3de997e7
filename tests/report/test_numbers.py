"""The report's cell formatters print whatever kind of cell pandas gives them (Python's
scalars, numpy's, pandas' Timestamp, NA and NaT) the same way."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from emissions_etl.report import numbers

MISSING_CELLS = [None, float("nan"), np.float64("nan"), np.float32("nan"), pd.NA, pd.NaT,
                 np.datetime64("NaT"), np.timedelta64("NaT"), Decimal("NaN")]  # fmt: skip


@pytest.mark.parametrize("cell", MISSING_CELLS, ids=repr)
def test_a_missing_cell_prints_as_a_dash(cell: object) -> None:
    assert numbers.is_missing(cell)
    for formatter in (numbers.kg, numbers.tonnes, numbers.count, numbers.decimal):
        assert formatter(cell) == numbers.MISSING
    assert numbers.day(cell) == numbers.MISSING
    assert numbers.instant(cell) == numbers.MISSING


@pytest.mark.parametrize("cell", [0, 0.0, "", "nan", False, Decimal("1.5"), [1, 2]], ids=repr)
def test_a_cell_holding_something_is_not_missing(cell: object) -> None:
    assert not numbers.is_missing(cell)


@pytest.mark.parametrize(
    "cell", [1234.5, np.float64(1234.5), np.float32(1234.5), Decimal("1234.5"), "1234.5"], ids=repr
)
def test_a_number_of_any_kind_prints_alike(cell: object) -> None:
    assert numbers.kg(cell) == "1,234.5 kg"
    assert numbers.tonnes(cell) == "1.23 t"
    assert numbers.decimal(cell, 2) == "1,234.50"


@pytest.mark.parametrize("cell", [12345, np.int64(12345), np.int32(12345), 12345.0, "12345"])
def test_a_count_of_any_kind_prints_alike(cell: object) -> None:
    assert numbers.count(cell) == "12,345"


@pytest.mark.parametrize("cell", [float("inf"), np.float64("-inf")], ids=repr)
def test_an_infinite_figure_prints_as_a_dash(cell: object) -> None:
    assert numbers.decimal(cell) == numbers.MISSING


@pytest.mark.parametrize(
    "cell",
    [
        pd.Timestamp("2026-03-31 14:05"),
        pd.Timestamp("2026-03-31 16:05", tz="Europe/Madrid"),
        dt.datetime(2026, 3, 31, 14, 5),
        dt.datetime(2026, 3, 31, 14, 5, tzinfo=dt.UTC),
        np.datetime64("2026-03-31T14:05"),
        "2026-03-31 14:05",
    ],
    ids=repr,
)
def test_a_time_of_any_kind_prints_in_utc(cell: object) -> None:
    assert numbers.instant(cell) == "2026-03-31 14:05 UTC"
    assert numbers.instant(cell, zone=False) == "2026-03-31 14:05"
    assert numbers.day(cell) == "2026-03-31"


def test_a_day_prints_as_its_date() -> None:
    assert numbers.day(dt.date(2026, 3, 31)) == "2026-03-31"


@pytest.mark.parametrize(
    "cell", [object(), [1, 2], pd.Timestamp("2026-03-31")], ids=["object", "list", "Timestamp"]
)
def test_what_is_no_number_is_an_error(cell: object) -> None:
    with pytest.raises(TypeError):
        numbers.kg(cell)
    with pytest.raises(TypeError):
        numbers.count(cell)


def test_what_is_no_time_is_an_error() -> None:
    with pytest.raises(TypeError):
        numbers.day(object())
