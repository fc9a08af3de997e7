"""The GHG inventory as analysts file it: the warehouse's ``ghg_inventory`` read under a
consolidation approach, laid out as ESRS E1-6 (Scope 1, Scope 2, Scope 3 by category, total),
by month and by facility, with data quality per category; and written as xlsx or csv.

    from emissions_etl.inventory import read_inventory, write_inventory_file
    inventory = read_inventory(Warehouse("warehouse.duckdb"), approach="operational_control")
    write_inventory_file(inventory, Path("inventory.xlsx"), warehouse="warehouse.duckdb")

Reads the warehouse only through ``Warehouse.query``; the classification itself is the
warehouse's (composed from each resource's declared rule).

Floor: with ``profiles``, ``webhooks`` and ``connection``, below the load engine. May import
resources, organizations, settings, client, warehouse, domain, sources and errors; never the
packages beside it, nor the load engine or anything above.
"""

from __future__ import annotations

from emissions_etl.inventory.esrs import LINE_COLUMNS, esrs_lines
from emissions_etl.inventory.files import SHEETS, check_target, write_inventory_file
from emissions_etl.inventory.reading import Inventory, read_inventory

__all__ = [
    "LINE_COLUMNS",
    "SHEETS",
    "Inventory",
    "check_target",
    "esrs_lines",
    "read_inventory",
    "write_inventory_file",
]
