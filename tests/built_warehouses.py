"""Warehouses many tests start from, written once per process through the writer: each test's
is a copy of the file (a copy takes half a millisecond of CPU; writing one took 20-30 ms for an
empty warehouse, 0.3-0.5 s for one with runs and records)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from emissions_etl.resources import RESOURCES
from emissions_etl.warehouse import Warehouse, WarehouseWriter

_BUILT_IN = Path(tempfile.mkdtemp(prefix="emissions-etl-built-warehouses-"))
atexit.register(shutil.rmtree, _BUILT_IN, ignore_errors=True)
_BUILT: set[str] = set()


def copy_of_built(name: str, build: Callable[[Path], object], path: Path | str) -> Path:
    """``path``, a copy of the DuckDB file ``build`` wrote the first time this process asked
    for ``name`` (one name per content: what ``build`` writes must not vary)."""
    built = _BUILT_IN / f"{name}.duckdb"
    if name not in _BUILT:  # a build that failed half-way is written again, not copied
        built.unlink(missing_ok=True)
        build(built)
        _BUILT.add(name)
    shutil.copyfile(built, path)
    return Path(path)


def empty_warehouse(path: Path | str) -> Path:
    """``path``, a copy of an empty warehouse (its tables, views and inventory, nothing loaded)
    written by the writer as a new file's first load writes it."""
    return copy_of_built("empty", _write_empty, path)


def _write_empty(path: Path) -> None:
    with Warehouse(path).writer():
        pass


def describe_every_resource(writer: WarehouseWriter) -> None:
    """What a load of each resource tells the warehouse before its first row: what its co2e
    means, and its inventory and coverage rules."""
    for spec in RESOURCES.values():
        writer.catalog.describe_resource(
            spec.name, is_aggregate=spec.readback.is_aggregate, description=spec.description
        )
        writer.inventory.declare_inventory_rule(spec.name, spec.inventory)
        writer.coverage.declare_coverage_rule(spec.name, spec.coverage)
