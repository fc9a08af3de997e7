"""DDL of the sandbox's own tables (the webhook package brings its own); every statement is
idempotent so `Database.migrate()` can create or upgrade a database."""

from __future__ import annotations

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES organizations(id),
    api_access INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS memberships (
    user_id TEXT NOT NULL REFERENCES users(id),
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    is_admin INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, organization_id)
);

CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    key_hash TEXT NOT NULL UNIQUE,
    revoked_at TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS units (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    tonnes_per_unit REAL
);

CREATE TABLE IF NOT EXISTS waste_efs (
    id TEXT PRIMARY KEY,
    low_code TEXT NOT NULL,
    low_name TEXT NOT NULL,
    low_description TEXT NOT NULL,
    rd_code TEXT NOT NULL,
    rd_name TEXT NOT NULL,
    rd_description TEXT NOT NULL,
    region TEXT NOT NULL,
    material TEXT NOT NULL,
    treatment TEXT NOT NULL,
    factor_kg_co2e_per_t REAL NOT NULL,
    source TEXT NOT NULL,
    UNIQUE (low_code, rd_code, region)
);

CREATE TABLE IF NOT EXISTS facilities (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    country TEXT NOT NULL,
    address TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    logistic_factor REAL,
    categories TEXT,
    cups_list TEXT,
    facility_purpose_type TEXT,
    deleted_at TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX IF NOT EXISTS facilities_org ON facilities (organization_id);

CREATE TABLE IF NOT EXISTS custom_emission_factors (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    factor_kg_co2e_per_t REAL NOT NULL,
    deleted_at TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS ingest_jobs (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    created_by TEXT,
    entity_type TEXT NOT NULL,
    operation TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    submitted INTEGER NOT NULL,
    succeeded INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    chunks_total INTEGER NOT NULL,
    chunks_done INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE INDEX IF NOT EXISTS ingest_jobs_org ON ingest_jobs (organization_id, created_at);
CREATE INDEX IF NOT EXISTS ingest_jobs_status ON ingest_jobs (status);

CREATE TABLE IF NOT EXISTS ingest_job_items (
    job_id TEXT NOT NULL REFERENCES ingest_jobs(id),
    source_row_index INTEGER NOT NULL,
    client_row_id TEXT,
    chunk_index INTEGER,
    stage TEXT NOT NULL,
    status TEXT NOT NULL,
    entity_id TEXT,
    error_code TEXT,
    error_params TEXT,
    attempt_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, source_row_index)
);
CREATE INDEX IF NOT EXISTS ingest_job_items_chunk ON ingest_job_items (job_id, chunk_index);

CREATE TABLE IF NOT EXISTS idempotency_keys (
    organization_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    job_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (organization_id, endpoint, key)
);

CREATE TABLE IF NOT EXISTS wastes (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    facility_id TEXT NOT NULL REFERENCES facilities(id),
    identification_name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    destination TEXT NOT NULL DEFAULT '',
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    base_quantity REAL NOT NULL,
    unit_id TEXT NOT NULL,
    quantity REAL,
    waste_efs_id TEXT,
    total_km_to_waste_center REAL,
    client_row_id TEXT,
    status TEXT NOT NULL,
    co2e REAL,
    co2e_biomass REAL,
    ingest_job_id TEXT,
    error_code TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
);
CREATE INDEX IF NOT EXISTS wastes_org ON wastes (organization_id, updated_at);
-- Every query naming ingest_job_id also names organization_id (GET /v2/wastes is scoped to the
-- caller's organization, interface: Rules 1), so wastes_org_job serves it; the index on
-- ingest_job_id alone only cost each insert. Dropped from databases that still have it.
DROP INDEX IF EXISTS wastes_job;
CREATE INDEX IF NOT EXISTS wastes_facility ON wastes (facility_id);
CREATE INDEX IF NOT EXISTS wastes_client_row ON wastes (organization_id, client_row_id);
-- Pages of one organization's records, whole or per job, without scanning the organization.
CREATE INDEX IF NOT EXISTS wastes_org_job ON wastes (organization_id, ingest_job_id, created_at);
CREATE INDEX IF NOT EXISTS wastes_org_created ON wastes (organization_id, created_at);

-- interface: Waste record, custom_ef_record_id is a client_choice calculation config keyed on
-- the waste, never a field of it.
CREATE TABLE IF NOT EXISTS waste_calculation_configs (
    waste_id TEXT PRIMARY KEY REFERENCES wastes(id),
    choice TEXT NOT NULL DEFAULT 'client_choice',
    custom_ef_record_id TEXT NOT NULL REFERENCES custom_emission_factors(id)
);
"""
