"""What varies by resource, declared once: columns, keys, chunk size, how results read back.

The generic loader (``upsert``, ``readback``, ``pipeline``) reads these declarations; adding a
resource is mostly a new ``ResourceSpec`` plus its schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

#: Interface, Limits: "Records per request 5,000 (POST /v2/wastes)".
MAX_RECORDS_PER_REQUEST = 5_000


@dataclass(frozen=True)
class ResourceSpec:
    """One loadable resource of the service."""

    name: str
    #: Fields of the API record, in the order the service documents them.
    record_fields: tuple[str, ...]
    #: The field the service echoes back and that identifies a source row.
    key_field: str = "client_row_id"
    #: Which record field dates the activity (for the ``emissions`` view).
    activity_date_field: str = "end_date"
    chunk_size: int = MAX_RECORDS_PER_REQUEST
    #: Record fields holding dates, sent as ``YYYY-MM-DD``.
    date_fields: tuple[str, ...] = ("start_date", "end_date")
    #: API field -> the spreadsheet column a person should fix when the service rejects it.
    input_column_of_field: Mapping[str, str] = field(default_factory=dict)


WASTES = ResourceSpec(
    name="wastes",
    record_fields=(
        "facility_id",
        "identification_name",
        "start_date",
        "end_date",
        "base_quantity",
        "unit_id",
        "waste_efs_id",
        "description",
        "destination",
        "total_km_to_waste_center",
        "client_row_id",
        "custom_ef_record_id",
    ),
    input_column_of_field=MappingProxyType(
        {
            "facility_id": "facility",
            "waste_efs_id": "ler_code",
            "unit_id": "unit",
            "identification_name": "identification_name",
            "start_date": "start_date",
            "end_date": "end_date",
            "base_quantity": "base_quantity",
            "description": "description",
            "destination": "destination",
            "client_row_id": "client_row_id",
        }
    ),
)

RESOURCES: Mapping[str, ResourceSpec] = MappingProxyType({WASTES.name: WASTES})


def resource_spec(name: str) -> ResourceSpec:
    """The declaration of ``name``; ValueError lists the known resources."""
    try:
        return RESOURCES[name]
    except KeyError:
        known = ", ".join(sorted(RESOURCES))
        raise ValueError(f"unknown resource {name!r}; known: {known}") from None
