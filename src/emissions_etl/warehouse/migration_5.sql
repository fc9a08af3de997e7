-- Schema version 5: each resource's GHG inventory rule, as its module declares it (SQL
-- expressions over the record the service returned); the ghg_inventory views are composed from
-- these rows when a writer opens the warehouse or a load declares a rule (replaced only when
-- that changes them).
CREATE TABLE IF NOT EXISTS inventory_rules (
    resource        VARCHAR NOT NULL,               -- key
    scope_sql       VARCHAR NOT NULL,               -- 1, 2 or 3 (NULL: not classified)
    category_sql    VARCHAR NOT NULL,               -- Scope 3 category 1..15 (NULL otherwise)
    reason_sql      VARCHAR NOT NULL,               -- why a record gets no scope
    parent_resource VARCHAR,                        -- the resource of the record's parent
    parent_key_sql  VARCHAR,                        -- the parent's remote id, from the record
    declared_at     TIMESTAMPTZ NOT NULL
);
