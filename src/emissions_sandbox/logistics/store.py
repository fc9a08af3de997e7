"""Tables of the logistics package (applied by `Database.migrate()`); reference data (TOCs,
fuels, load units) is read from data/*.csv at run time, so no rows are seeded here."""

from __future__ import annotations

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS logistic_hubs (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    address TEXT,
    country TEXT,
    type TEXT NOT NULL,
    category TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    supercharger INTEGER NOT NULL DEFAULT 0,
    facility_id TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (organization_id, name)
);

CREATE TABLE IF NOT EXISTS logistics_packages (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    package_key TEXT NOT NULL,
    shipment_id TEXT,
    client_billing_id TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (organization_id, package_key)
);

CREATE TABLE IF NOT EXISTS logistics_requests (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    created_by TEXT,
    input TEXT NOT NULL,                -- the validated body as JSON; the v2 worker reads it
    dedup_key TEXT,                     -- movement_id|movement_stretch, null without movement_id
    status TEXT NOT NULL,               -- pending (v2, not calculated), active, error
    origin TEXT,
    destination TEXT,
    distance_km REAL,
    load REAL,
    load_unit TEXT NOT NULL,
    load_factor REAL NOT NULL,
    load_tonnes REAL,
    category TEXT,
    toc TEXT,
    origin_country TEXT NOT NULL,
    year INTEGER NOT NULL,
    cleaning INTEGER NOT NULL,
    movement_id TEXT,
    client TEXT,
    shipment_date TEXT NOT NULL,
    movement_stretch TEXT,
    movement_stage TEXT,
    vehicle_license_plate TEXT,
    trailer_license_plate TEXT,
    subcontractor INTEGER NOT NULL,
    tkm REAL,
    hub_id TEXT,
    package_id TEXT,
    package_key TEXT,
    project_id TEXT,
    co2e REAL,
    emission_intensity REAL,
    error_messages TEXT NOT NULL DEFAULT '[]',
    estimated_data TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS logistics_requests_by_org
    ON logistics_requests (organization_id, created_at);
CREATE INDEX IF NOT EXISTS logistics_requests_dedup
    ON logistics_requests (organization_id, dedup_key);
CREATE INDEX IF NOT EXISTS logistics_requests_pending ON logistics_requests (status);
CREATE INDEX IF NOT EXISTS logistics_requests_by_package ON logistics_requests (package_id);
CREATE INDEX IF NOT EXISTS logistics_requests_by_hub ON logistics_requests (hub_id);

CREATE TABLE IF NOT EXISTS logistics_recharges (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    created_by TEXT,
    fuel_id TEXT NOT NULL,
    country TEXT NOT NULL,
    date TEXT NOT NULL,
    quantity REAL NOT NULL,
    vehicle_license_plate TEXT,
    toc_id TEXT,
    project_id TEXT,
    co2e REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS logistics_recharges_upsert
    ON logistics_recharges (organization_id, country, date, quantity);

CREATE TABLE IF NOT EXISTS facility_invoices (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    facility_id TEXT NOT NULL,
    type TEXT NOT NULL,
    invoice_number TEXT,
    quantity REAL,
    start_date TEXT,
    end_date TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS facility_invoices_by_facility ON facility_invoices (facility_id);
"""
