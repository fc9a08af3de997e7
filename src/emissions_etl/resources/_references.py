"""Reference lists several resources resolve names with, declared once."""

from __future__ import annotations

from emissions_etl.domain.references import Directory, ReferenceList

#: What the warehouse's ``facilities`` table keeps of each facility the service lists (its
#: names label every report): table column -> field of the listed facility.
FACILITY_DIRECTORY = Directory(
    {"facility_id": "id", "name": "name", "country": "country", "type": "type", "status": "status"}
)
#: The organization's facilities, by name; landed in the warehouse's ``facilities`` table.
FACILITIES = ReferenceList(
    "facilities",
    "/v1/facilities",
    label="facility",
    column="facility",
    directory=FACILITY_DIRECTORY,
)
UNITS = ReferenceList("units", "/v1/units", label="unit")
TOCS = ReferenceList("tocs", "/v1/logistics/tocs", keys=("toc",), label="TOC", column="toc")
