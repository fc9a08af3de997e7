"""``write_report``: read the warehouse, render the page, write it atomically."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from emissions_etl.coverage import CoverageRequest
from emissions_etl.errors import SourceNotFoundError
from emissions_etl.inventory import Estimates
from emissions_etl.report import numbers
from emissions_etl.report.html import render
from emissions_etl.report.inventory_data import InventoryRequest
from emissions_etl.report.queries import read_report_data
from emissions_etl.warehouse import DEFAULT_APPROACH, Warehouse


@dataclass(frozen=True)
class ReportSummary:
    """What a written report holds, for the command's one-line answer and for tests."""

    path: Path
    bytes: int
    records: int
    co2e_kg: float
    first_date: dt.date | None
    last_date: dt.date | None
    runs: int
    open_rejects: int
    charts: int
    generated_at: dt.datetime
    #: The inventory's one total (Total GHG emissions, location-based) of ``year`` (None: every
    #: year) under ``approach``; None when the page shows no inventory. ``co2e_kg`` is the
    #: co2e of every activity record, in the inventory or not.
    total_co2e_kg: float | None = None
    approach: str = DEFAULT_APPROACH
    year: int | None = None
    #: The co2e of every activity record of the inventory's period (of every year without an
    #: inventory), in the total or not.
    activity_co2e_kg: float = 0.0

    @property
    def empty(self) -> bool:
        """The warehouse had nothing in it: the page says so and has no chart."""
        return self.records == 0 and self.runs == 0 and self.open_rejects == 0


def write_report(
    warehouse: Warehouse | Path | str,
    out: Path | str,
    *,
    consolidation: str = DEFAULT_APPROACH,
    organization: str | None = None,
    year: int | None = None,
    base_year: int | None = None,
    against: str | None = None,
    with_estimates: bool = False,
    as_of: dt.date | None = None,
    due_day: int | None = None,
) -> ReportSummary:
    """Write the HTML report of ``warehouse`` to ``out`` (replaced whole, never half-written),
    its GHG inventory under the ``consolidation`` approach, of ``year`` (None: every year)
    beside the year before and ``base_year``, restated against the filed inventory ``against``;
    of ``organization`` alone when given (its id), else of every organization the warehouse
    holds. Its coverage is of ``year`` (None: the year of the last month ended) as of ``as_of``
    (None: today), data due on day ``due_day`` of the next month (None: as the expectations
    say, else 10); ``with_estimates`` adds the estimates of missing months to the inventory.

    Raises SourceNotFoundError when there is no warehouse file, WarehouseError when it cannot
    be read (locked by a load, not a DuckDB file), OSError when ``out`` cannot be written.
    """
    warehouse = warehouse if isinstance(warehouse, Warehouse) else Warehouse(warehouse)
    if not warehouse.target.exists:
        raise SourceNotFoundError(str(warehouse.target), "no warehouse file here")
    with warehouse.reading(organization):  # one connection (a lake is attached once)
        estimates = Estimates(as_of=as_of) if with_estimates else None
        request = InventoryRequest(consolidation, year, base_year, against, estimates)
        coverage = CoverageRequest(year=year, as_of=as_of, due_day=due_day)
        data = read_report_data(warehouse, inventory=request, coverage=coverage)
    generated_at = numbers.now_utc()
    name = str(warehouse.target) if warehouse.is_lake else warehouse.path.name
    page = render(data, warehouse_name=name, generated_at=generated_at)
    out = Path(out)
    encoded = page.html.encode("utf-8")
    _write_atomically(out, encoded)
    headline = data.headline
    return ReportSummary(
        path=out,
        bytes=len(encoded),
        records=data.records,
        co2e_kg=data.co2e_kg,
        first_date=_date(headline["first_date"]),
        last_date=_date(headline["last_date"]),
        runs=data.runs,
        open_rejects=data.open_rejects,
        charts=page.charts,
        generated_at=generated_at,
        total_co2e_kg=data.total_kg,
        approach=consolidation,
        year=year,
        activity_co2e_kg=data.co2e_kg if data.inventory is None else data.inventory.activity_kg,
    )


def _write_atomically(out: Path, content: bytes) -> None:
    """A reader (a browser refreshing) sees the old page or the new one, never half of it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        partial.write_bytes(content)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)


def _date(value: object) -> dt.date | None:
    return None if numbers.is_missing(value) else numbers.timestamp(value).date()
