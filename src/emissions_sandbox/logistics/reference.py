"""Reference data of logistics, read from CSV files in data/ (never literals in code): TOCs with
their well-to-wheel factors, fuels, load units; distances through the shared gazetteer."""

from __future__ import annotations

import csv
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from emissions_sandbox import gazetteer

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
LOGISTICS_NAMESPACE = uuid.UUID("0d6f4c1e-7a52-4b8e-9e61-3c2a8f5b1d47")
DEFAULT_REGION = "GLO"


@dataclass(frozen=True)
class Toc:
    """A transport operation category: kg CO2e per tonne-km, well-to-wheel (facts §4.5, §4.6)."""

    id: str
    toc: str
    category: str
    vehicle: str
    type: str
    wtw: float
    default_load_kg: float
    location: str
    category_default: bool
    source: str


@dataclass(frozen=True)
class Fuel:
    id: str
    name: str
    unit: str
    factors: dict[str, float]  # region (country code or GLO) → kg CO2e per unit, combustion


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA_DIR / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def stable_id(kind: str, name: str) -> str:
    """The same uuid5 in every database, so clients may keep TOC and fuel ids."""
    return str(uuid.uuid5(LOGISTICS_NAMESPACE, f"{kind}|{name}"))


@cache
def tocs() -> dict[str, Toc]:
    return {
        row["toc"]: Toc(
            id=stable_id("toc", row["toc"]),
            toc=row["toc"],
            category=row["category"],
            vehicle=row["vehicle"],
            type=row["type"],
            wtw=float(row["wtw_kg_co2e_per_tkm"]),
            default_load_kg=float(row["default_load_kg"]),
            location=row["location"],
            category_default=row["category_default"] == "1",
            source=row["source"],
        )
        for row in _rows("logistics_tocs.csv")
    }


def toc_by_id(toc_id: str) -> Toc | None:
    return next((t for t in tocs().values() if t.id == toc_id), None)


def category_default_toc(category: str) -> Toc:
    """facts §4.6: with only a category, a generic average TOC of the mode."""
    return next(t for t in tocs().values() if t.category == category and t.category_default)


@cache
def fuels() -> dict[str, Fuel]:
    """Fuels by id; a fuel's factor varies by region only for electricity (grid intensity)."""
    by_name: dict[str, Fuel] = {}
    for row in _rows("logistics_fuels.csv"):
        fuel = by_name.setdefault(
            row["name"], Fuel(stable_id("fuel", row["name"]), row["name"], row["unit"], {})
        )
        fuel.factors[row["region"]] = float(row["kg_co2e_per_unit"])
    return {fuel.id: fuel for fuel in by_name.values()}


def fuel_factor(fuel: Fuel, country: str) -> float:
    return fuel.factors.get(country.upper(), fuel.factors[DEFAULT_REGION])


@cache
def tonnes_per_load_unit() -> dict[str, float]:
    return {
        row["load_unit"]: float(row["tonnes_per_unit"]) for row in _rows("logistics_load_units.csv")
    }


def distance_km(origin: str, destination: str) -> float | None:
    """Great-circle distance between two gazetteer places, to 0.1 km; None when either is
    unknown."""
    a, b = gazetteer.find_place(origin), gazetteer.find_place(destination)
    if a is None or b is None:
        return None
    return round(gazetteer.great_circle_km(a, b), 1)
