"""Write the business travel samples: a person's travel log (xlsx, Spanish headers) and a travel
agency's flight export (csv), with known mistakes.

Deterministic (seeded): running it again gives the same files. Run from the project root:
``.venv/bin/python sample_data/make_business_travels.py``. The mistakes are listed in
``inbox/business_travels/README.md``; only places the sandbox's gazetteer knows are used,
except where a row is wrong on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

INBOX = Path(__file__).parent / "inbox" / "business_travels"
LOG_HEADER = ["Id viaje", "Empleado", "Fecha", "Medio de transporte", "Origen", "Destino", "Km",
              "Viajeros", "Ida y vuelta", "Tamaño", "Combustible", "Tipo de vuelo", "Clase",
              "Motivo"]  # fmt: skip
EMPLOYEES = ["Lucía Martín", "Javier Gómez", "Carmen Ruiz", "Pablo Sánchez", "Marta Navarro",
             "Diego Torres", "Elena Ramos", "Sergio Molina"]  # fmt: skip
REASONS = ["Visita cliente", "Feria", "Auditoría", "Formación", "Reunión de equipo", "Proveedor"]
SPANISH_CITIES = ["Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Bilbao", "Málaga"]
RAIL_ABROAD = ["Lisboa", "Paris", "Lyon", "Marseille", "Toulouse"]
FLIGHTS = {  # destination -> flight type from Madrid or Barcelona
    "London": "short_haul_international", "Paris": "short_haul_international",
    "Berlin": "short_haul_international", "Amsterdam": "short_haul_international",
    "Milano": "short_haul_international", "Brussels": "short_haul_international",
    "München": "short_haul_international", "Lisboa": "short_haul_international",
    "New York": "long_haul_international", "Ciudad de México": "long_haul_international",
    "Sevilla": "domestic", "Palma": "domestic", "Las Palmas": "domestic", "Bilbao": "domestic",
}  # fmt: skip
CAR_SIZES = ["Pequeño", "Mediano", "Grande", "medium", None]
CAR_FUELS = ["Gasolina", "Gasóleo", "diesel", "Híbrido enchufable", "Eléctrico", "unknown"]
#: (data row index, header, bad value): the deliberate mistakes of the travel log.
LOG_MISTAKES = [
    (6, "Km", 505),  # a distance and both places
    (19, "Viajeros", 0),
    (31, "Medio de transporte", "Patinete"),
    (44, "Tipo de vuelo", "domestic"),  # on a train row
    (57, "Fecha", "31/04/2026"),
    (70, "Ida y vuelta", "quizás"),
    (83, "Destino", "Palma"),  # a train to an island: the service refuses the route
    (96, "Destino", "Villarriba"),  # a place the service does not know
]


def travel_log_rows(rng: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    day = dt.date(2026, 1, 7)
    for number in range(1, 121):
        day += dt.timedelta(days=rng.choice([0, 1, 1, 2]))
        row: dict[str, object] = {
            "Id viaje": f"VJ-2026-{number:04d}",
            "Empleado": rng.choice(EMPLOYEES),
            "Fecha": day,
            "Viajeros": rng.choice([1, 1, 1, 2, 3]),
            "Ida y vuelta": rng.choice(["sí", "no", "Sí", "No"]),
            "Motivo": rng.choice(REASONS),
        }
        kind = rng.choice(["train", "train", "aircraft", "aircraft", "car", "taxi", "bus",
                           "metro", "ferry"])  # fmt: skip
        home = rng.choice(["Madrid", "Barcelona"])
        if kind == "train":
            away = rng.choice([c for c in SPANISH_CITIES + RAIL_ABROAD if c != home])
            row.update({"Medio de transporte": "Tren", "Origen": home, "Destino": away})
        elif kind == "aircraft":
            away = rng.choice([c for c in FLIGHTS if c != home])
            cabin = rng.choice(["Turista", "economy", "Business", "premium"])
            row.update({"Medio de transporte": rng.choice(["Avión", "avion", "Flight"]),
                        "Origen": home, "Destino": away, "Tipo de vuelo": FLIGHTS[away],
                        "Clase": cabin})  # fmt: skip
        elif kind == "car":
            size, fuel = rng.choice(CAR_SIZES), rng.choice(CAR_FUELS)
            row.update({"Medio de transporte": "Coche", "Km": rng.randint(15, 650),
                        "Tamaño": size, "Combustible": fuel})  # fmt: skip
        elif kind == "taxi":
            row.update({"Medio de transporte": "Taxi", "Km": round(rng.uniform(4, 35), 1)})
        elif kind == "bus":
            row.update({"Medio de transporte": "Autobús", "Km": rng.randint(20, 400),
                        "Viajeros": rng.choice([8, 12, 25, 40])})  # fmt: skip
        elif kind == "metro":
            row.update({"Medio de transporte": "Metro", "Km": round(rng.uniform(3, 25), 1)})
        else:
            port = rng.choice(["Barcelona", "Valencia"])
            row.update({"Medio de transporte": "Ferry", "Origen": port, "Destino": "Palma"})
        rows.append([row.get(header) for header in LOG_HEADER])
    for position, header, value in LOG_MISTAKES:
        rows[position][LOG_HEADER.index(header)] = value
        if header == "Destino":  # make the row a train trip from Madrid
            rows[position][LOG_HEADER.index("Medio de transporte")] = "Tren"
            rows[position][LOG_HEADER.index("Origen")] = "Madrid"
            for other in ("Km", "Tamaño", "Combustible", "Tipo de vuelo", "Clase"):
                rows[position][LOG_HEADER.index(other)] = None
    _make_train(rows[6], "Madrid", "Valencia")
    rows[6][LOG_HEADER.index("Km")] = 505
    _make_train(rows[44], "Madrid", "Zaragoza")
    rows[44][LOG_HEADER.index("Tipo de vuelo")] = "domestic"
    return rows


def _make_train(row: list[object], origin: str, destination: str) -> None:
    for other in ("Km", "Tamaño", "Combustible", "Tipo de vuelo", "Clase"):
        row[LOG_HEADER.index(other)] = None
    row[LOG_HEADER.index("Medio de transporte")] = "Tren"
    row[LOG_HEADER.index("Origen")] = origin
    row[LOG_HEADER.index("Destino")] = destination


def write_travel_log(path: Path, rng: random.Random) -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Viajes 2026"
    sheet.append(["Registro de viajes de empresa, primer semestre 2026"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append(LOG_HEADER)
    for row in travel_log_rows(rng):
        sheet.append(row)
        if isinstance(row[2], dt.date):
            sheet.cell(sheet.max_row, 3).number_format = "dd/mm/yyyy"
    workbook.save(path)


AGENCY_HEADER = "Booking ref;Travel date;Mode;From;To;Pax;Return;Flight type;Cabin"
#: data row index -> (column, bad text): the deliberate mistakes of the agency export.
AGENCY_MISTAKES = {
    14: (0, "AG-26-0013"),  # the booking reference of the row above
    29: (4, "Tokio"),  # the gazetteer knows Tokyo, not Tokio: the service refuses it
    41: (5, "1200"),  # more travellers than the service allows
}


def write_agency_csv(path: Path, rng: random.Random) -> None:
    lines = [AGENCY_HEADER]
    for index in range(60):
        away = rng.choice(["London", "Paris", "Berlin", "New York", "Tokyo", "Lisbon",
                           "Amsterdam", "Munich", "Milan", "Dubai"])  # fmt: skip
        long = away in ("New York", "Tokyo", "Dubai")
        day = dt.date(2026, 1, 1) + dt.timedelta(days=rng.randint(0, 170))
        cells = [
            f"AG-26-{index:04d}", f"{day:%d/%m/%Y}", "Plane", rng.choice(["Madrid", "Barcelona"]),
            away, str(rng.choice([1, 1, 2, 4])), rng.choice(["Y", "N"]),
            "Long haul" if long else "Short haul",
            rng.choice(["Economy", "Premium Economy", "Business"]) if long else "Economy",
        ]  # fmt: skip
        if index in AGENCY_MISTAKES:
            column, bad = AGENCY_MISTAKES[index]
            cells[column] = bad
        lines.append(";".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    INBOX.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    write_travel_log(INBOX / "travel_log_2026_h1.xlsx", rng)
    write_agency_csv(INBOX / "agency_flights_2026.csv", rng)


if __name__ == "__main__":
    main()
