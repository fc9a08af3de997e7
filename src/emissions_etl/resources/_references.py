"""Reference lists several resources resolve names with, declared once."""

from __future__ import annotations

from emissions_etl.domain.references import ReferenceList

#: The organization's facilities, by name; landed in the warehouse's ``facilities`` table.
FACILITIES = ReferenceList(
    "facilities", "/v1/facilities", label="facility", column="facility", directory=True
)
UNITS = ReferenceList("units", "/v1/units", label="unit")
TOCS = ReferenceList("tocs", "/v1/logistics/tocs", keys=("toc",), label="TOC", column="toc")
