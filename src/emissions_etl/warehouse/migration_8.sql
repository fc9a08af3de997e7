-- Schema version 8: is the inventory complete? What each resource's records cover (its
-- coverage rule, as its module declares it), what a team expects beyond the defaults (its
-- expectations file), and which figures of a filed inventory were estimated.

-- Where a resource's records sit in time and whose they are: SQL expressions over `record` (the
-- record the service returned), declared by a load of the resource as its inventory rule is.
-- The coverage views are composed from these rows when a writer opens the warehouse or a load
-- declares a rule (replaced only when that changes them).
CREATE TABLE IF NOT EXISTS coverage_rules (
    resource        VARCHAR NOT NULL,               -- key
    first_day_sql   VARCHAR NOT NULL,               -- the first day a record covers (NULL: its activity date)
    entity_resource VARCHAR,                        -- whose records: vehicles, facilities... (NULL: the organization's)
    entity_key_sql  VARCHAR,                        -- the entity's id, from the record
    entity_label_sql VARCHAR,                       -- the entity's name, from `entity` (its record)
    entity_ended_sql VARCHAR,                       -- true once the entity is no longer expected
    every_entity    BOOLEAN,                        -- every entity is expected, not only those with records
    declared_at     TIMESTAMPTZ NOT NULL
);

-- An expectations file (`coverage --expectations`, EMISSIONS_EXPECTATIONS) as it was last given
-- for an organization: one row per resource and entity it names (resource null: the file's own
-- defaults, entity null: every entity of the resource). Replaced whole each time a file is given.
CREATE TABLE IF NOT EXISTS coverage_expectations (
    organization_id VARCHAR,
    resource        VARCHAR,                        -- null: the defaults of the whole file
    entity          VARCHAR,                        -- null: every entity of the resource
    cadence         VARCHAR,                        -- monthly, quarterly or yearly (null: not said)
    expected        BOOLEAN,                        -- false: not expected at all (null: not said)
    expected_from   DATE,                           -- first month expected (null: not said)
    expected_until  DATE,                           -- last month expected (null: not said)
    estimate        VARCHAR,                        -- neighbours, year_earlier or none (null: not said)
    due_day         INTEGER,                        -- on the defaults row: the day of the next month data is due
    source          VARCHAR,                        -- the file they were read from
    declared_at     TIMESTAMPTZ NOT NULL
);

-- The estimates a filed inventory counted (`file-inventory --with-estimates`), line by line,
-- as they were when it was filed: which of its figures were estimated, and how.
CREATE TABLE IF NOT EXISTS filed_inventory_estimates (
    filed_id                VARCHAR NOT NULL,
    organization_id         VARCHAR,
    consolidation_approach  VARCHAR,
    scope                   INTEGER,
    category                INTEGER,
    category_name           VARCHAR,
    unclassified_reason     VARCHAR,
    resource                VARCHAR,
    entity                  VARCHAR,
    entity_id               VARCHAR,
    activity_month          DATE,
    facility_id             VARCHAR,
    facility_name           VARCHAR,
    estimate_kg             DOUBLE,
    estimate_method         VARCHAR
);

-- The date a filed inventory's estimates were read as of (null: filed without estimates).
ALTER TABLE filed_inventories ADD COLUMN IF NOT EXISTS estimates_as_of DATE;
