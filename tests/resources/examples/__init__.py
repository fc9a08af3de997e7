"""Example data for every resource, one module each: rows a person would write, a change, a row
the service refuses. ``EXAMPLES`` discovers them, so the generic tests walk every resource."""

from __future__ import annotations

import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from emissions_etl.client import EmissionsClient


@dataclass(frozen=True)
class Change:
    """Row ``row`` (0-based among ``rows``) gets ``value`` in column ``header``."""

    row: int
    header: str
    value: Any


@dataclass(frozen=True)
class Refusal:
    """A row validation accepts but the service refuses, at ``header`` with ``code`` in the
    message (the service's stable code)."""

    row: list[Any]
    header: str
    code: str


@dataclass(frozen=True)
class Cleared:
    """Row ``row`` has its optional cell under ``header`` emptied: the record's ``field``
    (a dotted path in the service's record) must then be empty too, or hold ``expected``."""

    row: int
    header: str
    field: str
    #: What an empty cell means for the field (None: nothing; a default the loader fills in).
    expected: Any = None


@dataclass(frozen=True)
class Example:
    resource: str
    header: list[str]
    rows: list[list[Any]]
    change: Change
    refusal: Refusal
    #: Records of this resource in the organization now, read from the service.
    count: Callable[[EmissionsClient], int]
    #: Resources whose examples must be loaded first (their rows are this one's parents).
    parents: tuple[str, ...] = ()
    title_rows: list[list[Any]] = field(default_factory=list)
    #: An optional cell emptied in a new version of the file.
    cleared: Cleared | None = None


def _discover() -> dict[str, Example]:
    found = {}
    for module in pkgutil.iter_modules(__path__):
        example = import_module(f"{__name__}.{module.name}").EXAMPLE
        found[example.resource] = example
    return found


EXAMPLES: dict[str, Example] = _discover()
