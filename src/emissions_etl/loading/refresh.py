"""Records landed before the service had finished with them, read again: those whose status
was not final, and those whose co2e sums other records' (loaded before their children)."""

from __future__ import annotations

from emissions_etl.loading.ports import RemoteRecords, WritableWarehouse
from emissions_etl.loading.readback import ReadApi, read_records, remote_frame
from emissions_etl.resources import RESOURCES, ResourceSpec


def refresh_unsettled(api: ReadApi, records: RemoteRecords, spec: ResourceSpec) -> int:
    """Read again the records earlier runs landed before the service had calculated them."""
    stale = records.unsettled_records(spec.name, sorted(spec.readback.unsettled))
    if stale.empty:
        return 0
    keys = dict(zip(stale["remote_id"], stale["source_key"], strict=True))
    fresh = remote_frame(read_records(api, spec.readback, stale), spec, keys)
    records.land_changed_records(spec.name, fresh)
    return len(fresh)


def refresh_aggregates(api: ReadApi, warehouse: WritableWarehouse) -> int:
    """Read again every record whose co2e sums other records' (a facility's wastes, a vehicle's
    consumptions): loaded before their children, they would keep the co2e of that moment.
    Only the records that changed are written again."""
    refreshed = 0
    with warehouse.writer() as writer:
        for spec in RESOURCES.values():
            if not spec.readback.is_aggregate:
                continue
            landed = writer.records.landed_records(spec.name)
            if landed.empty:
                continue
            keys = dict(zip(landed["remote_id"], landed["source_key"], strict=True))
            fresh = remote_frame(read_records(api, spec.readback, landed), spec, keys)
            writer.records.land_changed_records(spec.name, fresh)
            refreshed += len(fresh)
    return refreshed
