"""Rows of shipment legs (logistics requests) and their packages: upsert on the dedup key,
calculated values, batch delete. A package's totals are sums over its legs, read live."""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import date
from typing import Any

from emissions_sandbox.auth import Principal
from emissions_sandbox.clock import utc_now
from emissions_sandbox.errors import ServiceError
from emissions_sandbox.logistics.leg_calculation import (
    LegError,
    LegFigures,
    calculate_leg,
    load_tonnes,
    resolve_toc,
)
from emissions_sandbox.logistics.models import RequestIn

_ECHOED = (
    "origin", "destination", "load", "load_unit", "load_factor", "origin_country",
    "movement_id", "client", "movement_stretch", "movement_stage", "vehicle_license_plate",
    "trailer_license_plate", "package_key",
)  # fmt: skip


def dedup_key(body: RequestIn) -> str | None:
    """facts §4.1: `movement_id` is the dedup key; legs of one movement differ by stretch."""
    if body.movement_id is None:
        return None
    return f"{body.movement_id}|{body.movement_stretch or ''}"


def request_to_wire(row: sqlite3.Row) -> dict[str, Any]:
    wire = {key: row[key] for key in (*_ECHOED, "id", "status", "co2e", "distance_km", "category",
            "toc", "year", "shipment_date", "tkm", "hub_id", "package_id", "project_id",
            "emission_intensity", "created_at", "updated_at")}  # fmt: skip
    wire["kgco2e"] = row["co2e"]  # facts §4.5: newer pages name it kgco2e
    wire["cleaning"] = bool(row["cleaning"])
    wire["subcontractor"] = bool(row["subcontractor"])
    wire["error_messages"] = json.loads(row["error_messages"])
    wire["estimated_data"] = json.loads(row["estimated_data"])
    return wire


def _check_hub(conn: sqlite3.Connection, organization_id: str, hub_id: uuid.UUID | None) -> None:
    if hub_id is None:
        return
    row = conn.execute(
        "SELECT 1 FROM logistic_hubs WHERE id = ? AND organization_id = ?",
        (str(hub_id), organization_id),
    ).fetchone()
    if row is None:
        raise LegError("HUB_NOT_FOUND", f"Logistic hub {hub_id} not found")


def _package_id(conn: sqlite3.Connection, organization_id: str, body: RequestIn) -> str | None:
    if body.package_key is None:
        return None
    now = utc_now()
    row = conn.execute(
        "SELECT id FROM logistics_packages WHERE organization_id = ? AND package_key = ?",
        (organization_id, body.package_key),
    ).fetchone()
    if row is not None:
        conn.execute("UPDATE logistics_packages SET updated_at = ? WHERE id = ?", (now, row[0]))
        return str(row[0])
    package_id = str(uuid.uuid4())
    conn.execute(
        """INSERT INTO logistics_packages (id, organization_id, package_key, shipment_id,
        client_billing_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
        (package_id, organization_id, body.package_key, body.movement_id, body.client, now, now),
    )
    return package_id


def _upfront_tkm(body: RequestIn) -> float | None:
    """v2 (facts §4.2): tkm is computed up front only when the client sent distance_km."""
    if body.tkm is not None:
        return body.tkm
    if body.distance_km is None:
        return None
    try:
        return load_tonnes(body, resolve_toc(body))[0] * body.distance_km
    except LegError:
        return None


def save_request(
    conn: sqlite3.Connection, principal: Principal, body: RequestIn, *, deferred: bool
) -> tuple[sqlite3.Row, bool]:
    """Insert or update (same dedup key) one leg; (row, created). v1 calculates now and raises
    LegError before writing; v2 (`deferred`) writes it `pending` for the worker."""
    org = principal.organization_id
    _check_hub(conn, org, body.hub_id)
    figures = None if deferred else calculate_leg(body)
    fields: dict[str, Any] = {key: getattr(body, key) for key in _ECHOED}
    fields.update(
        input=body.model_dump_json(),
        dedup_key=dedup_key(body),
        year=body.year or date.today().year,
        shipment_date=(body.shipment_date or date.today()).isoformat(),
        cleaning=int(body.cleaning),
        subcontractor=int(body.subcontractor),
        hub_id=str(body.hub_id) if body.hub_id else None,
        project_id=str(body.project_id) if body.project_id else None,
        package_id=_package_id(conn, org, body),
        updated_at=utc_now(),
        **_calculated(body, figures),
    )
    existing = None
    if fields["dedup_key"] is not None:
        existing = conn.execute(
            "SELECT id FROM logistics_requests WHERE organization_id = ? AND dedup_key = ?",
            (org, fields["dedup_key"]),
        ).fetchone()
    if existing is not None:
        request_id = str(existing[0])
        assignments = ", ".join(f"{column} = ?" for column in fields)
        conn.execute(
            f"UPDATE logistics_requests SET {assignments} WHERE id = ?",
            [*fields.values(), request_id],
        )
        prune_packages(conn, org)
    else:
        request_id = str(uuid.uuid4())
        fields.update(id=request_id, organization_id=org, created_by=principal.user_id,
                      created_at=fields["updated_at"])  # fmt: skip
        conn.execute(
            f"INSERT INTO logistics_requests ({', '.join(fields)}) "
            f"VALUES ({', '.join('?' * len(fields))})",
            list(fields.values()),
        )
    row = conn.execute("SELECT * FROM logistics_requests WHERE id = ?", (request_id,)).fetchone()
    return row, existing is None


def _calculated(body: RequestIn, figures: LegFigures | None) -> dict[str, Any]:
    if figures is None:
        return {"status": "pending", "distance_km": body.distance_km, "tkm": _upfront_tkm(body),
                "toc": body.toc, "category": body.category, "load_tonnes": None, "co2e": None,
                "emission_intensity": None, "error_messages": "[]",
                "estimated_data": "[]"}  # fmt: skip
    return {
        "status": "active",
        "distance_km": figures.distance_km,
        "tkm": figures.tkm,
        "toc": figures.toc,
        "category": figures.category,
        "load_tonnes": figures.load_tonnes,
        "co2e": figures.co2e,
        "emission_intensity": figures.emission_intensity,
        "error_messages": "[]",
        "estimated_data": json.dumps(figures.estimated_data),
    }


def record_calculation(conn: sqlite3.Connection, request_id: str, body: RequestIn) -> None:
    """The v2 worker's step: calculate a pending leg, or mark it `error` with the reason."""
    try:
        columns = _calculated(body, calculate_leg(body))
    except LegError as exc:
        columns = {"status": "error", "error_messages": json.dumps([exc.code])}
    columns["updated_at"] = utc_now()
    assignments = ", ".join(f"{column} = ?" for column in columns)
    conn.execute(
        f"UPDATE logistics_requests SET {assignments} WHERE id = ? AND status = 'pending'",
        [*columns.values(), request_id],
    )


def prune_packages(conn: sqlite3.Connection, organization_id: str) -> None:
    """A package lives while it has legs (decision: README logistics)."""
    conn.execute(
        """DELETE FROM logistics_packages WHERE organization_id = ? AND NOT EXISTS
        (SELECT 1 FROM logistics_requests r WHERE r.package_id = logistics_packages.id)""",
        (organization_id,),
    )


def delete_rows(conn: sqlite3.Connection, table: str, organization_id: str, ids: list[str]) -> None:
    """All or nothing: an unknown id, or another organization's, is 404 NOT_FOUND."""
    unique = sorted(set(ids))
    found = {
        row[0]
        for start in range(0, len(unique), 500)
        for row in conn.execute(
            f"SELECT id FROM {table} WHERE organization_id = ? AND id IN "
            f"({','.join('?' * len(unique[start : start + 500]))})",
            [organization_id, *unique[start : start + 500]],
        )
    }
    missing = [i for i in unique if i not in found]
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise ServiceError(404, "NOT_FOUND", f"{len(missing)} id(s) not found: {shown}")
    for start in range(0, len(unique), 500):
        chunk = unique[start : start + 500]
        conn.execute(f"DELETE FROM {table} WHERE id IN ({','.join('?' * len(chunk))})", chunk)
    prune_packages(conn, organization_id)
