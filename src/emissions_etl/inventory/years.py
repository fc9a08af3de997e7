"""Years side by side, as ESRS E1-6 lays its table out: the base year, the comparative year and
the reporting year, each line's co2e in tonnes, and the change from one year to the next.

A year with no activity record shows empty cells, never zeros (no data is not no emissions);
in a year with records every line has a figure, 0 where none of its records fall on it (the
years share their lines: a Scope 3 category of one year is a line of each).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class ComparedYear:
    """A column of the table: a year, whether it is the base year, whether it has records."""

    year: int
    is_base: bool = False
    has_records: bool = True

    @property
    def header(self) -> str:
        """``2024 base year (t)``, ``2026 (t)``: the column's heading in files and the report."""
        return f"{self.year} base year (t)" if self.is_base else f"{self.year} (t)"


def compared_years(year: int, base_year: int | None) -> list[ComparedYear]:
    """The columns for reporting year ``year``: the base year (when given), ``year - 1``,
    ``year``; ValueError for a base year after the reporting year."""
    if base_year is not None and base_year > year:
        raise ValueError(
            f"--base-year {base_year} is after the reporting year {year}: the base year is the "
            "first year emissions are compared with"
        )
    base = [ComparedYear(base_year, is_base=True)] if base_year is not None else []
    return [*base, ComparedYear(year - 1), ComparedYear(year)]


def change_header(year: int) -> str:
    """The heading of the change column: ``change 2026/2025 (%)``."""
    return f"change {year}/{year - 1} (%)"


def comparison_table(lines: list[tuple[ComparedYear, pd.DataFrame]]) -> pd.DataFrame:
    """``kind``, ``line``, a column of tonnes per compared year (``ComparedYear.header``; None
    for a year without records, and for the lines the service gives no figure for), and the
    change of the last year from the one before, in % (None where either is empty or the one
    before is 0). ``lines``: each year's ESRS lines, the years sharing their lines."""
    skeleton = lines[-1][1][["kind", "line"]].reset_index(drop=True)
    table = skeleton.copy()
    for compared, year_lines in lines:
        tonnes = year_lines.set_index(["kind", "line"])["co2e_t"]
        values = [tonnes.get((kind, line)) for kind, line in skeleton.itertuples(index=False)]
        table[compared.header] = [
            _tonnes(value) if compared.has_records else None for value in values
        ]
    current, previous = (compared.header for compared, _ in lines[-1:-3:-1])
    table[change_header(lines[-1][0].year)] = [
        _change(now, before) for now, before in zip(table[current], table[previous], strict=True)
    ]
    return table.astype(object).where(table.notna(), None)


def _tonnes(value: object) -> float | None:
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return None
    return float(value)  # type: ignore[arg-type]


def _change(now: float | None, before: float | None) -> float | None:
    if now is None or before is None or before == 0:
        return None
    return (now - before) / before * 100
