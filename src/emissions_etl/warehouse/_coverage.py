"""Is the inventory complete: what each resource's records cover (its ``CoverageRule``), what a
team expects (``Expectation``s, from its expectations file), and the relations composed from
them (``_coverage_sql``): ``coverage_records``, ``coverage_at(as_of, due_day)``, the view
``coverage`` and ``coverage_estimates_under(approach, as_of)``.

A rule is data, as an inventory rule is: SQL over ``record`` (the record the service returned)
giving the first day a record covers, and over ``entity`` (the record of the vehicle, facility
or employee it belongs to, as JSON) giving the entity's name and whether it is no longer
expected. Rules are kept in ``coverage_rules`` and the relations recreated from them when a load
declares a rule that changed, or a writer opens a warehouse whose relations this version would
write otherwise (compared by digest). Estimates are derived, never stored: a month's estimate
is gone as soon as one of its records lands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse._conflicts import is_conflict, retrying
from emissions_etl.warehouse._connection import first_line
from emissions_etl.warehouse._coverage_sql import StoredRule, statements
from emissions_etl.warehouse._delete_insert import OWN, transaction
from emissions_etl.warehouse._schema import replace_view

#: How often an entity is expected to send data, as an expectations file says it.
CADENCES = ("monthly", "quarterly", "yearly")
#: How a missing period is estimated: from the nearest periods of the same year that have data,
#: from the same period a year earlier (the nearest ones where it has none), or not at all.
ESTIMATES = ("neighbours", "year_earlier", "none")
#: What ``estimate_method`` says of an estimate.
ESTIMATE_METHODS = ("neighbours_mean", "previous_period", "next_period", "year_earlier")
#: The columns of ``coverage`` and ``coverage_at``, in order (a public contract: added to,
#: never renamed).
COVERAGE_COLUMNS = ("organization_id", "resource", "entity", "month", "status", "due_date",
                    "overdue", "records", "co2e_kg", "estimate_kg", "estimate_method",
                    "entity_id", "cadence")  # fmt: skip


@dataclass(frozen=True)
class CoverageEntity:
    """Whose records they are: the record of ``resource`` whose remote id ``key`` gives (SQL
    over ``record``), named ``label`` and no longer expected once ``ended`` (SQL over
    ``entity``, that record as JSON); ``every``: each entity of ``resource`` is expected, not
    only those with records."""

    resource: str
    key: str
    label: str
    ended: str = "false"
    every: bool = True


@dataclass(frozen=True)
class CoverageRule:
    """Which days a resource's records cover, from ``first_day`` (SQL over ``record``; NULL:
    the activity date) to the activity date, and whose they are (None: the organization's)."""

    first_day: str = "NULL"
    entity: CoverageEntity | None = None


@dataclass(frozen=True)
class Expectation:
    """What a team expects beyond the defaults, of ``resource``'s ``entity`` (None: every one),
    or of every resource (``resource`` None; ``due_day`` only there). None: not said."""

    resource: str | None = None
    entity: str | None = None
    cadence: str | None = None
    expected: bool | None = None
    expected_from: dt.date | None = None
    expected_until: dt.date | None = None
    estimate: str | None = None
    due_day: int | None = None


def today() -> dt.date:
    """Today in UTC: the day the view ``coverage`` is read as of through ``Warehouse.query``."""
    return dt.datetime.now(dt.UTC).date()


def declare(con: duckdb.DuckDBPyConnection, resource: str, rule: CoverageRule | None) -> None:
    """Keep ``resource``'s rule (None forgets it) and recompose the coverage; nothing is
    written when the warehouse holds that rule already. A rule the relations cannot bind is
    refused with WarehouseError and the rules stay as they were."""
    held = {stored.resource: stored for stored in stored_rules(con)}
    wanted = None if rule is None else _stored(resource, rule)
    if held.get(resource) == wanted:
        return
    try:
        with transaction(con):
            con.execute("DELETE FROM coverage_rules WHERE resource = ?", [resource])
            if wanted is not None:
                con.execute(
                    "INSERT INTO coverage_rules VALUES (?, ?, ?, ?, ?, ?, ?, now())",
                    [resource, wanted.first_day, wanted.entity_resource, wanted.entity_key,
                     wanted.entity_label, wanted.entity_ended, wanted.every_entity],
                )  # fmt: skip
            _create(con, stored_rules(con))
    except duckdb.Error as error:
        if is_conflict(error):
            raise
        raise WarehouseError(f"coverage rule of {resource}: {first_line(error)}") from error


def compose(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create the coverage relations from the stored rules unless the warehouse holds them
    as this version writes them; rules that no longer bind are left out (the next load of
    their resource declares them again) rather than stopping the writer."""
    stored = stored_rules(con)
    for rules in (stored, []) if stored else ([],):
        try:
            with transaction(con):
                _create(con, rules)
            return
        except duckdb.Error as error:
            if not rules or is_conflict(error):
                raise


def stored_rules(con: duckdb.DuckDBPyConnection) -> list[StoredRule]:
    """The latest rule of each resource (two writers of a lake declaring one at once both
    append)."""
    rows = con.execute(
        "SELECT resource, first_day_sql, entity_resource, entity_key_sql, entity_label_sql, "
        "entity_ended_sql, every_entity FROM coverage_rules "
        "QUALIFY row_number() OVER (PARTITION BY resource ORDER BY declared_at DESC) = 1 "
        "ORDER BY resource"
    ).fetchall()
    return [
        StoredRule(resource, first_day, kind, key, label, ended, every_entity=bool(every))
        for resource, first_day, kind, key, label, ended, every in rows
    ]


def _stored(resource: str, rule: CoverageRule) -> StoredRule:
    entity = rule.entity
    if entity is None:
        return StoredRule(resource, rule.first_day)
    return StoredRule(resource, rule.first_day, entity.resource, entity.key, entity.label,
                      entity.ended, entity.every)  # fmt: skip


def _create(con: duckdb.DuckDBPyConnection, rules: Sequence[StoredRule]) -> None:
    """Every statement, run only when it differs from the one that made the relations."""
    replace_view(con, "coverage", ";\n".join(statements(rules)))


class WarehouseCoverage:
    """The resources' coverage rules and an organization's expectations, over one open
    connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection, organization_id: str | None) -> None:
        self._con = con
        self._organization_id = organization_id

    @retrying
    def declare_coverage_rule(self, resource: str, rule: CoverageRule | None) -> None:
        """Keep what ``resource``'s records cover and recompose the coverage (see ``declare``)."""
        declare(self._con, resource, rule)

    @retrying
    def set_expectations(self, expectations: Sequence[Expectation], source: str) -> bool:
        """Replace the organization's expectations with ``expectations`` (read from
        ``source``); False, and nothing written, when it holds those already."""
        rows = [_row(e) for e in expectations]
        held = self._con.execute(
            "SELECT resource, entity, cadence, expected, expected_from, expected_until, "
            f"estimate, due_day FROM coverage_expectations WHERE {OWN} ORDER BY ALL",
            [self._organization_id],
        ).fetchall()
        if sorted(held, key=repr) == sorted(rows, key=repr):
            return False
        with transaction(self._con):
            self._con.execute(
                f"DELETE FROM coverage_expectations WHERE {OWN}", [self._organization_id]
            )
            for row in rows:
                marks = ", ".join("?" for _ in range(len(row) + 2))
                self._con.execute(
                    f"INSERT INTO coverage_expectations VALUES ({marks}, now())",
                    [self._organization_id, *row, source],
                )
        return True


def _row(expectation: Expectation) -> tuple[object, ...]:
    e = expectation
    return (e.resource, e.entity, e.cadence, e.expected, e.expected_from, e.expected_until,
            e.estimate, e.due_day)  # fmt: skip
