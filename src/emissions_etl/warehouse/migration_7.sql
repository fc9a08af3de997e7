-- Schema version 7: rows of table sources (`load --from-sql`), named by their key.

-- A rejected row's key as its source names it (`txn_id=T-0101`), where a person finds the row
-- in the ERP; null for the rows of files (named by file, sheet and row) and for rejects of a
-- version that did not record it.
ALTER TABLE rejects ADD COLUMN IF NOT EXISTS "key" VARCHAR;

-- The same for a source row: what a mirror names when the row is gone from its table.
ALTER TABLE source_rows ADD COLUMN IF NOT EXISTS source_row_key VARCHAR;
