"""Validation of submitted waste records: schema rules, then business rules, every record
checked so a 422 lists them all (interface: POST /v2/wastes, Validation)."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from emissions_sandbox.errors import validation_entries
from emissions_sandbox.pagination import in_clause
from emissions_sandbox.reference_data import KILOGRAMS_ID

MAX_RECORDS = 5000  # interface: Limits, records per request


class WasteFields(BaseModel):
    """The fields a waste has in v1 and v2 alike (interface: Waste record; facts §1.1)."""

    model_config = ConfigDict(extra="forbid")
    facility_id: UUID
    identification_name: str = Field(min_length=1, max_length=255)
    start_date: date
    end_date: date
    base_quantity: float = Field(gt=0)
    unit_id: UUID = UUID(KILOGRAMS_ID)
    waste_efs_id: UUID | None = None
    description: str = ""
    destination: str = ""
    total_km_to_waste_center: float | None = Field(None, ge=0)


class WasteRecord(WasteFields):
    """One record of POST /v2/wastes: v2 names the custom factor `custom_ef_record_id`."""

    custom_ef_record_id: UUID | None = None
    client_row_id: str | None = Field(None, max_length=255)


class UuidText(dict[UUID | None, str]):
    """`str()` of each distinct uuid, worked out once: a batch names its few facilities, units
    and factors thousands of times, and `UUID.__str__` is slow Python."""

    def __missing__(self, key: UUID | None) -> str:
        text = self[key] = str(key)
        return text


def _entry(index: int, field: str, code: str, message: str) -> dict[str, Any]:
    return {"index": index, "field": field, "code": code, "message": message}


_RECORD_LIST = TypeAdapter(list[WasteRecord])


def parse_records(raw: list[Any]) -> tuple[list[tuple[int, WasteRecord]], list[dict[str, Any]]]:
    """Schema rules: the records that parse, with their index, and an entry per violation.

    The whole array is validated in one call (pydantic's loop, not ours); only when a record is
    invalid are they validated one by one, so every valid record is kept for business rules."""
    try:
        return list(enumerate(_RECORD_LIST.validate_python(raw))), []
    except ValidationError:
        return _parse_one_by_one(raw)


def _parse_one_by_one(
    raw: list[Any],
) -> tuple[list[tuple[int, WasteRecord]], list[dict[str, Any]]]:
    """Each record on its own: its violations carry its index, and the valid ones are kept."""
    parsed: list[tuple[int, WasteRecord]] = []
    errors: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        try:
            parsed.append((index, WasteRecord.model_validate(item)))
        except ValidationError as exc:
            entries = validation_entries(list(exc.errors()))
            errors.extend({**e, "index": index} for e in entries)
    return parsed, errors


def _existing(conn: sqlite3.Connection, sql: str, ids: set[str]) -> dict[str, sqlite3.Row]:
    found: dict[str, sqlite3.Row] = {}
    values = sorted(ids)
    for start in range(0, len(values), 500):
        part = values[start : start + 500]
        for row in conn.execute(sql.format(ids=in_clause("id", part)), part):
            found[row["id"]] = row
    return found


def business_errors(
    conn: sqlite3.Connection, organization_id: str, records: list[tuple[int, WasteRecord]]
) -> list[dict[str, Any]]:
    """Facility, dates, reference ids, custom factors and duplicate client_row_id."""
    text = UuidText()
    facilities = _existing(
        conn,
        "SELECT id, organization_id, status, deleted_at FROM facilities WHERE {ids}",
        {text[r.facility_id] for _, r in records},
    )
    efs = _existing(
        conn, "SELECT id FROM waste_efs WHERE {ids}", {text[r.waste_efs_id] for _, r in records}
    )
    units = _existing(
        conn, "SELECT id FROM units WHERE {ids}", {text[r.unit_id] for _, r in records}
    )
    customs = _existing(
        conn,
        "SELECT id, organization_id, deleted_at FROM custom_emission_factors WHERE {ids}",
        {text[r.custom_ef_record_id] for _, r in records if r.custom_ef_record_id},
    )
    errors: list[dict[str, Any]] = []
    seen_client_ids: dict[str, int] = {}
    for index, record in records:
        facility = facilities.get(text[record.facility_id])
        if (
            facility is None
            or facility["deleted_at"]
            or facility["organization_id"] != organization_id
        ):
            errors.append(_entry(index, "facility_id", "FACILITY_NOT_FOUND", "Facility not found"))
        elif facility["status"] != "active":
            errors.append(_entry(index, "facility_id", "FACILITY_INACTIVE", "Facility is archived"))
        if record.start_date > record.end_date:
            errors.append(_entry(index, "end_date", "DATE_ORDER", "end_date is before start_date"))
        if record.waste_efs_id is not None and text[record.waste_efs_id] not in efs:
            errors.append(
                _entry(index, "waste_efs_id", "WASTE_EF_NOT_FOUND", "Unknown waste emission factor")
            )
        if text[record.unit_id] not in units:
            errors.append(_entry(index, "unit_id", "UNIT_NOT_FOUND", "Unknown unit"))
        if record.custom_ef_record_id is not None:
            custom = customs.get(text[record.custom_ef_record_id])
            if (
                custom is None
                or custom["deleted_at"]
                or custom["organization_id"] != organization_id
            ):
                errors.append(
                    _entry(
                        index,
                        "custom_ef_record_id",
                        "CUSTOM_EF_NOT_FOUND",
                        "Unknown custom emission factor",
                    )
                )
        if record.client_row_id is not None:
            first = seen_client_ids.setdefault(record.client_row_id, index)
            if first != index:
                errors.append(
                    _entry(
                        index,
                        "client_row_id",
                        "DUPLICATE_CLIENT_ROW_ID",
                        f"client_row_id already used by record {first}",
                    )
                )
    return errors
