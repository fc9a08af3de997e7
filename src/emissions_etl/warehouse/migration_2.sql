-- Schema version 2: every resource of the interface, interrupted runs, resumable v1 writes.
-- Views that read the rebuilt table are dropped here and recreated by views.sql.
DROP VIEW IF EXISTS load_run_summary;
DROP VIEW IF EXISTS rejects_latest;
DROP VIEW IF EXISTS emissions;

-- Outcomes gain 'rejected' (every row rejected) and 'interrupted' (the process died mid-run).
CREATE TABLE load_runs_v2 (
    run_id          VARCHAR PRIMARY KEY,
    resource        VARCHAR NOT NULL,
    source          VARCHAR NOT NULL,
    parameters      JSON,
    started_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ,
    outcome         VARCHAR NOT NULL CHECK (outcome IN
        ('running', 'succeeded', 'partial', 'rejected', 'failed', 'dry_run', 'interrupted')),
    rows_read       BIGINT,
    rows_rejected   BIGINT,
    rows_unchanged  BIGINT,
    rows_sent       BIGINT,
    rows_loaded     BIGINT,
    rows_deleted    BIGINT,
    rows_failed     BIGINT,
    rows_recovered  BIGINT,
    counts          JSON,
    co2e_kg         DOUBLE,
    error           VARCHAR
);
INSERT INTO load_runs_v2 SELECT * FROM load_runs;
DROP TABLE load_runs;
ALTER TABLE load_runs_v2 RENAME TO load_runs;

-- What a v1 write is about to do, so the next run can find what a killed run created.
ALTER TABLE pending_uploads ADD COLUMN IF NOT EXISTS payload JSON;        -- the record sent
ALTER TABLE pending_uploads ADD COLUMN IF NOT EXISTS remote_id VARCHAR;   -- set for updates

-- One row per resource ever loaded: whether its co2e sums other records' (not to be added).
CREATE TABLE IF NOT EXISTS resource_catalog (
    resource        VARCHAR NOT NULL,               -- key
    is_aggregate    BOOLEAN NOT NULL,
    description     VARCHAR,
    landed_at       TIMESTAMPTZ NOT NULL
);
