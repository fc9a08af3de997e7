"""The resources of the service the pipeline loads: one module each, declaring a ``ResourceSpec``.

``RESOURCES`` is the registry (name -> spec) in dependency order; the loader takes a spec and
knows no resource by name. To add a resource: a module here with its ``SPEC``, its schema in
``schemas/``, a line in ``_MODULES``, and a sample file in ``sample_data/inbox/<name>/``.

Floor: with ``organizations``, below profiles, webhooks, inventory and the load engine. May import
settings, client, warehouse (an ``InventoryRule``), domain, sources and errors; never
``organizations`` beside it, nor anything above.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module
from types import MappingProxyType

from emissions_etl.resources._spec import (
    Finding,
    IngestJobBulk,
    PerRecordBulk,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
    WriteStrategy,
)

#: Resource modules, by the names the interface gives the resources.
_MODULES = (
    "wastes",
    "facilities",
    "business_travels",
    "logistic_hubs",
    "purchases",
    "vehicles",
    "vehicle_consumptions",
    "logistics_requests",
    "logistics_recharges",
    "employees",
    "commuting_periods",
)


def _load() -> Mapping[str, ResourceSpec]:
    specs = [import_module(f"{__name__}.{module}").SPEC for module in _MODULES]
    return MappingProxyType({spec.name: spec for spec in in_dependency_order(specs)})


def in_dependency_order(specs: Iterable[ResourceSpec]) -> list[ResourceSpec]:
    """Parents before children (facilities before wastes, vehicles before consumptions);
    otherwise the given order. A dependency outside ``specs`` is ignored."""
    pending = list(specs)
    names = {spec.name for spec in pending}
    done: list[ResourceSpec] = []
    while pending:
        ready = [
            s
            for s in pending
            if all(d not in names or d in {x.name for x in done} for d in s.depends_on)
        ]
        if not ready:
            raise ValueError(
                "resources depend on each other in a cycle: " + ", ".join(s.name for s in pending)
            )
        done.append(ready[0])
        pending.remove(ready[0])
    return done


RESOURCES: Mapping[str, ResourceSpec] = _load()


def aggregate_resources() -> tuple[str, ...]:
    """The resources whose records' co2e is the sum of other records' (``Readback.is_aggregate``):
    never added to a total, which would count that co2e twice."""
    return tuple(name for name, spec in RESOURCES.items() if spec.readback.is_aggregate)


def aggregates_in_words() -> str:
    """The aggregate resources as a sentence names them ("facilities, logistic hubs, vehicles
    and employees"), from the specs, so no text lists them by hand."""
    words = [name.replace("_", " ") for name in aggregate_resources()]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def resource_spec(name: str) -> ResourceSpec:
    """The declaration of ``name``; ValueError lists the known resources."""
    try:
        return RESOURCES[name]
    except KeyError:
        known = ", ".join(RESOURCES)
        raise ValueError(f"unknown resource {name!r}; known: {known}") from None


__all__ = [
    "RESOURCES",
    "IngestJobBulk",
    "PerRecordBulk",
    "Readback",
    "Finding",
    "ResourceSpec",
    "SingleCreate",
    "ViewColumn",
    "WriteStrategy",
    "aggregate_resources",
    "aggregates_in_words",
    "in_dependency_order",
    "resource_spec",
]
