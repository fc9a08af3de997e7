"""The coverage a report shows (of its reporting year, else of the year of the last month ended
by its as-of date), or why it shows none."""

from __future__ import annotations

from dataclasses import replace
from typing import TypedDict

from emissions_etl.coverage import Coverage, CoverageRequest, last_ended_year, read_coverage, today
from emissions_etl.errors import ConfigurationError, InputError
from emissions_etl.warehouse import Warehouse


class CoverageData(TypedDict, total=False):
    """The report data's coverage fields (``ReportData``'s of the same names) a page has."""

    coverage: Coverage | None
    coverage_note: str


def coverage_data(warehouse: Warehouse, request: CoverageRequest) -> CoverageData:
    """The coverage ``request`` asks for (its year, else the last ended month's), one
    organization's: with several and none named, the page says why it has none."""
    as_of = request.as_of or today()
    year = request.year if request.year is not None else last_ended_year(as_of)
    try:
        coverage = read_coverage(warehouse, replace(request, year=year, as_of=as_of))
    except InputError:
        note = "This warehouse has no coverage yet: any load with this version adds it."
        return {"coverage": None, "coverage_note": note}
    except ConfigurationError as error:
        note = (
            f"No coverage on this page: {error}. <code>emissions-etl coverage --organization "
            "NAME</code> (or its id) shows each one's."
        )
        return {"coverage": None, "coverage_note": note}
    return {"coverage": coverage}
