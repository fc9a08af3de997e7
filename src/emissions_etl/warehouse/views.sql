-- Views for analysts and people fixing spreadsheets; replaced when this file changes.
-- `emissions` is a public contract: extend it, never rename or drop a column.
-- Rows of one organization join only rows of the same organization (null for a warehouse
-- written before organizations were recorded: `IS NOT DISTINCT FROM`).
-- `resource_catalog` is only ever read through a semi-join: two writers of a lake describing a
-- resource at once leave it two rows (appends never conflict), which must not double anything.

CREATE OR REPLACE VIEW emissions AS
WITH mapping AS (
    SELECT * FROM remote_ids
    QUALIFY row_number() OVER (
        PARTITION BY organization_id, resource, remote_id ORDER BY loaded_at DESC) = 1
)
SELECT
    r.resource,
    coalesce(r.source_key, m.source_key)                AS source_key,
    r.remote_id,
    r.activity_date,
    r.co2e_kg,
    r.status,
    coalesce(m.loaded_at, r.landed_at)                  AS loaded_at,
    r.facility_id,
    s.source_file,
    s.source_sheet,
    s.source_row,
    coalesce(f.name, json_extract_string(s.payload, '$.facility')) AS facility_name,
    r.remote_updated_at,
    r.resource IN (SELECT resource FROM resource_catalog WHERE is_aggregate) AS is_aggregate,
    coalesce(m.source_name, s.source_name)              AS source_name,
    r.organization_id
FROM remote_records AS r
LEFT JOIN mapping AS m
    ON m.organization_id IS NOT DISTINCT FROM r.organization_id
    AND m.resource = r.resource AND m.remote_id = r.remote_id
LEFT JOIN source_rows AS s
    ON s.organization_id IS NOT DISTINCT FROM r.organization_id
    AND s.resource = r.resource AND s.source_key = coalesce(r.source_key, m.source_key)
LEFT JOIN facilities AS f
    ON f.organization_id IS NOT DISTINCT FROM r.organization_id
    AND f.facility_id = r.facility_id;

CREATE OR REPLACE VIEW load_run_summary AS
SELECT
    run_id, resource, source, outcome, started_at, finished_at,
    date_diff('millisecond', started_at, finished_at) / 1000.0 AS duration_s,
    rows_read, rows_rejected, rows_unchanged, rows_sent, rows_loaded, rows_deleted,
    rows_failed, rows_recovered, co2e_kg, error, source_name, organization_id
FROM load_runs
ORDER BY started_at DESC;

CREATE OR REPLACE VIEW rejects_latest AS
WITH latest AS (
    SELECT run_id, source, started_at FROM load_runs
    QUALIFY row_number() OVER (
        PARTITION BY organization_id, resource, source ORDER BY started_at DESC) = 1
)
SELECT l.source, l.started_at AS run_started_at, j.*
FROM rejects AS j
JOIN latest AS l USING (run_id)
ORDER BY l.source, j.sheet, j."row", j."column";
