-- Schema version 3: a row's identity is its key or its content within its source, never its
-- place. Every mapping and source row names its source (the data set a file is a version of;
-- by default the file's name); rows keyed by their place (`file#sheet!row`, the keys of rows
-- without one before this version) are keyed again as the loader now keys them:
-- `<source>#<content hash>#<n>`, the n-th row of that content in the file, so the next load
-- finds them mapped instead of creating them again.
ALTER TABLE remote_ids ADD COLUMN IF NOT EXISTS source_name VARCHAR;
ALTER TABLE source_rows ADD COLUMN IF NOT EXISTS source_name VARCHAR;
ALTER TABLE load_runs ADD COLUMN IF NOT EXISTS source_name VARCHAR;

CREATE TEMP TABLE rekeyed AS
WITH placed AS (
    SELECT resource, source_key, source_hash, source_file,
           row_number() OVER (PARTITION BY resource, source_file, source_hash
                              ORDER BY source_sheet, source_row) AS nth
    FROM source_rows
    WHERE source_key = source_file || '#' || CASE WHEN coalesce(source_sheet, '') = ''
                                                  THEN '' ELSE source_sheet || '!' END
                       || CAST(source_row AS VARCHAR)
), keyed AS (
    SELECT resource, source_key AS old_key, source_file,
           source_file || '#' || source_hash || '#' || CAST(nth AS VARCHAR) AS new_key
    FROM placed
)
SELECT resource, old_key, source_file,
       CASE WHEN length(new_key) > 255 THEN 'sha256:' || sha256(new_key) ELSE new_key END
           AS new_key
FROM keyed;

UPDATE remote_ids AS m SET source_key = k.new_key
FROM rekeyed AS k WHERE m.resource = k.resource AND m.source_key = k.old_key;
UPDATE source_rows AS s SET source_key = k.new_key
FROM rekeyed AS k WHERE s.resource = k.resource AND s.source_key = k.old_key;
UPDATE remote_records AS r SET source_key = k.new_key
FROM rekeyed AS k WHERE r.resource = k.resource AND r.source_key = k.old_key;
DROP TABLE rekeyed;

UPDATE source_rows SET source_name = source_file WHERE source_name IS NULL;
UPDATE remote_ids AS m SET source_name = s.source_name
FROM source_rows AS s
WHERE m.source_name IS NULL AND s.resource = m.resource AND s.source_key = m.source_key;
