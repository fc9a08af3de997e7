-- Schema version 4: every row names its organization, so one warehouse (a DuckLake shared by
-- many workers) holds several. Rows written before belong to the first organization that opens
-- the file for writing (the writer fills them in); keys are now kept unique per organization.
ALTER TABLE load_runs ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE source_rows ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE remote_ids ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE pending_uploads ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE rejects ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE remote_records ADD COLUMN IF NOT EXISTS organization_id VARCHAR;
ALTER TABLE facilities ADD COLUMN IF NOT EXISTS organization_id VARCHAR;

-- Which version of views.sql the views are: they are replaced only when it changes (a lake's
-- writers would otherwise change its catalog at every open, and conflict).
CREATE TABLE IF NOT EXISTS view_version (
    name        VARCHAR NOT NULL,                   -- 'views.sql', or a resource's view
    digest      VARCHAR NOT NULL,                   -- of the statement that made it
    created_at  TIMESTAMPTZ NOT NULL
    -- key: name
);

-- Which process runs a load (`host:pid`): with several writers at once (a lake), only runs of
-- processes that died are marked interrupted.
ALTER TABLE load_runs ADD COLUMN IF NOT EXISTS runner VARCHAR;
