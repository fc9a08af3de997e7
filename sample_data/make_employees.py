"""Write the sample HR export: the company's employees at the four sites. ``staff()`` is the
people the commuting sample uses too.

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_employees.py``. The mistakes are listed in
``inbox/employees/README.md``.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

OUT = Path(__file__).parent / "inbox" / "employees" / "plantilla_2026.xlsx"
HEADERS = ["Nº empleado", "Nombre y apellidos", "Correo electrónico", "Centro", "Situación"]
FIRST = ["Ana", "Lucía", "Carmen", "Laura", "Marta", "Elena", "Sara", "Paula", "Irene", "Nuria",
         "Javier", "Miguel", "David", "Jordi", "Pablo", "Sergio", "Álvaro", "Raúl", "Iker",
         "Manuel"]  # fmt: skip
LAST = ["García", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín",
        "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Puig",
        "Etxeberria", "Navarro", "Torres"]  # fmt: skip
SITES = ["Madrid Warehouse", "Barcelona Plant", "Valencia Office", "Sevilla Logistics Hub"]
SITUATION_CELLS = {"active": ["Activo", "activo", "active", "Alta"], "inactive": ["Excedencia"],
                   "terminated": ["Baja"]}  # fmt: skip
DOMAIN = "example.es"
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (8, "Correo electrónico", None),  # filled below: the row's e-mail with a dot for the @
    (16, "Situación", "jubilado"),
    (24, "Nombre y apellidos", None),  # and no e-mail (a warehouse operator): nobody
    (32, "Situación", None),
    (40, "Correo electrónico", None),  # filled below: an earlier row's e-mail, in capitals
]


@dataclass(frozen=True)
class Person:
    number: str
    name: str
    email: str | None
    site: str
    situation: str


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def staff() -> list[Person]:
    """The employees (seeded), in the order of the file; warehouse operators often have no
    corporate e-mail and are known by name."""
    rng = random.Random(2026_0306)
    people, seen = [], set()
    while len(people) < 56:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        second = rng.choice(LAST)
        if (first, last, second) in seen:
            continue
        seen.add((first, last, second))
        site = rng.choice(SITES)
        operator = site in ("Madrid Warehouse", "Sevilla Logistics Hub") and rng.random() < 0.3
        email = None if operator else f"{_ascii(first)}.{_ascii(last)}.{_ascii(second)}@{DOMAIN}"
        situation = rng.choices(["active", "inactive", "terminated"], [90, 5, 5])[0]
        people.append(Person(f"E{1000 + len(people)}", f"{first} {last} {second}", email, site,
                             situation))  # fmt: skip
    return people


def rows(rng: random.Random) -> list[list[object]]:
    out: list[list[object]] = [
        [p.number, p.name, p.email, p.site, rng.choice(SITUATION_CELLS[p.situation])]
        for p in staff()
    ]
    for index, header, value in MISTAKES:
        row = out[index - 1]
        if index == 8:
            value = str(row[2]).replace("@", ".")
        if index == 40:
            previous = next(r for r in reversed(out[: index - 1]) if r[2])
            value = str(previous[2]).upper()
        row[HEADERS.index(header)] = value
        if index == 24:
            row[HEADERS.index("Correo electrónico")] = None
    return out


def main() -> None:
    rng = random.Random(2026_0307)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Plantilla"
    sheet.append(HEADERS)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows(rng):
        sheet.append(row)
    for column, width in zip("ABCDE", (12, 34, 36, 24, 12), strict=True):
        sheet.column_dimensions[column].width = width
    OUT.parent.mkdir(parents=True, exist_ok=True)
    book.save(OUT)


if __name__ == "__main__":
    main()
