"""Write the sample fleet list: delivery vans, trucks and company cars, as the fleet manager
keeps them. ``fleet()`` is the vehicles the consumption sample uses too.

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_vehicles.py``. The mistakes are listed in
``inbox/vehicles/README.md``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

OUT = Path(__file__).parent / "inbox" / "vehicles" / "flota_2026.xlsx"
HEADERS = ["Matrícula", "Alias", "Tipo", "Régimen", "Tipo de vehículo", "País", "Combustible",
           "Año", "Segmento", "Tamaño"]  # fmt: skip
_CONSONANTS = "BCDFGHJKLMNPRSTVWXYZ"
#: (how many, alias prefix, type, kind, fuels, segment, size, country)
GROUPS = [
    (14, "Furgoneta reparto", "freight", "van", ["diesel"] * 5 + ["electricity"], None, None, "ES"),
    (5, "Camión", "freight", "truck", ["diesel"], None, None, "ES"),
    (8, "Coche comercial", "passenger", "car", ["petrol", "diesel", "electricity"], "lower_medium",
     "medium", "ES"),
    (3, "Coche dirección", "passenger", "car", ["electricity", "petrol"], "executive", "large_car",
     "ES"),
    (4, "Carrinha Lisboa", "freight", "van", ["diesel"], None, None, "PT"),
]  # fmt: skip
FUEL_WORDS = {"diesel": ["diesel", "Gasóleo", "gasoil"], "petrol": ["gasolina", "petrol"],
              "electricity": ["eléctrico", "electricity"]}  # fmt: skip
CITIES = ["Madrid", "Barcelona", "Valencia", "Sevilla"]
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (5, "Combustible", "hidrógeno"),
    (9, "Año", 2036),
    (13, "Régimen", "prestado"),
    (17, "Combustible", None),
    (21, "País", "España"),
]


@dataclass(frozen=True)
class Vehicle:
    plate: str
    alias: str
    type: str
    kind: str
    fuel: str
    segment: str | None
    size: str | None
    country: str
    year: int
    rented: bool


def _plate(rng: random.Random, country: str) -> str:
    if country == "PT":
        letters = "".join(rng.choice(_CONSONANTS) for _ in range(4))
        return f"{letters[:2]}-{rng.randint(10, 99)}-{letters[2:]}"
    return f"{rng.randint(1000, 9999)} {''.join(rng.choice(_CONSONANTS) for _ in range(3))}"


def fleet() -> list[Vehicle]:
    """The company's vehicles (seeded), in the order of the file."""
    rng = random.Random(2026_0303)
    vehicles = []
    for count, prefix, kind_type, kind, fuels, segment, size, country in GROUPS:
        for number in range(1, count + 1):
            city = rng.choice(CITIES) if country == "ES" else ""
            alias = f"{prefix} {city} {number}".replace("  ", " ")
            vehicles.append(Vehicle(_plate(rng, country), alias, kind_type, kind, rng.choice(fuels),
                                    segment, size, country, rng.randint(2017, 2025),
                                    rng.random() < 0.4))  # fmt: skip
    return vehicles


def rows(rng: random.Random) -> list[list[object]]:
    out: list[list[object]] = []
    for vehicle in fleet():
        plate = vehicle.plate.replace(" ", "-") if rng.random() < 0.2 else vehicle.plate
        ownership = rng.choice(["renting", "alquilado", "rented"]) if vehicle.rented else (
            rng.choice(["owned", "propio"])
        )
        out.append([plate, vehicle.alias, vehicle.type, ownership, vehicle.kind, vehicle.country,
                    rng.choice(FUEL_WORDS[vehicle.fuel]), vehicle.year, vehicle.segment,
                    vehicle.size])  # fmt: skip
    out.append(["1234-BCD", "Furgoneta reparto Sevilla (baja)", "freight", "owned", "van", "ES",
                "diesel", 2016, None, None])  # fmt: skip
    out.append(["1234 bcd", "Furgoneta reparto Sevilla (baja)", "freight", "owned", "van", "ES",
                "diesel", 2016, None, None])  # fmt: skip
    for index, header, value in MISTAKES:
        out[index - 1][HEADERS.index(header)] = value
    return out


def main() -> None:
    rng = random.Random(2026_0304)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Flota"
    sheet.append(HEADERS)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows(rng):
        sheet.append(row)
    for column, width in zip("ABCDEFGHIJ", (12, 34, 10, 10, 16, 6, 12, 6, 14, 12), strict=True):
        sheet.column_dimensions[column].width = width
    OUT.parent.mkdir(parents=True, exist_ok=True)
    book.save(OUT)


if __name__ == "__main__":
    main()
