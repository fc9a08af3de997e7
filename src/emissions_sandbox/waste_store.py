"""Writing and reading waste rows; writes use executemany inside the caller's transaction."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

from emissions_sandbox.clock import utc_now
from emissions_sandbox.waste_records import UuidText, WasteRecord

# A waste's wire fields, in the order of the interface's Waste record (wire_models.Waste).
WASTE_WIRE_FIELDS = (
    "id",
    "facility_id",
    "identification_name",
    "description",
    "destination",
    "start_date",
    "end_date",
    "base_quantity",
    "unit_id",
    "quantity",
    "waste_efs_id",
    "low_code",
    "rd_code",
    "total_km_to_waste_center",
    "client_row_id",
    "status",
    "co2e",
    "co2e_biomass",
    "ingest_job_id",
    "error_code",
    "created_at",
    "updated_at",
)
# low_code and rd_code are the factor's: scalar subqueries rather than a LEFT JOIN, so a page
# (LIMIT/OFFSET) looks them up for its own rows only and a count never joins.
_FACTOR_FIELDS = {
    field: f"(SELECT e.{field} FROM waste_efs e WHERE e.id = w.waste_efs_id)"
    for field in ("low_code", "rd_code")
}
WASTE_COLUMNS = ", ".join(
    f"{_FACTOR_FIELDS[field]} AS {field}" if field in _FACTOR_FIELDS else f"w.{field}"
    for field in WASTE_WIRE_FIELDS
)
WASTE_TABLE = "wastes w"


def new_ids(count: int) -> list[str]:
    """`count` random (version 4) uuids as text, as `str(uuid.uuid4())` writes them, from one
    read of os.urandom: uuid4() asks the system for 16 bytes and builds a UUID object per id."""
    digits = os.urandom(16 * count).hex()
    ids = []
    for start in range(0, 32 * count, 32):
        h = digits[start : start + 32]
        # version nibble 4; variant bits 10 (RFC 9562 §4.1), the other two bits stay random
        variant = "89ab"[int(h[16], 16) & 3]
        ids.append(f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{variant}{h[17:20]}-{h[20:]}")
    return ids


def insert_wastes(
    conn: sqlite3.Connection,
    records: list[WasteRecord],
    *,
    organization_id: str,
    user_id: str,
    ingest_job_id: str | None,
) -> list[str]:
    """Insert `loading` wastes (and their client_choice configs); returns their ids in order."""
    now = utc_now()
    ids = new_ids(len(records))
    text = UuidText()
    conn.executemany(
        """INSERT INTO wastes (id, organization_id, facility_id, identification_name,
        description, destination, start_date, end_date, base_quantity, unit_id, waste_efs_id,
        total_km_to_waste_center, client_row_id, status, ingest_job_id, created_by, created_at,
        updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'loading', ?, ?, ?, ?)""",
        [
            (
                waste_id,
                organization_id,
                text[r.facility_id],
                r.identification_name,
                r.description,
                r.destination,
                r.start_date.isoformat(),
                r.end_date.isoformat(),
                r.base_quantity,
                text[r.unit_id],
                text[r.waste_efs_id] if r.waste_efs_id else None,
                r.total_km_to_waste_center,
                r.client_row_id,
                ingest_job_id,
                user_id,
                now,
                now,
            )
            for waste_id, r in zip(ids, records, strict=True)
        ],
    )
    # interface: Waste record, custom_ef_record_id is persisted as a calculation config
    conn.executemany(
        "INSERT INTO waste_calculation_configs (waste_id, custom_ef_record_id) VALUES (?, ?)",
        [
            (waste_id, text[r.custom_ef_record_id])
            for waste_id, r in zip(ids, records, strict=True)
            if r.custom_ef_record_id
        ],
    )
    return ids


def waste_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    """A row of `SELECT WASTE_COLUMNS` as served: its columns are the wire fields, in order."""
    return dict(zip(WASTE_WIRE_FIELDS, row, strict=True))


def read_waste(conn: sqlite3.Connection, waste_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        f"SELECT {WASTE_COLUMNS} FROM {WASTE_TABLE} WHERE w.id = ?", (waste_id,)
    ).fetchone()
    return waste_to_wire(row) if row else None
