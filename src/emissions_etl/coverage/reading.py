"""Read the coverage of a warehouse: ``coverage_at(as_of, due_day)`` of one organization, for a
year or every year, after storing the expectations file a request gives (so the view
``coverage``, this command and the nightly read the same expectations).

Read-only, through ``Warehouse.query``, but for the expectations, written through a writer of
the organization they are for.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from emissions_etl.coverage.expectations import read_expectations
from emissions_etl.errors import InputError
from emissions_etl.organizations import one_organization
from emissions_etl.warehouse import COVERAGE_COLUMNS, Warehouse, today

#: Whether the coverage relations exist (a warehouse last written by an older version has none).
HAS_COVERAGE = """
    SELECT count(*) AS n FROM information_schema.tables
    WHERE table_schema = 'main' AND table_name = 'coverage_records'
"""
#: The organizations whose records the warehouse holds.
ORGANIZATIONS = "SELECT DISTINCT organization_id FROM remote_records"
COVERAGE = """
    SELECT * FROM coverage_at(CAST(? AS DATE), CAST(? AS INTEGER))
    WHERE organization_id IS NOT DISTINCT FROM ? AND (? IS NULL OR year(month) = ?)
"""
#: Resources with activity records and no coverage rule yet (loaded by an older version).
UNCOVERED = """
    SELECT DISTINCT r.resource FROM remote_records AS r
    JOIN inventory_rules AS i USING (resource)
    WHERE r.resource NOT IN (SELECT resource FROM coverage_rules)
    ORDER BY 1
"""


@dataclass(frozen=True)
class CoverageRequest:
    """Which coverage to read: of ``year`` (None: every year), as of ``as_of`` (None: today,
    UTC), data due on day ``due_day`` of the next month (None: the expectations' day, else
    10), of ``organization`` (an id; None: the only one the warehouse holds), after storing
    the ``expectations`` file given (None: those stored stay)."""

    year: int | None = None
    as_of: dt.date | None = None
    due_day: int | None = None
    organization: str | None = None
    expectations: Path | None = None


@dataclass(frozen=True)
class Coverage:
    """One row per expected (resource, entity, period) of an organization (``COVERAGE_COLUMNS``)
    as of a date."""

    rows: pd.DataFrame
    as_of: dt.date
    year: int | None
    organization: str | None
    #: Resources whose records no coverage rule covers yet (their next load declares one).
    uncovered: tuple[str, ...] = ()

    @property
    def gaps(self) -> pd.DataFrame:
        """The missing periods."""
        return self.rows[self.rows["status"] == "missing"]

    @property
    def overdue(self) -> pd.DataFrame:
        """The missing periods past their due date."""
        return self.rows[self.rows["overdue"].astype(bool)]

    @property
    def estimated_kg(self) -> float:
        return float(self.rows["estimate_kg"].sum())

    def in_words(self) -> str:
        """``2026 as of 2026-07-01: 523 periods expected, 380 received, 143 missing (92
        overdue, 51 not yet due); 12.3 t co2e estimated``."""
        when = f"{self.year}" if self.year is not None else "every year"
        missing, overdue = len(self.gaps), len(self.overdue)
        return (
            f"{when} as of {self.as_of:%Y-%m-%d}: {len(self.rows):,} periods expected, "
            f"{len(self.rows) - missing:,} received, {missing:,} missing ({overdue:,} overdue, "
            f"{missing - overdue:,} not yet due); {self.estimated_kg / 1000:,.1f} t co2e "
            "estimated"
        )


def last_ended_year(as_of: dt.date) -> int:
    """The year of the last month ended by ``as_of`` (in January, last year): the year whose
    data is being sent."""
    return (as_of.replace(day=1) - dt.timedelta(days=1)).year


def read_coverage(warehouse: Warehouse, request: CoverageRequest) -> Coverage:
    """The coverage ``request`` asks for; InputError for an expectations file that cannot be
    used or a warehouse without coverage yet, ConfigurationError for an organization it holds
    no record of, or none named among several."""
    expectations = (
        read_expectations(request.expectations) if request.expectations is not None else None
    )
    with warehouse.reading():
        if not int(warehouse.query(HAS_COVERAGE)["n"].iloc[0]) and expectations is None:
            raise InputError(
                str(warehouse.target),
                "no coverage in this warehouse yet (written by an older emissions-etl): any "
                "load with this version adds it",
            )
        held = _held(warehouse)
    organization = one_organization(held, request.organization, "the coverage")
    if expectations is not None:
        store = Warehouse(warehouse.target, organization_id=organization, memory=warehouse.memory)
        with store.writer() as writer:
            writer.coverage.set_expectations(expectations, str(request.expectations))
    as_of = request.as_of or today()
    with warehouse.reading():
        rows = warehouse.query(
            COVERAGE, [as_of, request.due_day, organization, request.year, request.year]
        )
        uncovered = tuple(warehouse.query(UNCOVERED)["resource"])
    return Coverage(
        rows=rows[list(COVERAGE_COLUMNS)].reset_index(drop=True),
        as_of=as_of,
        year=request.year,
        organization=organization,
        uncovered=uncovered,
    )


def _held(warehouse: Warehouse) -> list[str | None]:
    """The organizations the warehouse holds records of (None: not recorded)."""
    found = warehouse.query(ORGANIZATIONS)["organization_id"]
    return [None if pd.isna(org) else str(org) for org in found]
