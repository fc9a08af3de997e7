"""Reference data fetched from the service at load time, to resolve names people write to ids.

A spreadsheet says ``Madrid Warehouse``, ``20 01 01``, ``R3`` and ``t``; the service wants
facility, waste emission-factor and unit ids. These maps are built once per load.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

#: Unit names the service may use, by the short form spreadsheets use.
UNIT_ALIASES: Mapping[str, tuple[str, ...]] = {
    "kg": ("kg", "kilogram", "kilograms", "kilogramos"),
    "t": ("t", "tonne", "tonnes", "ton", "tons", "metric_ton", "metric_tons", "toneladas"),
}


class ReferenceApi(Protocol):
    """The client calls lookups need."""

    def iter_facilities(self, **filters: Any) -> Iterable[dict[str, Any]]: ...

    def iter_waste_efs(
        self,
        *,
        low_code: str | None = None,
        rd_code: str | None = None,
        region: str | None = None,
    ) -> Iterable[dict[str, Any]]: ...

    def list_units(self) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class WasteLookups:
    """Name -> id maps for resolving waste rows."""

    facilities: Mapping[str, str]
    waste_efs: Mapping[tuple[str, str], str]
    units: Mapping[str, str]
    #: The facilities as the service lists them (for the warehouse's ``facilities`` table).
    facility_rows: tuple[Mapping[str, Any], ...] = ()


def facility_map(facilities: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Facility id and name -> id (names as the service spells them; matching ignores case)."""
    result: dict[str, str] = {}
    for facility in facilities:
        facility_id = str(facility["id"])
        result[facility_id] = facility_id
        result[str(facility.get("name") or "").strip()] = facility_id
    return result


def unit_map(units: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """``kg`` and ``t`` -> the service's unit ids, matched by the unit's name."""
    by_name = {str(unit.get("name", "")).strip().lower(): str(unit["id"]) for unit in units}
    result = {}
    for short, names in UNIT_ALIASES.items():
        for name in names:
            if name in by_name:
                result[short] = by_name[name]
                break
    return result


def fetch_waste_lookups(api: ReferenceApi, *, region: str = "GLO") -> WasteLookups:
    """Everything needed to resolve waste rows, read from the service once."""
    waste_efs = {
        (str(row["low_code"]), str(row["rd_code"]).upper()): str(row["id"])
        for row in api.iter_waste_efs(region=region)
    }
    facilities = tuple(api.iter_facilities())
    return WasteLookups(
        facilities=facility_map(facilities),
        waste_efs=waste_efs,
        units=unit_map(api.list_units()),
        facility_rows=facilities,
    )
