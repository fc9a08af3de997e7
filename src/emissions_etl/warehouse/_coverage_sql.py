"""The statements of the coverage relations, composed from the stored coverage rules (see
``_coverage``): ``coverage_records`` (each activity record, whose it is and the days it covers),
``coverage_at(as_of, due_day)`` (one row per expected organization, resource, entity and
period), the view ``coverage`` (as of today) and ``coverage_estimates_under(approach, as_of)``
(the estimates placed on the inventory's lines). This module never names a resource.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Data is due on this day of the month after its period, unless told otherwise.
DEFAULT_DUE_DAY = 10
#: Entity records the warehouse keeps a table of: the table stands for the resource's records
#: (its rows as the JSON ``entity`` a rule reads), preferred to the records of that resource.
DIRECTORIES = {
    "facilities": "SELECT coalesce(organization_id, '') AS owner, 'facilities' AS entity_resource, "
    "facility_id AS entity_id, to_json(struct_pack(id := facility_id, name := name, "
    "status := status)) AS entity, 0 AS rank FROM facilities",
}
#: How an entity named in an expectations file is compared with the coverage's names: case and
#: spaces aside (a plate written ``1234 BCD`` is ``1234BCD``).
_NAME = "regexp_replace(lower(trim({x})), '\\s+', '', 'g')"


@dataclass(frozen=True)
class StoredRule:
    """A resource's coverage rule as ``coverage_rules`` holds it (SQL over ``record`` and
    ``entity``; no entity resource: the organization's)."""

    resource: str
    first_day: str
    entity_resource: str | None = None
    entity_key: str | None = None
    entity_label: str | None = None
    entity_ended: str | None = None
    every_entity: bool = True


def statements(rules: Sequence[StoredRule]) -> list[str]:
    """Every statement of the coverage, in the order they bind."""
    return [
        records_view(rules),
        coverage_macro(rules),
        "CREATE OR REPLACE VIEW coverage AS FROM coverage_at(current_date, NULL)",
        ESTIMATES_MACRO,
    ]


def records_view(rules: Sequence[StoredRule]) -> str:
    """``coverage_records``: every dated record of a resource with a rule, whose it is, and
    the days it covers (its first day, else its activity date, to its activity date)."""
    branches = [
        f"""SELECT r.organization_id, r.resource, r.remote_id, r.source_key, r.co2e_kg,
            {_text(rule.entity_resource)} AS entity_resource,
            CAST(({rule.entity_key or "NULL"}) AS VARCHAR) AS entity_id,
            least(coalesce(TRY_CAST(({rule.first_day}) AS DATE), r.activity_date),
                  r.activity_date) AS covers_from,
            r.activity_date AS covers_until
        FROM (SELECT *, payload AS record FROM remote_records
              WHERE resource = {_text(rule.resource)} AND activity_date IS NOT NULL) AS r"""
        for rule in rules
    ]
    empty = (
        "SELECT CAST(NULL AS VARCHAR) AS organization_id, CAST(NULL AS VARCHAR) AS resource, "
        "CAST(NULL AS VARCHAR) AS remote_id, CAST(NULL AS VARCHAR) AS source_key, "
        "CAST(NULL AS DOUBLE) AS co2e_kg, CAST(NULL AS VARCHAR) AS entity_resource, "
        "CAST(NULL AS VARCHAR) AS entity_id, CAST(NULL AS DATE) AS covers_from, "
        "CAST(NULL AS DATE) AS covers_until WHERE false"
    )
    body = "\nUNION ALL\n".join(branches) if branches else empty
    return f"CREATE OR REPLACE VIEW coverage_records AS\n{body}"


def _entities(rules: Sequence[StoredRule]) -> str:
    """The records of every entity a rule names (``owner``, ``entity_resource``, ``entity_id``,
    ``entity``: the record as JSON), a directory's row preferred to a record."""
    kinds = sorted({rule.entity_resource for rule in rules if rule.entity_resource})
    parts = [
        "SELECT coalesce(organization_id, '') AS owner, resource AS entity_resource, "
        "remote_id AS entity_id, payload AS entity, 1 AS rank FROM remote_records "
        f"WHERE resource IN ({', '.join(map(_text, kinds)) or 'NULL'})",
        *(DIRECTORIES[kind] for kind in kinds if kind in DIRECTORIES),
    ]
    return (
        f"SELECT owner, entity_resource, entity_id, entity FROM ({' UNION ALL '.join(parts)}) "
        "QUALIFY row_number() OVER (PARTITION BY owner, entity_resource, entity_id "
        "ORDER BY rank) = 1"
    )


def _subjects(rules: Sequence[StoredRule]) -> str:
    """Who is expected to send each resource: its entities (each entity's records of the
    entity resource, every one of them or those with records; and the entities records name
    that the warehouse does not hold), or its organization."""
    parts = []
    for rule in rules:
        resource = _text(rule.resource)
        if rule.entity_resource is None:
            parts.append(
                f"SELECT DISTINCT owner, {resource} AS resource, '' AS ekey, '' AS entity, "
                "false AS ended, true AS organization_level FROM records "
                f"WHERE resource = {resource}"
            )
            continue
        kind = _text(rule.entity_resource)
        with_records = (
            "" if rule.every_entity else
            f"AND EXISTS (SELECT 1 FROM records AS r WHERE r.owner = e.owner "
            f"AND r.resource = {resource} AND r.ekey = e.entity_id)"
        )  # fmt: skip
        parts.append(
            f"SELECT e.owner, {resource} AS resource, e.entity_id AS ekey, "
            f"coalesce(CAST(({rule.entity_label}) AS VARCHAR), e.entity_id) AS entity, "
            f"coalesce(CAST(({rule.entity_ended or 'false'}) AS BOOLEAN), false) AS ended, "
            f"false AS organization_level FROM entities AS e "
            f"WHERE e.entity_resource = {kind} {with_records}"
        )
        parts.append(
            f"SELECT DISTINCT r.owner, {resource}, r.ekey, "
            f"coalesce(nullif(r.ekey, ''), '(none)'), false, false FROM records AS r "
            f"WHERE r.resource = {resource} AND NOT EXISTS (SELECT 1 FROM entities AS e "
            f"WHERE e.owner = r.owner AND e.entity_resource = {kind} AND e.entity_id = r.ekey)"
        )
    if not parts:
        return (
            "SELECT '' AS owner, '' AS resource, '' AS ekey, '' AS entity, false AS ended, "
            "false AS organization_level WHERE false"
        )
    return "\nUNION ALL\n".join(parts)


def coverage_macro(rules: Sequence[StoredRule]) -> str:
    """``coverage_at(as_of, due_day)``: the expected periods as of ``as_of``, each received
    or missing, when due (day ``due_day`` of the month after it; NULL: the expectations' day,
    else ``DEFAULT_DUE_DAY``), and an estimate for a missing one."""
    return COVERAGE_MACRO.format(
        entities=_entities(rules), subjects=_subjects(rules), due_day=DEFAULT_DUE_DAY,
        said_name=_NAME.format(x="entity"), subject_name=_NAME.format(x="s.entity"),
    )  # fmt: skip


def _text(value: str | None) -> str:
    return "NULL" if value is None else "'" + value.replace("'", "''") + "'"


COVERAGE_MACRO = """
CREATE OR REPLACE MACRO coverage_at(as_of, due_day) AS TABLE
WITH clock AS (
    SELECT CAST(as_of AS DATE) AS today,
           CAST(date_trunc('month', CAST(as_of AS DATE)) AS DATE) AS open_month,
           CAST(due_day AS INTEGER) AS asked_due_day
), records AS (
    SELECT coalesce(organization_id, '') AS owner, resource, coalesce(entity_id, '') AS ekey,
           co2e_kg, covers_from, covers_until,
           CAST(date_trunc('month', covers_from) AS DATE) AS starts,
           CAST(date_trunc('month', covers_until) AS DATE) AS ends
    FROM coverage_records
), spread AS (  -- a record's co2e shared between the months it covers, by their days (most
               -- records cover one: no list of months is made for them)
    SELECT owner, resource, ekey, ends AS month, starts, co2e_kg
    FROM records WHERE starts = ends
    UNION ALL
    SELECT owner, resource, ekey, month, starts,
           co2e_kg * (date_diff('day', greatest(covers_from, month),
                                least(covers_until, last_day(month))) + 1)
                   / (date_diff('day', covers_from, covers_until) + 1)
    FROM (SELECT * EXCLUDE (m), CAST(m AS DATE) AS month FROM (
        SELECT *, unnest(generate_series(starts, ends, INTERVAL 1 MONTH)) AS m
        FROM records WHERE starts < ends))
), monthly AS (  -- records and co2e by subject, month, and the month the records start in
    SELECT owner, resource, ekey, month, starts, count(*) AS records, sum(co2e_kg) AS co2e_kg
    FROM spread GROUP BY ALL
), extent AS (
    SELECT owner, resource, ekey, min(month) AS first_month, max(month) AS last_month
    FROM monthly GROUP BY ALL
), first_years AS (  -- the first year of each organization's dated records, of any resource
    SELECT coalesce(organization_id, '') AS owner,
           CAST(date_trunc('year', min(activity_date)) AS DATE) AS start
    FROM remote_records WHERE activity_date IS NOT NULL GROUP BY ALL
), entities AS (
    {entities}
), subjects AS (
    {subjects}
), said AS (
    SELECT coalesce(organization_id, '') AS owner, resource, {said_name} AS name, cadence,
           expected, expected_from, expected_until, estimate, due_day AS said_due_day
    FROM coverage_expectations
    QUALIFY row_number() OVER (PARTITION BY owner, resource, name ORDER BY declared_at DESC) = 1
), spans AS (
    SELECT s.*, x.first_month, x.last_month, o.start,
           coalesce(xe.cadence, xr.cadence, xd.cadence, 'monthly') AS cadence,
           coalesce(xe.expected, xr.expected, xd.expected, true) AS expected,
           coalesce(xe.estimate, xr.estimate, xd.estimate, 'neighbours') AS estimate,
           coalesce(xe.expected_from, xr.expected_from, xd.expected_from) AS said_from,
           coalesce(xe.expected_until, xr.expected_until, xd.expected_until) AS said_until,
           coalesce((SELECT asked_due_day FROM clock), xd.said_due_day, {due_day}) AS day_due
    FROM subjects AS s
    LEFT JOIN extent AS x USING (owner, resource, ekey)
    LEFT JOIN first_years AS o USING (owner)
    LEFT JOIN said AS xe ON xe.owner = s.owner AND xe.resource = s.resource
        AND xe.name = {subject_name}
    LEFT JOIN said AS xr ON xr.owner = s.owner AND xr.resource = s.resource AND xr.name IS NULL
    LEFT JOIN said AS xd ON xd.owner = s.owner AND xd.resource IS NULL AND xd.name IS NULL
), bounds AS (  -- the months each subject is expected: an entity from its first record (or its
                -- organization's first year) to the last month ended; an organization, or an
                -- entity no longer expected, between its first and last records; or as said
    SELECT *,
           CASE cadence WHEN 'quarterly' THEN 3 WHEN 'yearly' THEN 12 ELSE 1 END AS months,
           CASE cadence WHEN 'quarterly' THEN 'quarter' WHEN 'yearly' THEN 'year'
                ELSE 'month' END AS unit,
           CAST(date_trunc('month', coalesce(said_from, first_month,
               CASE WHEN NOT (organization_level OR ended) THEN start END)) AS DATE) AS span_from,
           CAST(least(coalesce(said_until,
                   CASE WHEN (organization_level OR ended) AND said_from IS NULL
                        THEN last_month END, DATE '9999-12-01'),
               (SELECT open_month FROM clock) - INTERVAL 1 MONTH) AS DATE) AS span_until
    FROM spans
), periods AS (
    SELECT * EXCLUDE (p), CAST(p AS DATE) AS month FROM (
        SELECT *, unnest(generate_series(date_trunc(unit, span_from), span_until,
                                         to_months(months))) AS p
        FROM bounds WHERE expected AND span_from <= span_until)
    WHERE CAST(p AS DATE) + to_months(months) <= (SELECT open_month FROM clock)
), received AS (  -- a record counts once in a period: in its first month there
    SELECT owner, resource, ekey, period AS month,
           sum(records) FILTER (WHERE m = greatest(starts, period)) AS records,
           sum(co2e_kg) AS co2e_kg
    FROM (SELECT b.owner, b.resource, b.ekey, m.month AS m, m.starts, m.records, m.co2e_kg,
                 CAST(date_trunc(b.unit, m.month) AS DATE) AS period
          FROM monthly AS m JOIN bounds AS b USING (owner, resource, ekey))
    GROUP BY ALL
), expected_rows AS (
    SELECT p.owner, p.resource, p.ekey, p.entity, p.cadence, p.estimate, p.month,
           r.records, r.co2e_kg,
           CAST(least(p.month + to_months(p.months) + to_days(p.day_due - 1),
                      last_day(p.month + to_months(p.months))) AS DATE) AS due_date
    FROM periods AS p LEFT JOIN received AS r USING (owner, resource, ekey, month)
), gaps AS (
    SELECT owner, resource, ekey, month, estimate
    FROM expected_rows WHERE records IS NULL AND estimate <> 'none'
), known AS (  -- the periods with co2e of the subjects with a gap
    SELECT r.owner, r.resource, r.ekey, r.month, r.co2e_kg FROM received AS r
    SEMI JOIN (SELECT DISTINCT owner, resource, ekey FROM gaps) AS g
        ON g.owner = r.owner AND g.resource = r.resource AND g.ekey = r.ekey
    WHERE r.co2e_kg IS NOT NULL
), neighbours AS (  -- each gap's nearest periods of the same year with co2e, before and after
    SELECT *,
           last_value(co2e_kg IGNORE NULLS) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING
                                                    AND 1 PRECEDING) AS before_kg,
           first_value(co2e_kg IGNORE NULLS) OVER (w ROWS BETWEEN 1 FOLLOWING
                                                     AND UNBOUNDED FOLLOWING) AS after_kg
    FROM (SELECT owner, resource, ekey, month, co2e_kg, NULL AS estimate FROM known
          UNION ALL BY NAME SELECT owner, resource, ekey, month, NULL AS co2e_kg, estimate
          FROM gaps)
    WINDOW w AS (PARTITION BY owner, resource, ekey, year(month) ORDER BY month)
), estimates AS (  -- and the same period a year earlier
    SELECT n.owner, n.resource, n.ekey, n.month, n.estimate, n.before_kg, n.after_kg,
           e.co2e_kg AS earlier_kg
    FROM neighbours AS n
    LEFT JOIN known AS e ON e.owner = n.owner AND e.resource = n.resource
        AND e.ekey = n.ekey AND e.month = n.month - INTERVAL 12 MONTH
    WHERE n.estimate IS NOT NULL
), methods AS (
    SELECT owner, resource, ekey, month,
           CASE WHEN estimate = 'year_earlier' AND earlier_kg IS NOT NULL THEN 'year_earlier'
                WHEN before_kg IS NOT NULL AND after_kg IS NOT NULL THEN 'neighbours_mean'
                WHEN before_kg IS NOT NULL THEN 'previous_period'
                WHEN after_kg IS NOT NULL THEN 'next_period' END AS estimate_method,
           before_kg, after_kg, earlier_kg
    FROM estimates
)
SELECT nullif(r.owner, '') AS organization_id, r.resource, r.entity, r.month,
       CASE WHEN r.records IS NULL THEN 'missing' ELSE 'received' END AS status,
       r.due_date,
       r.records IS NULL AND (SELECT today FROM clock) > r.due_date AS overdue,
       CAST(coalesce(r.records, 0) AS BIGINT) AS records,
       CAST(r.co2e_kg AS DOUBLE) AS co2e_kg,
       CAST(CASE m.estimate_method WHEN 'year_earlier' THEN m.earlier_kg
            WHEN 'neighbours_mean' THEN (m.before_kg + m.after_kg) / 2
            WHEN 'previous_period' THEN m.before_kg
            WHEN 'next_period' THEN m.after_kg END AS DOUBLE) AS estimate_kg,
       m.estimate_method,
       nullif(r.ekey, '') AS entity_id, r.cadence
FROM expected_rows AS r LEFT JOIN methods AS m USING (owner, resource, ekey, month)
ORDER BY organization_id NULLS FIRST, r.resource, r.entity, r.ekey, r.month
"""

ESTIMATES_MACRO = """
CREATE OR REPLACE MACRO coverage_estimates_under(approach, as_of) AS TABLE
WITH estimates AS (
    SELECT coalesce(organization_id, '') AS owner, resource, coalesce(entity_id, '') AS ekey,
           entity, entity_id, month, estimate_kg, estimate_method
    FROM coverage_at(as_of, NULL) WHERE estimate_kg IS NOT NULL
), placed AS (  -- each entity's records by inventory line and facility: in each year, and in all
    SELECT coalesce(c.organization_id, '') AS owner, c.resource,
           coalesce(c.entity_id, '') AS ekey, year(c.covers_until) AS y,
           i.consolidation_approach, i.scope, i.category, i.category_name,
           i.unclassified_reason, i.facility_id, i.facility_name,
           sum(coalesce(i.co2e_kg, 0)) AS co2e_kg, count(*) AS records
    FROM coverage_records AS c
    JOIN ghg_inventory_records_under(approach) AS i
        ON i.organization_id IS NOT DISTINCT FROM c.organization_id
        AND i.resource = c.resource AND i.remote_id = c.remote_id
    GROUP BY GROUPING SETS (
        (owner, c.resource, ekey, y, i.consolidation_approach, i.scope, i.category,
         i.category_name, i.unclassified_reason, i.facility_id, i.facility_name),
        (owner, c.resource, ekey, i.consolidation_approach, i.scope, i.category,
         i.category_name, i.unclassified_reason, i.facility_id, i.facility_name))
), shares AS (  -- by co2e, or by records where the entity's records have none
    SELECT *, CASE WHEN sum(co2e_kg) OVER w > 0 THEN co2e_kg / sum(co2e_kg) OVER w
                   ELSE records / sum(records) OVER w END AS share
    FROM placed WINDOW w AS (PARTITION BY owner, resource, ekey, y)
), dated AS (  -- an estimate follows its entity's records of its year, else of every year
    SELECT e.*, CASE WHEN EXISTS (SELECT 1 FROM placed AS p WHERE p.owner = e.owner
                AND p.resource = e.resource AND p.ekey = e.ekey AND p.y = year(e.month))
                THEN year(e.month) END AS y
    FROM estimates AS e
)
SELECT nullif(d.owner, '') AS organization_id, s.consolidation_approach, s.scope, s.category,
       s.category_name, s.unclassified_reason, d.resource, d.month AS activity_month,
       s.facility_id, s.facility_name, d.entity, d.entity_id,
       d.estimate_kg * s.share AS estimate_kg, d.estimate_method
FROM dated AS d
JOIN shares AS s ON s.owner = d.owner AND s.resource = d.resource AND s.ekey = d.ekey
    AND s.y IS NOT DISTINCT FROM d.y
"""
