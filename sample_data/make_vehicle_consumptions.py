"""Write the sample fuel card export: every refuelling and charge of the fleet in January and
February 2026, as the card provider's portal exports it (csv, ``;``, decimal comma).

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_vehicle_consumptions.py``. The vehicles come from
``make_vehicles.fleet()``; the mistakes are listed in ``inbox/vehicle_consumptions/README.md``.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

from make_vehicles import MISTAKES as FLEET_MISTAKES
from make_vehicles import fleet

OUT = Path(__file__).parent / "inbox" / "vehicle_consumptions" / "tarjetas_combustible_2026.csv"
HEADERS = ["Nº operación", "Fecha", "Matrícula", "Producto", "Cantidad", "Unidad", "Importe (EUR)",
           "Estación"]  # fmt: skip
PRODUCTS = {"diesel": ("Gasóleo A", "L", 1.42), "petrol": ("Gasolina 95", "L", 1.55),
            "electricity": ("Recarga eléctrica", "kWh", 0.39)}  # fmt: skip
#: Litres (kWh for electricity) per refuelling, by vehicle kind.
FILLS = {"van": (45, 70), "truck": (250, 400), "car": (35, 50)}
STATIONS = {
    "ES": ["Repsol Getafe", "Cepsa A-2 Km 22", "Repsol Zona Franca", "Galp Paterna",
           "Repsol Dos Hermanas", "BP Alcalá", "Zunder Madrid", "Iberdrola Valencia"],
    "PT": ["Galp Loures", "Prio Lisboa"],
}  # fmt: skip
START, END = dt.date(2026, 1, 1), dt.date(2026, 2, 28)
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (20, "Cantidad", "-45,2"),
    (45, "Fecha", "31/02/2026"),
    (70, "Unidad", "galones"),
    (95, "Nº operación", None),  # filled below with the id of the row above
    (120, "Matrícula", None),  # filled below: a plate the fleet does not have
    (145, "Cantidad", "2.500.000,0"),
]


def _number(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def rows(rng: random.Random) -> list[list[object]]:
    out: list[tuple[dt.date, list[object]]] = []
    vehicles = fleet()
    #: Fleet rows that do not load; only the first (a van with an unknown fuel) has a card.
    no_card = {vehicles[index - 1].plate for index, *_ in FLEET_MISTAKES[1:]}
    for vehicle in vehicles:
        if vehicle.plate in no_card:
            continue
        product, unit, price = PRODUCTS[vehicle.fuel]
        low, high = FILLS[vehicle.kind]
        if vehicle.fuel == "electricity":
            low, high = 20, 60
        day = START + dt.timedelta(days=rng.randint(0, 6))
        while day <= END:
            quantity = rng.uniform(low, high)
            station = rng.choice(STATIONS[vehicle.country])
            cells = ["", day.strftime("%d/%m/%Y"), vehicle.plate, product, _number(quantity),
                     unit, _number(quantity * price), station]  # fmt: skip
            out.append((day, cells))
            day += dt.timedelta(days=rng.randint(6, 12) if vehicle.kind != "truck" else 4)
    out.sort(key=lambda entry: (entry[0], str(entry[1][2])))
    table = [row for _, row in out]
    for number, row in enumerate(table, start=1):
        row[0] = f"SOL-26-{number:06d}"
    electric = next(row for row in table[160:] if row[5] == "kWh")
    electric[5] = "L"  # litres on an electric vehicle's charge: the service refuses it
    for index, header, value in MISTAKES:
        row = table[index - 1]
        if header == "Nº operación":
            value = table[index - 2][0]
        if header == "Matrícula":
            value = "8790 PGS"
        row[HEADERS.index(header)] = value
    return table


def main() -> None:
    rng = random.Random(2026_0305)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(HEADERS)
        writer.writerows(rows(rng))


if __name__ == "__main__":
    main()
