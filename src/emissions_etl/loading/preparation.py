"""What a run does before its first row: tell the warehouse what the resource is (what its
co2e means, its analysts' view, its inventory and coverage rules) and fetch the reference lists
its rows are resolved with, landing the ones that are directories the warehouse keeps (the
facilities)."""

from __future__ import annotations

from emissions_etl.domain.references import ListingApi, References, fetch_references
from emissions_etl.loading.ports import LoadWarehouse, RemoteRecords
from emissions_etl.resources import RESOURCES, ResourceSpec


def describe(writer: LoadWarehouse, spec: ResourceSpec) -> None:
    """Record what the resource's co2e means, (re)create its analyst view and declare where its
    records sit in the inventory and in time; and, for a resource whose records are entities
    another resource is expected of (vehicles, of their consumptions), that one's coverage
    rule too: vehicles loaded before any fuel file are each expected every month."""
    writer.catalog.describe_resource(
        spec.name, is_aggregate=spec.readback.is_aggregate, description=spec.description
    )
    writer.catalog.create_resource_view(
        spec.name,
        [(c.name, c.sql_type, c.path or f"$.{c.name}", c.meaning) for c in spec.view_columns],
        description=spec.description,
    )
    writer.inventory.declare_inventory_rule(spec.name, spec.inventory)
    writer.coverage.declare_coverage_rule(spec.name, spec.coverage)
    for other in RESOURCES.values():
        entity = other.coverage.entity if other.coverage is not None else None
        if entity is not None and entity.resource == spec.name:
            writer.coverage.declare_coverage_rule(other.name, other.coverage)


def references_of(api: ListingApi, records: RemoteRecords, spec: ResourceSpec) -> References:
    """The reference lists ``spec`` resolves with, read from the service; the lists that are a
    directory (``ReferenceList.directory``) are landed in the warehouse as they are read."""
    references = fetch_references(api, spec.lookups)
    for table in references.values():
        if table.spec.directory is not None:
            records.land_facilities(table.spec.directory.rows(table.items))
    return references
