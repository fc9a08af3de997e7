"""Numbers, dates and times as the report prints them: thousands separators, fixed decimals, UTC.

Missing values (None, NaN, NaT) print as an en dash, never as "nan" or "None".
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pandas as pd

MISSING = "\u2013"
#: Totals of at least this many kg are charted in tonnes (ticks stay short and readable).
TONNES_FROM_KG = 10_000.0


def is_missing(value: Any) -> bool:
    """None, NaN, NaT and pandas' NA."""
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def kg(value: Any, decimals: int = 1) -> str:
    """``1,234.5 kg``."""
    return MISSING if is_missing(value) else f"{float(value):,.{decimals}f} kg"


def tonnes(value_kg: Any, decimals: int = 2) -> str:
    """``1.23 t`` from a value in kg."""
    return MISSING if is_missing(value_kg) else f"{float(value_kg) / 1000:,.{decimals}f} t"


def count(value: Any) -> str:
    """``12,345``."""
    return MISSING if is_missing(value) else f"{int(value):,}"


def decimal(value: Any, decimals: int = 1) -> str:
    """``1,234.5`` (no unit)."""
    if is_missing(value) or math.isinf(float(value)):
        return MISSING
    return f"{float(value):,.{decimals}f}"


def day(value: Any) -> str:
    """``2026-03-31``."""
    return MISSING if is_missing(value) else pd.Timestamp(value).strftime("%Y-%m-%d")


def instant(value: Any, *, zone: bool = True) -> str:
    """``2026-03-31 14:05 UTC`` (warehouse timestamps are read in UTC); without ``zone``, no
    ``UTC`` (for a column whose header says it)."""
    if is_missing(value):
        return MISSING
    stamp = pd.Timestamp(value)
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    return stamp.strftime("%Y-%m-%d %H:%M UTC" if zone else "%Y-%m-%d %H:%M")


def now_utc() -> dt.datetime:
    """The generation time of a report."""
    return dt.datetime.now(dt.UTC)


def chart_unit(total_kg: float) -> tuple[str, float]:
    """The unit the charts use for this report and its divisor from kg: ``("t", 1000.0)``."""
    return ("t", 1000.0) if abs(total_kg) >= TONNES_FROM_KG else ("kg", 1.0)
