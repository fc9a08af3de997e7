"""Write the sample commuting survey: how the employees of the HR export get to work in the
first half of 2026, as the survey tool exports the answers.

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_commuting_periods.py``. The people come from
``make_employees.staff()``; the mistakes are listed in ``inbox/commuting_periods/README.md``.
"""

# ruff: noqa: E501  (tables of modes and mistakes, one entry a line)
from __future__ import annotations

import random
from pathlib import Path

from make_employees import MISTAKES as HR_MISTAKES
from make_employees import Person, staff
from openpyxl import Workbook
from openpyxl.styles import Font

OUT = Path(__file__).parent / "inbox" / "commuting_periods" / "encuesta_movilidad_2026.xlsx"
HEADERS = ["ID respuesta", "Empleado", "Desde", "Hasta", "Tipo de desplazamiento",
           "Medio de transporte", "Km por trayecto", "Días", "Trayectos al día", "Tamaño",
           "Combustible", "Comparte coche", "Medio de respuesta"]  # fmt: skip
#: Ways to work by site: (mode, weight, km range).
MODES = {
    "Madrid Warehouse": [("Coche", 5, (8, 35)), ("Cercanías", 3, (10, 30)), ("Autobús", 2, (3, 15))],
    "Barcelona Plant": [("Coche", 3, (6, 30)), ("Tren", 3, (10, 40)), ("Metro", 3, (3, 12)),
                        ("Moto", 1, (4, 20))],
    "Valencia Office": [("Metro", 3, (3, 10)), ("Bicicleta", 3, (2, 8)), ("Coche", 2, (5, 25)),
                        ("Tranvía", 1, (3, 9))],
    "Sevilla Logistics Hub": [("Coche", 5, (10, 30)), ("Autobús", 2, (5, 20)),
                              ("Andando", 1, (1, 3))],
}  # fmt: skip
DAYS = ["L-V", "Mon-Fri", "0,1,2,3,4", "Lunes-Viernes"]
SIZES, FUELS = ["Mediano", "Pequeño", "Grande", "medium"], ["Gasolina", "Diésel", "Híbrido enchufable"]
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (7, "Medio de transporte", "helicóptero"),
    (19, "Hasta", "15/12/2025"),  # before its start
    (31, "Km por trayecto", 1500),
    (43, "Tamaño", "Grande"),  # on a bus or train row: set below
    (55, "Km por trayecto", None),  # on a car row: set below
    (67, "Comparte coche", "a veces"),
]


def _period(person: Person, rng: random.Random, start: str, end: str) -> list[list[object]]:
    names = [mode for mode, _, _ in MODES[person.site]]
    weights = [weight for _, weight, _ in MODES[person.site]]
    mode = rng.choices(names, weights)[0]
    low, high = next(km for name, _, km in MODES[person.site] if name == mode)
    car = mode in ("Coche", "Moto")
    hybrid = rng.random() < 0.2
    days = "L,M,X" if hybrid else rng.choice(DAYS)
    rows = [[None, person.email or person.name, start, end, "Casa-trabajo", mode,
             round(rng.uniform(low, high), 1), days, 2, rng.choice(SIZES) if car else None,
             rng.choice(FUELS) if car else None, rng.choice(["no", "no", "sí"]) if car else None,
             rng.choice(["Formulario", "QR"])]]  # fmt: skip
    if hybrid:
        rows.append([None, person.email or person.name, start, end, "Casa-trabajo",
                     "Teletrabajo", None, "J,V", None, None, None, None, rows[0][-1]])  # fmt: skip
    return rows


def rows(rng: random.Random) -> list[list[object]]:
    people = staff()
    #: HR rows that do not load: those people did not answer, except the first (row 9).
    silent = {people[index - 1].number for index, *_ in HR_MISTAKES[1:]}
    out: list[list[object]] = []
    for person in people:
        if person.number in silent or person.situation == "terminated":
            continue
        if rng.random() < 0.3:  # changed how they commute in April
            out += _period(person, rng, "01/01/2026", "31/03/2026")
            out += _period(person, rng, "01/04/2026", "30/06/2026")
        else:
            out += _period(person, rng, "01/01/2026", "30/06/2026")
    courier = next(p for p in people if p.site == "Madrid Warehouse" and p.number not in silent)
    out.append([None, courier.email or courier.name, "01/01/2026", "30/06/2026", "En jornada",
                "Moto", 4.5, "L-V", 30, "Pequeño", "Gasolina", "no", "Formulario"])  # fmt: skip
    for number, row in enumerate(out, start=1):
        row[0] = f"R-{number:04d}"
    for index, header, value in MISTAKES:
        row = out[index - 1]
        if header == "Tamaño":  # a size on the next bus, train or metro row
            row = next(r for r in out[index - 1:] if r[5] in ("Autobús", "Tren", "Cercanías", "Metro"))
        if header == "Km por trayecto" and value is None:
            row = next(r for r in out[index - 1:] if r[5] == "Coche")
        row[HEADERS.index(header)] = value
    return out


def main() -> None:
    rng = random.Random(2026_0308)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Respuestas"
    sheet.append(HEADERS)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows(rng):
        sheet.append(row)
    for column, width in zip("ABCDEFGHIJKLM", (12, 36, 11, 11, 14, 14, 10, 14, 10, 10, 18, 10, 12),
                             strict=True):  # fmt: skip
        sheet.column_dimensions[column].width = width
    OUT.parent.mkdir(parents=True, exist_ok=True)
    book.save(OUT)


if __name__ == "__main__":
    main()
