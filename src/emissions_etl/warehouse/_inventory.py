"""The GHG inventory views, composed from the rule each resource declares (``InventoryRule``).

A rule is data: SQL expressions giving a record's scope, Scope 3 category and, when it has no
scope, the reason. They read four JSON values and one text:

- ``record``: the record as the service returned it (``remote_records.payload``: for records
  written in bulk, the record sent with the id and co2e the service answered);
- ``source``: the record's source row (``source_rows.payload``: the columns as the file said
  them), NULL for a record made elsewhere;
- ``parent``: the record it belongs to, when the rule names a ``ParentRecord`` (a consumption's
  vehicle), else NULL; ``parent_source``: that parent's source row (``source_rows.payload``:
  the columns as the file said them, names resolved);
- ``approach``: the consolidation approach (GHG Protocol Corporate Standard, chapter 3):
  ``operational_control``, ``financial_control`` or ``equity_share``.

The rules are kept in ``inventory_rules``, and the macros and views are composed from them as
``create_resource_view`` composes a resource's view from its ``view_columns``: when a load
declares a rule that changed, or a writer opens a warehouse whose views this version would write
otherwise (both compared by digest, as ``views.sql``: a lake's writers would otherwise change its
catalog at every open). This module never names a resource. Every activity record
(``NOT is_aggregate``) gets exactly one row in ``ghg_inventory_records``, of its organization: a
record no rule classifies keeps its co2e and says why, so the inventory's co2e always equals the
activity records'.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files

import duckdb

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse._conflicts import is_conflict
from emissions_etl.warehouse._connection import first_line
from emissions_etl.warehouse._delete_insert import transaction
from emissions_etl.warehouse._schema import replace_view

#: GHG Protocol Corporate Standard, chapter 3: the ways to set organizational boundaries.
APPROACHES = ("operational_control", "financial_control", "equity_share")
#: The most used approach, and the service's default (service-facts §10).
DEFAULT_APPROACH = "operational_control"

#: Whose records they are: the first columns of both views (every warehouse row names its
#: organization; null in a warehouse written before organizations were recorded).
OWNER_COLUMNS = ("organization_id",)
#: A record's columns in ``ghg_inventory_records`` after its classification, and the columns
#: ``ghg_inventory`` groups by besides the line and the month.
RECORD_COLUMNS = ("resource", "remote_id", "source_key", "activity_date", "facility_id",
                  "facility_name", "co2e_kg", "status", "source_file", "source_sheet",
                  "source_row")  # fmt: skip
GROUP_COLUMNS = ("resource", "facility_id", "facility_name")
#: Rows of one organization join only rows of the same organization (as ``views.sql``).
_SAME_OWNER = "{a}.organization_id IS NOT DISTINCT FROM {b}.organization_id"


@dataclass(frozen=True)
class ParentRecord:
    """The record a rule also reads: ``resource``'s record whose remote id is ``key`` (SQL over
    ``record``, e.g. ``json_extract_string(record, '$.vehicle_id')``)."""

    resource: str
    key: str


@dataclass(frozen=True)
class InventoryRule:
    """A resource's place in the GHG inventory: SQL expressions over ``record``, ``source``,
    ``parent``, ``parent_source`` and ``approach`` (see the module's docstring).

    ``scope`` gives 1, 2 or 3; ``category`` the Scope 3 category (1 to 15, NULL for scopes 1
    and 2); ``unclassified_reason`` why a record gets no scope (NULL scope), for the analyst.
    """

    scope: str
    category: str = "NULL"
    unclassified_reason: str = "NULL"
    parent: ParentRecord | None = None


def declare(con: duckdb.DuckDBPyConnection, resource: str, rule: InventoryRule | None) -> None:
    """Keep ``resource``'s rule (None forgets it) and rebuild the views; nothing is written when
    the warehouse holds that rule already. A rule the views cannot bind is refused with
    WarehouseError and the rules stay as they were."""
    held = {stored.resource: stored.rule for stored in _stored_rules(con)}
    if held.get(resource) == rule:
        return
    try:
        with transaction(con):
            con.execute("DELETE FROM inventory_rules WHERE resource = ?", [resource])
            if rule is not None:
                con.execute(
                    "INSERT INTO inventory_rules VALUES (?, ?, ?, ?, ?, ?, now())",
                    [resource, rule.scope, rule.category, rule.unclassified_reason,
                     rule.parent.resource if rule.parent else None,
                     rule.parent.key if rule.parent else None],
                )  # fmt: skip
            _create(con, _stored_rules(con))
    except duckdb.Error as error:
        if is_conflict(error):  # another writer of the lake declared at once: tried again
            raise
        raise WarehouseError(f"inventory rule of {resource}: {first_line(error)}") from error


def compose(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create ``ghg_categories`` and the inventory macros and views from the stored rules,
    unless the warehouse holds them as this version writes them.

    Rules stored by an older version that no longer bind are left out (their records are listed
    as not classified) rather than stopping the writer: the next load declares them again.
    """
    stored = _stored_rules(con)
    for rules in (stored, []) if stored else ([],):
        try:
            with transaction(con):  # DuckDB aborts a transaction at its first error
                _create(con, rules)
            return
        except duckdb.Error as error:
            if not rules or is_conflict(error):  # a conflict is tried again, rules and all
                raise


def check_approach(approach: str) -> str:
    """``approach`` if it is one of ``APPROACHES``, else ValueError naming them."""
    if approach not in APPROACHES:
        raise ValueError(
            f"unknown consolidation approach {approach!r}: use one of {', '.join(APPROACHES)}"
        )
    return approach


# -- composition ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _StoredRule:
    resource: str
    rule: InventoryRule


def _stored_rules(con: duckdb.DuckDBPyConnection) -> list[_StoredRule]:
    """The latest rule of each resource: two writers of a lake declaring one at once both
    append (appends never conflict), and a rule read twice would count its records twice."""
    rows = con.execute(
        "SELECT resource, scope_sql, category_sql, reason_sql, parent_resource, parent_key_sql "
        "FROM inventory_rules "
        "QUALIFY row_number() OVER (PARTITION BY resource ORDER BY declared_at DESC) = 1 "
        "ORDER BY resource"
    ).fetchall()
    return [
        _StoredRule(
            resource,
            InventoryRule(
                scope, category, reason, ParentRecord(parent, key) if parent and key else None
            ),
        )
        for resource, scope, category, reason, parent, key in rows
    ]


def _create(con: duckdb.DuckDBPyConnection, rules: Sequence[_StoredRule]) -> None:
    """Every statement of the inventory, run only when it differs from the one that made the
    views (``view_version``). DuckDB binds a table macro and a view as it creates them, so a
    rule that cannot bind is refused here (a query of the view to bind it again cost a fifth
    of a declaration)."""
    default = _literal(DEFAULT_APPROACH)
    statements = [
        _categories_view(),
        _records_macro(rules),
        _inventory_macro(),
        "CREATE OR REPLACE VIEW ghg_inventory_records AS "
        f"FROM ghg_inventory_records_under({default})",
        f"CREATE OR REPLACE VIEW ghg_inventory AS FROM ghg_inventory_under({default})",
    ]
    replace_view(con, "ghg_inventory", ";\n".join(statements))


def _records_macro(rules: Sequence[_StoredRule]) -> str:
    branches = [_branch(stored) for stored in rules]
    declared = ", ".join(_literal(stored.resource) for stored in rules)
    undeclared = f"WHERE a.resource NOT IN ({declared})" if rules else ""
    branches.append(
        "SELECT a.* EXCLUDE (record, source), NULL::INTEGER AS scope, NULL::INTEGER AS category, "
        "'no inventory rule is declared for ' || a.resource || "
        "' (a load of the resource declares it)' AS rule_reason "
        f"FROM activity AS a {undeclared}"
    )
    approaches = ", ".join(_literal(a) for a in APPROACHES)
    owners = "".join(f"c.{name}, " for name in OWNER_COLUMNS)
    columns = ", ".join(f"c.{name}" for name in RECORD_COLUMNS)
    return f"""
CREATE OR REPLACE MACRO ghg_inventory_records_under(approach) AS TABLE
WITH activity AS (
    SELECT e.*, r.payload AS record, s.payload AS source
    FROM emissions AS e
    JOIN remote_records AS r
        ON {_SAME_OWNER.format(a="r", b="e")}
        AND r.resource = e.resource AND r.remote_id = e.remote_id
    LEFT JOIN source_rows AS s
        ON {_SAME_OWNER.format(a="s", b="e")}
        AND s.resource = e.resource AND s.source_key = e.source_key
    WHERE NOT e.is_aggregate
), classified AS (
    {" UNION ALL BY NAME ".join(branches)}
)
SELECT
    {owners}CASE WHEN approach IN ({approaches}) THEN approach
         ELSE error('unknown consolidation approach ' || approach || ': use one of '
                    || {_literal(", ".join(APPROACHES))}) END AS consolidation_approach,
    g.scope, g.category, g.name AS category_name,
    {columns},
    CASE WHEN g.scope IS NULL THEN coalesce(
        'the rule of ' || c.resource || ' gave scope ' || c.scope
            || coalesce(', category ' || c.category, ' without a category')
            || ': no line of the GHG Protocol',
        c.rule_reason,
        'the rule of ' || c.resource || ' gives this record no scope') END AS unclassified_reason
FROM classified AS c
LEFT JOIN ghg_categories AS g
    ON g.scope = c.scope AND g.category IS NOT DISTINCT FROM c.category
"""


def _branch(stored: _StoredRule) -> str:
    """The records of one resource with the rule's three expressions, parent joined when named."""
    rule = stored.rule
    if rule.parent is None:
        source = "SELECT a.*, NULL::JSON AS parent, NULL::JSON AS parent_source FROM activity AS a"
    else:
        source = f"""SELECT a.*, p.payload AS parent, ps.payload AS parent_source
        FROM activity AS a
        LEFT JOIN emissions AS pe
            ON {_SAME_OWNER.format(a="pe", b="a")}
            AND pe.resource = {_literal(rule.parent.resource)}
            AND pe.remote_id = ({rule.parent.key})
        LEFT JOIN remote_records AS p
            ON {_SAME_OWNER.format(a="p", b="pe")}
            AND p.resource = pe.resource AND p.remote_id = pe.remote_id
        LEFT JOIN source_rows AS ps
            ON {_SAME_OWNER.format(a="ps", b="pe")}
            AND ps.resource = pe.resource AND ps.source_key = pe.source_key"""
    return f"""(SELECT a.* EXCLUDE (record, source, parent, parent_source),
        TRY_CAST(({rule.scope}) AS INTEGER) AS scope,
        TRY_CAST(({rule.category}) AS INTEGER) AS category,
        CAST(({rule.unclassified_reason}) AS VARCHAR) AS rule_reason
    FROM ({source}
        WHERE a.resource = {_literal(stored.resource)}) AS a)"""


def _inventory_macro() -> str:
    owners = "".join(f"{name}, " for name in OWNER_COLUMNS)
    keys = ", ".join(GROUP_COLUMNS)
    return f"""
CREATE OR REPLACE MACRO ghg_inventory_under(approach) AS TABLE
SELECT {owners}consolidation_approach, scope, category, category_name,
       CAST(date_trunc('month', activity_date) AS DATE) AS activity_month,
       {keys},
       sum(co2e_kg)                                                       AS co2e_kg,
       count(*)                                                           AS records,
       count(co2e_kg)                                                     AS records_calculated,
       count(*) FILTER (WHERE co2e_kg IS NULL AND coalesce(status, '') <> 'error')
                                                                          AS records_pending,
       count(*) FILTER (WHERE status = 'error')                           AS records_error,
       unclassified_reason
FROM ghg_inventory_records_under(approach)
GROUP BY ALL
ORDER BY {owners}scope NULLS LAST, category NULLS FIRST, resource, activity_month NULLS LAST,
         facility_name NULLS LAST, unclassified_reason
"""


def _categories_view() -> str:
    """``ghg_categories`` from ``ghg_categories.csv`` (scopes 1 and 2, Scope 3's fifteen)."""
    text = files(__package__).joinpath("ghg_categories.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    values = ", ".join(
        f"({int(row['scope'])}, {row['category'] or 'NULL'}, {_literal(row['name'])}, "
        f"{_literal(row['direction']) if row['direction'] else 'NULL'})"
        for row in rows
    )
    return (
        "CREATE OR REPLACE VIEW ghg_categories AS SELECT CAST(scope AS INTEGER) AS scope, "
        "CAST(category AS INTEGER) AS category, CAST(name AS VARCHAR) AS name, "
        "CAST(direction AS VARCHAR) AS direction "
        f"FROM (VALUES {values}) AS t(scope, category, name, direction)"
    )


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
