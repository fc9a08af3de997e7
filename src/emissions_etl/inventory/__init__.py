"""The GHG inventory as analysts file it: the warehouse's ``ghg_inventory`` read under a
consolidation approach, laid out as ESRS E1-6 (Scope 1, Scope 2, Scope 3 by category, total),
for a reporting year beside the year before and the base year, by month and by facility, with
data quality per category; written as xlsx or csv; filed and read again exactly as it was filed
(``filing``), restated against a filing (``restatement``), and traced line by line to the
records and rows behind it (``evidence``).

    from emissions_etl.inventory import read_inventory, write_inventory_file
    inventory = read_inventory(Warehouse("warehouse.duckdb"), year=2026, base_year=2024)
    write_inventory_file(inventory, Path("inventory.xlsx"), warehouse="warehouse.duckdb")

Reads the warehouse only through ``Warehouse.query`` (and files through
``Warehouse.record_filed_inventory``); the classification itself is the warehouse's (composed
from each resource's declared rule).

Floor: with ``profiles``, ``webhooks`` and ``connection``, below the load engine. May import
resources, organizations, settings, client, warehouse, domain, sources and errors; never the
packages beside it, nor the load engine or anything above.
"""

from __future__ import annotations

from emissions_etl.inventory.esrs import LINE_COLUMNS, esrs_lines
from emissions_etl.inventory.estimates import Estimates
from emissions_etl.inventory.evidence import Evidence, evidence, write_evidence
from emissions_etl.inventory.filed import FiledInventory
from emissions_etl.inventory.files import (
    changes_path,
    check_target,
    estimates_path,
    write_changes_file,
    write_estimates_file,
    write_inventory_file,
)
from emissions_etl.inventory.filing import file_inventory, filed_inventory, read_filed
from emissions_etl.inventory.reading import Inventory, read_inventory
from emissions_etl.inventory.records import records_behind
from emissions_etl.inventory.restatement import Restatement, restate, restate_against
from emissions_etl.inventory.table import SHEETS
from emissions_etl.inventory.years import ComparedYear

__all__ = [
    "LINE_COLUMNS",
    "SHEETS",
    "ComparedYear",
    "Estimates",
    "Evidence",
    "FiledInventory",
    "Inventory",
    "Restatement",
    "changes_path",
    "check_target",
    "esrs_lines",
    "estimates_path",
    "evidence",
    "file_inventory",
    "filed_inventory",
    "read_filed",
    "read_inventory",
    "records_behind",
    "restate",
    "restate_against",
    "write_evidence",
    "write_changes_file",
    "write_estimates_file",
    "write_inventory_file",
]
