"""Numbers, dates and times as the report prints them: thousands separators, fixed decimals, UTC.

Missing values (None, NaN, NaT) print as an en dash, never as "nan" or "None". The formatters
take a cell as pandas gives it (a frame's element, an ``itertuples`` field, a ``to_dict``
value: Python's scalars, numpy's, pandas' Timestamp and NA), so each takes an ``object`` and
decides how to print it.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import SupportsFloat, SupportsIndex, SupportsInt

import numpy as np
import pandas as pd

MISSING = "\u2013"
#: Totals of at least this many kg are charted in tonnes (ticks stay short and readable).
TONNES_FROM_KG = 10_000.0


def is_missing(value: object) -> bool:
    """None, NaN, NaT and pandas' NA (the scalars ``pd.isna`` reads as missing)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(
        value, float | complex | np.floating | np.complexfloating | np.datetime64 | np.timedelta64
    ):
        return bool(pd.isna(value))  # a NaN, or numpy's NaT
    return isinstance(value, Decimal) and value.is_nan()


def kg(value: object, decimals: int = 1) -> str:
    """``1,234.5 kg``."""
    return MISSING if is_missing(value) else f"{_float(value):,.{decimals}f} kg"


def tonnes(value_kg: object, decimals: int = 2) -> str:
    """``1.23 t`` from a value in kg."""
    return MISSING if is_missing(value_kg) else f"{_float(value_kg) / 1000:,.{decimals}f} t"


def count(value: object) -> str:
    """``12,345``."""
    return MISSING if is_missing(value) else f"{_int(value):,}"


def decimal(value: object, decimals: int = 1) -> str:
    """``1,234.5`` (no unit)."""
    if is_missing(value) or math.isinf(number := _float(value)):
        return MISSING
    return f"{number:,.{decimals}f}"


def day(value: object) -> str:
    """``2026-03-31``."""
    return MISSING if is_missing(value) else timestamp(value).strftime("%Y-%m-%d")


def instant(value: object, *, zone: bool = True) -> str:
    """``2026-03-31 14:05 UTC`` (warehouse timestamps are read in UTC); without ``zone``, no
    ``UTC`` (for a column whose header says it)."""
    if is_missing(value):
        return MISSING
    stamp = timestamp(value)
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    return stamp.strftime("%Y-%m-%d %H:%M UTC" if zone else "%Y-%m-%d %H:%M")


def timestamp(value: object) -> pd.Timestamp:
    """A cell that is not missing as pandas' Timestamp: a Timestamp, datetime or date, numpy's
    datetime64, text, or nanoseconds since the epoch."""
    if isinstance(value, str | dt.date | np.datetime64 | int | float | np.integer):
        return pd.Timestamp(value)
    raise TypeError(f"not a time: {value!r}")


def _float(value: object) -> float:
    """A number of any kind (numpy's, a Decimal) or its text, as a float."""
    # The usual kinds first: the protocols' checks are slower.
    if isinstance(value, float | int | np.number | str | SupportsFloat | SupportsIndex):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


def _int(value: object) -> int:
    """A number of any kind (numpy's, a Decimal, a whole float) or its text, as an int."""
    if isinstance(value, int | float | np.number | str | SupportsInt | SupportsIndex):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def now_utc() -> dt.datetime:
    """The generation time of a report."""
    return dt.datetime.now(dt.UTC)


def chart_unit(total_kg: float) -> tuple[str, float]:
    """The unit the charts use for this report and its divisor from kg: ``("t", 1000.0)``."""
    return ("t", 1000.0) if abs(total_kg) >= TONNES_FROM_KG else ("kg", 1.0)
