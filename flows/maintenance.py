"""Flow ``maintain_warehouse``: the warehouse's upkeep each night after the nightly load
(``emissions-etl maintain-warehouse``): a lake's inlined rows flushed, small files merged,
old snapshots expired and unneeded files deleted; a DuckDB file checkpointed. A file's upkeep
takes the warehouse's turn (after a load still writing it); a lake's runs beside the loads."""

from __future__ import annotations

from prefect import flow

from emissions_etl.orchestration.tasks import maintain, upkeep_turn


@flow(name="maintain_warehouse", flow_run_name="maintain warehouse")
def maintain_warehouse(retention_days: int | None = None) -> list[str]:
    """Keep the warehouse fast as the nights add up; returns what upkeep did, a line a step.

    Args:
        retention_days: Days a lake keeps the snapshots it replaced, for time travel; 0 keeps
            the current one only. Snapshots of filed inventories are always kept. Default:
            EMISSIONS_WAREHOUSE_RETENTION_DAYS on the worker, else 30.
    """
    with upkeep_turn():
        return maintain(retention_days)


if __name__ == "__main__":  # python -m emissions_etl_flows.maintenance [DAYS], from any folder
    import sys

    maintain_warehouse(int(sys.argv[1]) if len(sys.argv) > 1 else None)
