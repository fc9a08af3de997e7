"""An inventory as it was filed: who filed it, when, under which approach, its lines, and what
reproduces it (``filing`` records and reads them)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from emissions_etl.inventory.esrs import LINE_COLUMNS

#: The columns of the lines as filed (tonnes are derived).
FILED_LINE_COLUMNS = [name for name in LINE_COLUMNS if name != "co2e_t"]


@dataclass(frozen=True)
class FiledInventory:
    """An inventory as it was filed (a ``filed_inventories`` row)."""

    filed_id: str
    organization: str | None
    year: int
    base_year: int | None
    approach: str
    filed_at: dt.datetime
    filed_by: str
    note: str | None
    total_kg: float | None
    records: int
    #: The ESRS E1-6 lines of the reporting year as filed (``LINE_COLUMNS`` but tonnes).
    lines: pd.DataFrame
    #: The lake's snapshot the figures were read at; None on a DuckDB file (frozen records).
    snapshot_id: int | None
    #: The day the estimates its lines count were read as of; None: filed without estimates.
    estimates_as_of: dt.date | None = None

    def described(self) -> str:
        """``2026-3f9c2a1b (2026, operational_control, filed 2027-03-15 10:00 UTC by ana)``."""
        when = pd.Timestamp(self.filed_at).strftime("%Y-%m-%d %H:%M UTC")
        return f"{self.filed_id} ({self.year}, {self.approach}, filed {when} by {self.filed_by})"
