"""The sandbox's small gazetteer (data/gazetteer.csv): place names to coordinates, country and
land mass, so `origin`/`destination` become a distance, and an address a country, without
calling a geocoding service. Business travels and logistics both read it."""

from __future__ import annotations

import csv
import math
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

GAZETTEER_CSV = Path(__file__).resolve().parent / "data" / "gazetteer.csv"
EARTH_RADIUS_KM = 6371.0088  # IUGG mean radius


@dataclass(frozen=True)
class Place:
    name: str
    country_code: str
    latitude: float
    longitude: float
    land_mass: str  # places joined by land (or a fixed link: Channel Tunnel) share one
    coastal: bool


def _normalized(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@cache
def _places() -> tuple[dict[str, Place], dict[str, set[str]]]:
    """Place by every normalized name and alias; normalized country names by country code."""
    by_name: dict[str, Place] = {}
    country_names: dict[str, set[str]] = {}
    with GAZETTEER_CSV.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            place = Place(
                name=row["name"],
                country_code=row["country_code"],
                latitude=float(row["latitude"]),
                longitude=float(row["longitude"]),
                land_mass=row["land_mass"],
                coastal=row["coastal"] == "1",
            )
            for name in [row["name"], *filter(None, row["aliases"].split("|"))]:
                by_name[_normalized(name)] = place
            names = country_names.setdefault(row["country_code"], set())
            names.update({_normalized(row["country_name"]), row["country_code"].casefold()})
    return by_name, country_names


def find_place(text: str) -> Place | None:
    """`"Madrid"` or `"Madrid, Spain"` / `"Madrid, ES"` (facts §4.1: "City, Country"); a
    country that does not match is None."""
    by_name, country_names = _places()
    city, _, country = text.partition(",")
    place = by_name.get(_normalized(city))
    if place is None or not country.strip():
        return place
    return place if _normalized(country) in country_names[place.country_code] else None


def great_circle_km(a: Place, b: Place) -> float:
    """Haversine distance on a sphere of the Earth's mean radius."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a.latitude, a.longitude, b.latitude, b.longitude))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def country_of_address(address: str) -> str | None:
    """The country code of an address whose last part names a gazetteer country or place."""
    parts = [p.strip() for p in address.split(",") if p.strip()]
    if not parts:
        return None
    last = _normalized(parts[-1])
    _, country_names = _places()
    for country_code, names in country_names.items():
        if last in names:
            return country_code
    found = find_place(parts[-1])
    return found.country_code if found else None
