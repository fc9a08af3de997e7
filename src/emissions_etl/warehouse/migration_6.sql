-- Schema version 6: inventories as they were filed, and the digest of every file loaded.

-- The SHA-256 of the file a run read, computed as it was loaded (an auditor tells by it that a
-- document is the one behind a figure). Null for runs of a version that did not record it.
ALTER TABLE load_runs ADD COLUMN IF NOT EXISTS file_sha256 VARCHAR;

-- One row per inventory filed (`emissions-etl file-inventory`): what was filed and what
-- reproduces it. On a DuckLake, `snapshot_id` is the lake's snapshot the figures were read at
-- (read back with `ATTACH ... (SNAPSHOT_VERSION n)`, or `AT (VERSION => n)`): whoever expires
-- snapshots (`maintain-warehouse`) keeps back every snapshot listed here. On a DuckDB file it
-- is null, and `filed_inventory_records` holds a frozen copy of the records behind it.
CREATE TABLE IF NOT EXISTS filed_inventories (
    filed_id                VARCHAR NOT NULL,       -- key; printed by file-inventory
    organization_id         VARCHAR,                -- whose inventory (null: not recorded)
    reporting_year          INTEGER NOT NULL,
    base_year               INTEGER,                -- the base year shown beside it, if any
    consolidation_approach  VARCHAR NOT NULL,
    filed_at                TIMESTAMPTZ NOT NULL,
    filed_by                VARCHAR NOT NULL,
    note                    VARCHAR,
    total_co2e_kg           DOUBLE,                 -- Total GHG emissions (location-based)
    records                 BIGINT NOT NULL,        -- activity records of the reporting year
    lines                   JSON NOT NULL,          -- the ESRS E1-6 lines of the reporting year
    snapshot_id             BIGINT                  -- a lake's snapshot; null on a DuckDB file
);

-- The records behind a filed inventory of a DuckDB file, frozen when it was filed: every
-- activity record of its years (the reporting year, the one before, the base year) and those
-- without a date, each with its line, its row, and the file it came from.
CREATE TABLE IF NOT EXISTS filed_inventory_records (
    filed_id                VARCHAR NOT NULL,
    organization_id         VARCHAR,
    consolidation_approach  VARCHAR,
    scope                   INTEGER,
    category                INTEGER,
    category_name           VARCHAR,
    resource                VARCHAR,
    remote_id               VARCHAR,
    source_key              VARCHAR,
    activity_date           DATE,
    facility_id             VARCHAR,
    facility_name           VARCHAR,
    co2e_kg                 DOUBLE,
    status                  VARCHAR,
    source_file             VARCHAR,
    source_sheet            VARCHAR,
    source_row              BIGINT,
    unclassified_reason     VARCHAR,
    source_name             VARCHAR,
    run_id                  VARCHAR,
    landed_at               TIMESTAMPTZ,
    file_sha256             VARCHAR
);
