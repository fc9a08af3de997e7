"""The DuckDB warehouse: load runs, source rows, the source key -> remote id mapping, rejects,
and the co2e read back from the service, with the analysts' ``emissions`` view and the GHG
inventory (``ghg_inventory``) composed from each resource's ``InventoryRule``, and the
inventory's coverage (``coverage``) from each resource's ``CoverageRule``.

Knows nothing of HTTP or Prefect; the pipeline hands it frames. Tables: see ``README.md``.

Floor: with ``client``, below settings. May import domain, sources and errors; never the client
beside it, nor anything above: the load engine names it through the ports of ``loading.ports``,
which its writer's parts implement.
"""

from __future__ import annotations

from emissions_etl.warehouse._content_runs import ContentRun
from emissions_etl.warehouse._coverage import (
    CADENCES,
    COVERAGE_COLUMNS,
    ESTIMATE_METHODS,
    ESTIMATES,
    CoverageEntity,
    CoverageRule,
    Expectation,
    today,
)
from emissions_etl.warehouse._coverage_sql import DEFAULT_DUE_DAY
from emissions_etl.warehouse._filed import (
    ESTIMATE_COLUMNS,
    EVIDENCE_COLUMNS,
    FILED_COLUMNS,
    FILED_INVENTORIES,
    INVENTORY_RECORD_COLUMNS,
    FiledRow,
    Freeze,
    inventory_records_sql,
)
from emissions_etl.warehouse._inventory import (
    APPROACHES,
    DEFAULT_APPROACH,
    InventoryRule,
    ParentRecord,
    check_approach,
)
from emissions_etl.warehouse._memory import MemorySettings, parse_memory
from emissions_etl.warehouse._remote_records import REMOTE_COLUMNS
from emissions_etl.warehouse._runs import COUNT_COLUMNS, OUTCOMES, RunSummary
from emissions_etl.warehouse._schema import SCHEMA_VERSION
from emissions_etl.warehouse._target import WarehouseTarget
from emissions_etl.warehouse._upkeep import Upkeep
from emissions_etl.warehouse._warehouse import WRITER_WAIT_SECONDS, Warehouse
from emissions_etl.warehouse._writer import WarehouseWriter

__all__ = [
    "APPROACHES",
    "CADENCES",
    "COVERAGE_COLUMNS",
    "DEFAULT_DUE_DAY",
    "ESTIMATES",
    "ESTIMATE_COLUMNS",
    "ESTIMATE_METHODS",
    "CoverageEntity",
    "CoverageRule",
    "Expectation",
    "COUNT_COLUMNS",
    "ContentRun",
    "DEFAULT_APPROACH",
    "EVIDENCE_COLUMNS",
    "FILED_COLUMNS",
    "FiledRow",
    "Freeze",
    "INVENTORY_RECORD_COLUMNS",
    "FILED_INVENTORIES",
    "OUTCOMES",
    "InventoryRule",
    "MemorySettings",
    "ParentRecord",
    "REMOTE_COLUMNS",
    "RunSummary",
    "SCHEMA_VERSION",
    "Upkeep",
    "WRITER_WAIT_SECONDS",
    "Warehouse",
    "WarehouseTarget",
    "WarehouseWriter",
    "check_approach",
    "inventory_records_sql",
    "parse_memory",
    "today",
]
