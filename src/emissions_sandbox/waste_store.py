"""Writing and reading waste rows; writes use executemany inside the caller's transaction."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from emissions_sandbox.clock import utc_now
from emissions_sandbox.waste_records import WasteRecord

WASTE_COLUMNS = """w.*, e.low_code AS low_code, e.rd_code AS rd_code"""
WASTE_TABLE = "wastes w LEFT JOIN waste_efs e ON e.id = w.waste_efs_id"


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
    ids = [str(uuid.uuid4()) for _ in records]
    conn.executemany(
        """INSERT INTO wastes (id, organization_id, facility_id, identification_name,
        description, destination, start_date, end_date, base_quantity, unit_id, waste_efs_id,
        total_km_to_waste_center, client_row_id, status, ingest_job_id, created_by, created_at,
        updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'loading', ?, ?, ?, ?)""",
        [
            (
                waste_id,
                organization_id,
                str(r.facility_id),
                r.identification_name,
                r.description,
                r.destination,
                r.start_date.isoformat(),
                r.end_date.isoformat(),
                r.base_quantity,
                str(r.unit_id),
                str(r.waste_efs_id) if r.waste_efs_id else None,
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
            (waste_id, str(r.custom_ef_record_id))
            for waste_id, r in zip(ids, records, strict=True)
            if r.custom_ef_record_id
        ],
    )
    return ids


def waste_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    keys = (
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
    return {k: row[k] for k in keys}


def read_waste(conn: sqlite3.Connection, waste_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        f"SELECT {WASTE_COLUMNS} FROM {WASTE_TABLE} WHERE w.id = ?", (waste_id,)
    ).fetchone()
    return waste_to_wire(row) if row else None
