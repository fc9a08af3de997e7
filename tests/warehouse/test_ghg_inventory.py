"""The ``ghg_inventory`` views composed from declared rules: every activity record once, with its
co2e, classified or listed with a reason; aggregates never; a rule that cannot bind refused."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from emissions_etl.errors import WarehouseError
from emissions_etl.warehouse import InventoryRule, ParentRecord, Warehouse, WarehouseWriter

#: A made-up resource whose scope reads its parent, as a consumption reads its vehicle.
LEASED = "json_extract_string(parent, '$.kind') = 'leased'"
CHILD_RULE = InventoryRule(
    scope=f"CASE WHEN parent IS NULL THEN NULL WHEN {LEASED} "
    "AND approach = 'financial_control' THEN 3 ELSE 1 END",
    category=f"CASE WHEN {LEASED} AND approach = 'financial_control' THEN 8 END",
    unclassified_reason="CASE WHEN parent IS NULL THEN 'no parent under ' || approach END",
    parent=ParentRecord("parents", key="json_extract_string(record, '$.parent_id')"),
)


def records(resource: str, rows: list[tuple[str, dict[str, Any], float | None]], **columns: Any):
    """remote_records rows of ``resource``: (remote id, payload, co2e)."""
    return pd.DataFrame(
        {
            "remote_id": [row[0] for row in rows],
            "source_key": [f"key-{row[0]}" for row in rows],
            "activity_date": columns.get("day", dt.date(2026, 3, 31)),
            "co2e_kg": pd.array([row[2] for row in rows], dtype="Float64"),
            "status": columns.get("status", "active"),
            "facility_id": columns.get("facility_id"),
            "remote_updated_at": pd.Timestamp("2026-04-01T10:00:00Z"),
            "payload": [json.dumps(row[1]) for row in rows],
        }
    )


def land_family(writer: WarehouseWriter) -> None:
    """Two parents (an aggregate), three children (one orphan), wastes, and an undeclared one."""
    writer.catalog.describe_resource("parents", is_aggregate=True, description="sum of children")
    writer.records.land_remote_records(
        "parents",
        records("parents", [("p1", {"kind": "owned"}, 30.0), ("p2", {"kind": "leased"}, 20.0)]),
    )
    writer.records.land_remote_records(
        "children",
        records(
            "children",
            [
                ("c1", {"parent_id": "p1"}, 30.0),
                ("c2", {"parent_id": "p2"}, 20.0),
                ("c3", {"parent_id": "p-gone"}, 5.0),
            ],
        ),
    )
    writer.records.land_remote_records(
        "wastes", records("wastes", [("w1", {}, 7.5), ("w2", {}, None)])
    )
    writer.records.land_remote_records("undeclared", records("undeclared", [("u1", {}, 1.25)]))
    writer.inventory.declare_inventory_rule("children", CHILD_RULE)
    writer.inventory.declare_inventory_rule("wastes", InventoryRule(scope="3", category="5"))


@pytest.fixture
def family(warehouse: Warehouse) -> Warehouse:
    with warehouse.writer() as writer:
        land_family(writer)
    return warehouse


def classified(warehouse: Warehouse, approach: str) -> dict[str, tuple[Any, ...]]:
    frame = warehouse.query(
        "SELECT remote_id, scope, category, unclassified_reason "
        "FROM ghg_inventory_records_under(?) ORDER BY remote_id",
        [approach],
    )
    return {
        row.remote_id: (
            None if pd.isna(row.scope) else int(row.scope),
            None if pd.isna(row.category) else int(row.category),
            None if pd.isna(row.unclassified_reason) else row.unclassified_reason,
        )
        for row in frame.itertuples()
    }


def test_each_activity_record_is_listed_once_and_aggregates_never(family: Warehouse) -> None:
    listed = family.query("SELECT resource, remote_id FROM ghg_inventory_records")

    assert sorted(listed["remote_id"]) == ["c1", "c2", "c3", "u1", "w1", "w2"]
    assert "parents" not in set(listed["resource"])


def test_the_inventory_total_equals_the_activity_records_co2e(family: Warehouse) -> None:
    totals = family.query(
        "SELECT (SELECT sum(co2e_kg) FROM ghg_inventory) AS inventory, "
        "(SELECT sum(records) FROM ghg_inventory) AS records, "
        "(SELECT sum(co2e_kg) FROM emissions WHERE NOT is_aggregate) AS activity"
    ).iloc[0]

    assert totals["inventory"] == totals["activity"] == 30.0 + 20.0 + 5.0 + 7.5 + 1.25
    assert totals["records"] == 6


def test_rules_read_the_record_its_parent_and_the_approach(family: Warehouse) -> None:
    assert classified(family, "operational_control") == {
        "c1": (1, None, None),
        "c2": (1, None, None),
        "c3": (None, None, "no parent under operational_control"),
        "u1": (
            None,
            None,
            "no inventory rule is declared for undeclared (a load of the resource declares it)",
        ),
        "w1": (3, 5, None),
        "w2": (3, 5, None),
    }
    assert classified(family, "financial_control")["c2"] == (3, 8, None)


def test_the_view_is_the_operational_control_inventory_and_says_so(family: Warehouse) -> None:
    approaches = family.query("SELECT DISTINCT consolidation_approach FROM ghg_inventory")

    assert approaches["consolidation_approach"].tolist() == ["operational_control"]


def test_an_unknown_approach_is_an_error_not_an_empty_inventory(family: Warehouse) -> None:
    with pytest.raises(WarehouseError, match="unknown consolidation approach"):
        family.query("SELECT * FROM ghg_inventory_under('whatever')")


def test_the_inventory_counts_calculated_pending_and_failed_records(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        writer.inventory.declare_inventory_rule("wastes", InventoryRule(scope="3", category="5"))
        writer.records.land_remote_records("wastes", records("wastes", [("a", {}, 2.0)]))
        writer.records.land_remote_records(
            "wastes", records("wastes", [("b", {}, None)], status="loading")
        )
        writer.records.land_remote_records(
            "wastes", records("wastes", [("c", {}, None)], status="error")
        )

    row = warehouse.query("SELECT * FROM ghg_inventory").iloc[0]

    assert (row["records"], row["records_calculated"]) == (3, 1)
    assert (row["records_pending"], row["records_error"], row["co2e_kg"]) == (1, 1, 2.0)
    assert row["category_name"] == "Waste generated in operations"
    assert pd.Timestamp(row["activity_month"]) == pd.Timestamp("2026-03-01")


def test_a_rule_giving_no_line_of_the_protocol_lists_its_records_with_the_reason(
    warehouse: Warehouse,
) -> None:
    with warehouse.writer() as writer:
        writer.records.land_remote_records("wastes", records("wastes", [("w1", {}, 4.0)]))
        writer.inventory.declare_inventory_rule("wastes", InventoryRule(scope="3"))

    assert classified(warehouse, "operational_control") == {
        "w1": (None, None, "the rule of wastes gave scope 3 without a category: no line of the "
                           "GHG Protocol"),
    }  # fmt: skip


def test_a_rule_that_cannot_bind_is_refused_and_the_others_stay(family: Warehouse) -> None:
    with family.writer() as writer, pytest.raises(WarehouseError, match="inventory rule of wastes"):
        writer.inventory.declare_inventory_rule("wastes", InventoryRule(scope="no_such_column"))

    assert classified(family, "operational_control")["w1"] == (3, 5, None)


def test_declared_rules_outlive_the_writer_and_a_none_rule_forgets(family: Warehouse) -> None:
    with family.writer():
        pass
    assert classified(family, "operational_control")["w1"] == (3, 5, None)

    with family.writer() as writer:
        writer.inventory.declare_inventory_rule("wastes", None)

    assert classified(family, "operational_control")["w1"][0] is None


def test_the_categories_are_scopes_1_and_2_and_scope_3s_fifteen(warehouse: Warehouse) -> None:
    with warehouse.writer():
        pass

    lines = warehouse.query("SELECT scope, category, name FROM ghg_categories")

    assert len(lines) == 17
    assert lines[lines["scope"] == 3]["category"].tolist() == list(range(1, 16))
    assert lines[lines["scope"] < 3]["category"].isna().all()


def test_a_file_written_before_the_inventory_gains_it(tmp_path: Path) -> None:
    import duckdb

    from emissions_etl.warehouse import _schema

    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    _schema.current_version(con)
    for number in range(1, _schema.SCHEMA_VERSION):  # every migration before the inventory's
        con.execute(_schema._sql(_schema._MIGRATIONS[number]))
        con.execute("INSERT INTO schema_version VALUES (?, now())", [number])
    con.execute(_schema._sql("views.sql"))
    con.close()

    with Warehouse(path).writer() as writer:
        writer.records.land_remote_records("wastes", records("wastes", [("w1", {}, 4.0)]))

    assert Warehouse(path).query("SELECT sum(co2e_kg) AS kg FROM ghg_inventory")["kg"][0] == 4.0


def test_a_rule_reads_the_records_own_source_row(warehouse: Warehouse) -> None:
    with warehouse.writer() as writer:
        run_id = writer.runs.start_run("things", "things.xlsx", {})
        writer.runs.land_source_rows(
            run_id,
            "things",
            pd.DataFrame(
                {"source_key": ["key-t1", "key-t2"], "source_hash": "h", "_file": "things.xlsx",
                 "_sheet": "Data", "_row": [2, 3], "fuel": ["electricity", "diesel"]}
            ),
        )  # fmt: skip
        writer.records.land_remote_records(
            "things", records("things", [("t1", {}, 1.0), ("t2", {}, 2.0)])
        )
        writer.inventory.declare_inventory_rule(
            "things",
            InventoryRule(
                scope="CASE json_extract_string(source, '$.fuel') "
                "WHEN 'electricity' THEN 2 ELSE 1 END"
            ),
        )

    assert classified(warehouse, "operational_control") == {
        "t1": (2, None, None),
        "t2": (1, None, None),
    }


def test_each_organization_has_its_own_lines_and_parents(tmp_path: Path) -> None:
    path = tmp_path / "shared.duckdb"
    for organization, ownership in (("org-a", "owned"), ("org-b", "leased")):
        with Warehouse(path, organization_id=organization).writer() as writer:
            writer.catalog.describe_resource("parents", is_aggregate=True, description="sum")
            writer.records.land_remote_records(
                "parents", records("parents", [("p1", {"kind": ownership}, 9.0)])
            )
            writer.records.land_remote_records(
                "children", records("children", [("c1", {"parent_id": "p1"}, 4.0)])
            )
            writer.inventory.declare_inventory_rule("children", CHILD_RULE)

    lines = Warehouse(path).query(
        "SELECT organization_id, scope, category, co2e_kg "
        "FROM ghg_inventory_under('financial_control') ORDER BY organization_id"
    )

    first = Warehouse(path).query("SELECT * FROM ghg_inventory LIMIT 0").columns[:2]
    assert list(first) == ["organization_id", "consolidation_approach"]
    assert lines.astype(object).values.tolist() == [["org-a", 1, pd.NA, 4.0], ["org-b", 3, 8, 4.0]]


def test_a_rule_declared_again_unchanged_writes_nothing(family: Warehouse) -> None:
    def written() -> list[tuple[object, ...]]:
        rules = family.query("SELECT resource, declared_at FROM inventory_rules ORDER BY 1")
        views = family.query(
            "SELECT digest, created_at FROM view_version WHERE name = 'ghg_inventory'"
        )
        return [*map(tuple, rules.values.tolist()), *map(tuple, views.values.tolist())]

    before = written()
    with family.writer() as writer:
        writer.inventory.declare_inventory_rule("wastes", InventoryRule(scope="3", category="5"))
        writer.inventory.declare_inventory_rule("children", CHILD_RULE)

    assert written() == before


def test_a_resource_described_and_ruled_twice_at_once_is_still_counted_once(
    family: Warehouse,
) -> None:
    """Two writers of a lake describing a resource and declaring its rule at once each append a
    row (DuckLake's appends never conflict): the views count every record once all the same."""

    def figures() -> tuple[object, ...]:
        return tuple(
            family.query(
                "SELECT (SELECT count(*) FROM emissions) AS rows, "
                "(SELECT count(*) FROM emissions WHERE is_aggregate) AS aggregates, "
                "(SELECT sum(co2e_kg) FROM ghg_inventory) AS inventory, "
                "(SELECT count(*) FROM ghg_inventory_records) AS listed"
            ).iloc[0]
        )

    before = figures()
    assert before == (8, 2, 30.0 + 20.0 + 5.0 + 7.5 + 1.25, 6)
    with duckdb.connect(str(family.path)) as con:  # what the second writer's appends leave
        con.execute("INSERT INTO resource_catalog SELECT * FROM resource_catalog")
        con.execute("INSERT INTO inventory_rules SELECT * FROM inventory_rules")
    with family.writer():  # a writer opening composes the views from the rules it reads
        pass

    assert figures() == before
    with family.writer() as writer:  # describing the resource again leaves one row
        writer.catalog.describe_resource(
            "parents", is_aggregate=True, description="sum of children"
        )
    assert family.query("SELECT count(*) AS n FROM resource_catalog")["n"].tolist() == [1]
