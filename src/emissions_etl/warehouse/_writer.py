"""What one load run writes, part by part, over the run's one connection.

Handed out by ``Warehouse.writer()`` only, so all writes happen under the cross-process lock.
Each part has one concern and is what the load engine names through a port of its own
(``loading.ports``): ``runs`` (the run row, its source rows and rejects), ``mappings`` (source
key -> remote id), ``marks`` (pending marks for crash recovery), ``catalog`` (what a resource's
co2e means, its view), ``inventory`` (its inventory rule), ``coverage`` (its coverage rule, and
the organization's expectations) and ``records`` (what the service holds now). Every frame
lands through Arrow (``_delete_insert``); empty frames are no-ops.
"""

from __future__ import annotations

import duckdb

from emissions_etl.warehouse._catalog import WarehouseCatalog, WarehouseInventoryRules
from emissions_etl.warehouse._coverage import WarehouseCoverage
from emissions_etl.warehouse._mappings import WarehouseMappings
from emissions_etl.warehouse._pending import WarehousePendingMarks
from emissions_etl.warehouse._remote_records import WarehouseRemoteRecords
from emissions_etl.warehouse._run_log import WarehouseRunLog


class WarehouseWriter:
    """Writes of one load run over one open connection (see ``README.md`` for the tables), for
    one organization: every row its parts write names it, every row they read is its own.
    ``exclusive``: the only writer (a file), so every run still running when it opens was
    interrupted."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        organization_id: str | None = None,
        *,
        exclusive: bool = True,
    ) -> None:
        self.organization_id = organization_id
        self.runs = WarehouseRunLog(con, organization_id, exclusive=exclusive)
        self.mappings = WarehouseMappings(con, organization_id)
        self.marks = WarehousePendingMarks(con, organization_id)
        self.catalog = WarehouseCatalog(con)
        self.inventory = WarehouseInventoryRules(con)
        self.coverage = WarehouseCoverage(con, organization_id)
        self.records = WarehouseRemoteRecords(con, organization_id)
