"""What the warehouse says of each resource: what its co2e means (``resource_catalog``), the
analysts' view named after it, and where its records sit in the GHG inventory (its rule).

Resources, not organizations: these are shared by every organization of the warehouse.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from emissions_etl.warehouse import _inventory
from emissions_etl.warehouse._conflicts import retrying
from emissions_etl.warehouse._delete_insert import quote, transaction
from emissions_etl.warehouse._descriptions import resource_view
from emissions_etl.warehouse._schema import replace_view


class WarehouseCatalog:
    """The resource catalog and the resources' views, over one open connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con

    @retrying
    def describe_resource(self, resource: str, *, is_aggregate: bool, description: str) -> None:
        """Record what the resource's co2e means (the ``emissions`` view's ``is_aggregate``);
        nothing is written when the warehouse already says so."""
        held = self._con.execute(
            "SELECT is_aggregate, description FROM resource_catalog WHERE resource = ?",
            [resource],
        ).fetchall()
        if held == [(is_aggregate, description)]:
            return
        with transaction(self._con):
            self._con.execute("DELETE FROM resource_catalog WHERE resource = ?", [resource])
            self._con.execute(
                "INSERT INTO resource_catalog VALUES (?, ?, ?, now())",
                [resource, is_aggregate, description],
            )

    @retrying
    def create_resource_view(
        self, resource: str, columns: Sequence[tuple[str, str, str, str]], *, description: str
    ) -> None:
        """A view named after ``resource``: its rows of ``emissions`` plus ``columns``
        (name, SQL type, JSON path, meaning) read from the record the service returned, with
        ``description`` (what its records are) and each column's meaning as its comments. A
        resource named like a warehouse table (``facilities``) has that table instead: no view."""
        # duckdb_tables() of the database in use, not information_schema: on a lake that one
        # reads every attached catalog, a tenth of a small load's time.
        table = self._con.execute(
            "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() "
            "AND table_name = ?",
            [resource],
        ).fetchall()
        if table:
            return
        fields = "".join(
            f", TRY_CAST(json_extract_string(r.payload, '{path}') AS {sql_type}) AS {quote(name)}"
            for name, sql_type, path, _ in columns
        )
        described = resource_view(resource, description, [(c[0], c[3]) for c in columns])
        replace_view(
            self._con,
            resource,
            f"CREATE OR REPLACE VIEW {quote(resource)} AS SELECT e.* EXCLUDE (resource){fields} "
            "FROM emissions AS e JOIN remote_records AS r ON r.resource = e.resource "
            "AND r.remote_id = e.remote_id "
            "AND r.organization_id IS NOT DISTINCT FROM e.organization_id "
            f"WHERE e.resource = '{resource.replace(chr(39), '')}'",
            described=(described,),
        )


class WarehouseInventoryRules:
    """The resources' inventory rules, from which ``ghg_inventory`` is composed (``_inventory``),
    over one open connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con

    @retrying
    def declare_inventory_rule(self, resource: str, rule: _inventory.InventoryRule | None) -> None:
        """Keep where ``resource``'s records sit in the GHG inventory (None: nowhere, its co2e
        sums others') and rebuild ``ghg_inventory``; a rule that cannot bind is WarehouseError."""
        _inventory.declare(self._con, resource, rule)
