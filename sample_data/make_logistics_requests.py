"""Write the logistics requests sample: a transport planner's workbook of shipment legs (xlsx,
Spanish headers) with known mistakes.

Deterministic (seeded): running it again gives the same rows. Run from the project root:
``.venv/bin/python sample_data/make_logistics_requests.py``. The mistakes are listed in
``inbox/logistics_requests/README.md``. Places are ones the sandbox's gazetteer knows, hubs are
hubs of ``inbox/logistic_hubs/hubs_2026.xlsx`` that load, TOCs are the service's, except where
a row is wrong on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

INBOX = Path(__file__).parent / "inbox" / "logistics_requests"
HEADER = ["Expedición", "Tramo", "Fecha envío", "Origen", "Destino", "Km", "Peso", "Unidad",
          "Tipo vehículo", "Modo", "Cliente", "Hub", "Matrícula", "Subcontratado"]  # fmt: skip
ROAD = ["Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Bilbao", "Málaga", "Lisboa",
        "Porto", "Toulouse", "Lyon", "Marseille"]  # fmt: skip
HUB_AT = {  # a hub at the leg's origin, when the shipment leaves from one
    "Madrid": ["Hub Madrid Sur", "SEUR Coslada", "Logista Getafe"],
    "Barcelona": ["Hub Barcelona Zona Franca"],
    "Sevilla": ["Hub Sevilla"],
    "Zaragoza": ["DHL Zaragoza PLAZA"],
    "Valencia": ["Puerto de Valencia (MSC)"],
}
TRUCKS = ["articulated_truck_diesel", "rigid_truck_26_32_t_euro6_diesel", "van_diesel",
          "articulated_truck_diesel_desnz"]  # fmt: skip
CLIENTS = ["Distribuciones Norte", "Farmacia Central", "Baleares Food", "Iberia Retail",
           "Muebles del Sur", "AutoRecambios Levante"]  # fmt: skip
PLATES = ["4821 LKM", "1093 KZB", "7710 MNP", "2256 JTR", "9034 LHD", "5567 KWS"]
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (9, "Peso", -500),
    (21, "Fecha envío", "30/02/2026"),
    (33, "Modo", "dron"),
    (45, "Destino", None),  # one place and no distance
    (57, "Modo", None),  # neither a vehicle type nor a mode
    (69, "Tramo", 1),  # with its shipment set below: the key of the row above again
    (81, "Tipo vehículo", "camion_rigido"),  # not a TOC of the service
    (93, "Hub", "Hub Valencia Norte"),  # in the hubs file, but that row did not load
    (105, "Destino", "Villaconejos"),  # a place the service does not know
    (117, "Origen", "Alcobendas"),  # a place the service does not know
]


def leg_rows(rng: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    day = dt.date(2026, 1, 5)
    shipment = 0
    while len(rows) < 130:
        day += dt.timedelta(days=rng.choice([0, 1, 1, 2]))
        shipment += 1
        movement = f"EXP-26-{shipment:05d}" if rng.random() > 0.08 else None  # ad hoc runs
        client, plate = rng.choice(CLIENTS), rng.choice(PLATES)
        here = rng.choice(ROAD)
        for stretch in range(1, (rng.choice([1, 1, 2, 3]) if movement else 1) + 1):
            there = rng.choice([city for city in ROAD if city != here])
            row: dict[str, object] = {
                "Expedición": movement, "Tramo": stretch if movement else None,
                "Fecha envío": day + dt.timedelta(days=stretch - 1), "Cliente": client,
                "Matrícula": plate, "Subcontratado": rng.choice(["no", "no", "sí"]),
            }  # fmt: skip
            if stretch == 1 and here in HUB_AT and rng.random() < 0.6:
                row["Hub"] = rng.choice(HUB_AT[here])
            if rng.random() < 0.3:  # the planner knows the route's kilometres
                row.update({"Km": rng.randint(40, 1400)})
            else:
                row.update({"Origen": here, "Destino": there})
            if rng.random() < 0.25:
                row.update({"Peso": rng.randint(2, 33), "Unidad": "palets"})
            else:
                row.update({"Peso": rng.randint(300, 24000), "Unidad": "kg"})
            if rng.random() < 0.7:
                row["Tipo vehículo"] = rng.choice(TRUCKS)
            else:
                row["Modo"] = rng.choice(["Carretera", "carretera", "Ferrocarril"])
            rows.append([row.get(header) for header in HEADER])
            here = there
    for position, header, value in MISTAKES:
        rows[position][HEADER.index(header)] = value
    _route_by_places(rows[45], "Madrid", None)
    _route_by_places(rows[105], "Madrid", "Villaconejos")
    _route_by_places(rows[117], "Alcobendas", "Zaragoza")
    rows[57][HEADER.index("Tipo vehículo")] = None
    for position in (68, 69):  # two rows with one shipment and leg
        rows[position][HEADER.index("Expedición")] = "EXP-26-09999"
        rows[position][HEADER.index("Tramo")] = 1
    rows[81][HEADER.index("Modo")] = None
    return rows


def _route_by_places(row: list[object], origin: str, destination: str | None) -> None:
    row[HEADER.index("Km")] = None
    row[HEADER.index("Origen")] = origin
    row[HEADER.index("Destino")] = destination


def write_workbook(path: Path, rng: random.Random) -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Tramos"
    sheet.append(["Planificación de transportes, primer trimestre 2026"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append(HEADER)
    for row in leg_rows(rng):
        sheet.append(row)
        sheet.cell(sheet.max_row, 3).number_format = "dd/mm/yyyy"
    workbook.save(path)


def main() -> None:
    INBOX.mkdir(parents=True, exist_ok=True)
    write_workbook(INBOX / "envios_2026_t1.xlsx", random.Random(2026))


if __name__ == "__main__":
    main()
