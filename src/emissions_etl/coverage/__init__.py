"""Is the inventory complete: which months of which vehicles, facilities, employees and of the
organization were expected, which arrived, which are missing and past their due date, and what
each missing one is estimated at (the warehouse's ``coverage``), read for a year as of a date;
an expectations file saying what differs from the defaults; the matrix a person reads, and the
coverage as csv or xlsx (``coverage.files``, which loads the workbook writer).

    from emissions_etl.coverage import CoverageRequest, read_coverage
    coverage = read_coverage(Warehouse("warehouse.duckdb"), CoverageRequest(year=2026))
    coverage.overdue                  # the gaps past their due date

Reads the warehouse through ``Warehouse.query``; stores an expectations file through a writer.

Floor: above the inventory, profiles, webhooks and connection, below the load engine. May import
the inventory (its file writers), resources, organizations, settings, warehouse, domain,
sources and errors; never the load engine or anything above.
"""

from __future__ import annotations

from emissions_etl.coverage.expectations import parse_expectations, read_expectations
from emissions_etl.coverage.matrix import (
    LEGEND,
    MatrixRow,
    matrix,
    matrix_text,
    months_of,
    period_label,
)
from emissions_etl.coverage.reading import (
    Coverage,
    CoverageRequest,
    last_ended_year,
    read_coverage,
)
from emissions_etl.warehouse import today

__all__ = [
    "LEGEND",
    "Coverage",
    "CoverageRequest",
    "MatrixRow",
    "last_ended_year",
    "matrix",
    "matrix_text",
    "months_of",
    "parse_expectations",
    "period_label",
    "read_coverage",
    "read_expectations",
    "today",
]
