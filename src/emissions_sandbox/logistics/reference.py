"""Reference data of logistics, read from CSV files in data/ (never literals in code): TOCs with
their well-to-wheel factors, fuels, load units, and the shared gazetteer for distances."""

from __future__ import annotations

import csv
import math
import unicodedata
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
LOGISTICS_NAMESPACE = uuid.UUID("0d6f4c1e-7a52-4b8e-9e61-3c2a8f5b1d47")
EARTH_RADIUS_KM = 6371.0088  # IUGG mean radius
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


def _normalized(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class Place:
    country_code: str
    country_names: frozenset[str]
    latitude: float
    longitude: float


@cache
def _places() -> dict[str, Place]:
    """data/gazetteer.csv (shared with business travels) by normalized name and alias."""
    path = DATA_DIR / "gazetteer.csv"
    if not path.exists():
        return {}
    by_name: dict[str, Place] = {}
    for row in _rows("gazetteer.csv"):
        names = frozenset({_normalized(row["country_name"]), row["country_code"].casefold()})
        place = Place(row["country_code"], names, float(row["latitude"]), float(row["longitude"]))
        for name in [row["name"], *filter(None, row["aliases"].split("|"))]:
            by_name[_normalized(name)] = place
    return by_name


def find_place(text: str) -> Place | None:
    """`"Madrid"`, `"Madrid, Spain"` or `"Madrid, ES"` (facts §4.1: "City, Country")."""
    city, _, country = text.rpartition(",") if "," in text else (text, "", "")
    place = _places().get(_normalized(city))
    if place is None or not country.strip():
        return place
    return place if _normalized(country) in place.country_names else None


def distance_km(origin: str, destination: str) -> float | None:
    """Great-circle distance between two gazetteer places; None when either is unknown."""
    a, b = find_place(origin), find_place(destination)
    if a is None or b is None:
        return None
    lat1, lon1, lat2, lon2 = map(math.radians, (a.latitude, a.longitude, b.latitude, b.longitude))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return round(2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h)), 1)


def country_of_address(address: str) -> str | None:
    """The country code of an address whose last part names a gazetteer place or country."""
    parts = [p.strip() for p in address.split(",") if p.strip()]
    if not parts:
        return None
    last = _normalized(parts[-1])
    for place in _places().values():
        if last in place.country_names:
            return place.country_code
    found = find_place(parts[-1])
    return found.country_code if found else None
