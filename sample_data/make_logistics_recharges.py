"""Write the logistics recharges sample: a fleet manager's list of refuels and depot charging
sessions (xlsx, Spanish headers) with known mistakes.

Deterministic (seeded): running it again gives the same rows. Run from the project root:
``.venv/bin/python sample_data/make_logistics_recharges.py``. The mistakes are listed in
``inbox/logistics_recharges/README.md``; fuels and TOCs are the service's (by the names Spanish
statements use), except where a row is wrong on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

INBOX = Path(__file__).parent / "inbox" / "logistics_recharges"
HEADER = ["Nº operación", "Fecha", "Matrícula", "Combustible", "Cantidad", "País",
          "Tipo vehículo", "Estación", "Importe (€)"]  # fmt: skip
#: plate -> (fuel words used for it, TOC, litres or kWh per recharge)
FLEET = {
    "4821 LKM": (["Gasóleo A", "diesel"], "articulated_truck_diesel", (250, 620)),
    "1093 KZB": (["Gasóleo A", "Diésel"], "rigid_truck_26_32_t_euro6_diesel", (120, 380)),
    "2256 JTR": (["gasóleo"], "van_diesel", (35, 75)),
    "7710 MNP": (["Electricidad"], None, (40, 190)),  # electric vans charged at the depot
    "7711 MNP": (["electricidad"], None, (40, 190)),
    "9034 LHD": (["GNC"], "van_average_diesel_desnz", (12, 30)),
    "5567 KWS": (["GNL"], "articulated_truck_diesel_desnz", (180, 450)),
}
STATIONS = {"ES": ["Repsol Coslada", "Cepsa Zaragoza", "Depósito Getafe", "BP Martorell"],
            "PT": ["Galp Bobadela"], "FR": ["TotalEnergies Perpignan"]}  # fmt: skip
PRICE = {"Electricidad": 0.19, "electricidad": 0.19, "GNC": 1.35, "GNL": 1.45}
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (8, "País", "España"),
    (19, "Cantidad", 0),
    (30, "Cantidad", 2_500_000),  # kWh typed with three zeros too many
    (41, "Fecha", "30/02/2026"),
    (52, "Combustible", None),
    (63, None, None),  # set below: the country, date, quantity and plate of the row above
    (74, "Combustible", "AdBlue"),  # not a fuel: the catalogue does not know it
    (85, "Tipo vehículo", "camion"),  # not a TOC of the service
    (96, "Matrícula", None),  # set below: a workshop note pasted into the plate cell
]


def recharge_rows(rng: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    day = dt.date(2026, 1, 2)
    for number in range(1, 111):
        day += dt.timedelta(days=rng.choice([0, 0, 1, 1, 2]))
        plate = rng.choice(sorted(FLEET))
        words, toc, (low, high) = FLEET[plate]
        fuel = rng.choice(words)
        country = "ES" if rng.random() < 0.85 or fuel.lower().startswith("elec") else rng.choice(
            ["PT", "FR"]
        )
        quantity = round(rng.uniform(low, high), 2)
        rows.append([
            f"{60215000 + number * 7}", day, plate, fuel, quantity, country, toc,
            rng.choice(STATIONS[country]), round(quantity * PRICE.get(fuel, 1.49), 2),
        ])  # fmt: skip
    for position, header, value in MISTAKES:
        if header is not None:
            rows[position][HEADER.index(header)] = value
    for column in ("Fecha", "Matrícula", "Cantidad", "País"):  # the same recharge again
        rows[63][HEADER.index(column)] = rows[62][HEADER.index(column)]
    rows[96][HEADER.index("Matrícula")] = (
        "2256 JTR - tarjeta compartida con la furgoneta de sustitución mientras la 2256 JTR "
        "estaba en el taller (cambio de embrague, presupuesto 4471); repostaje autorizado por "
        "el jefe de tráfico, ver correo del 12/03; pendiente de regularizar en el cierre de mes "
        "de marzo con la gestoría"
    )
    return rows


def write_list(path: Path, rng: random.Random) -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Recargas"
    sheet.append(["Repostajes y recargas de la flota logística, primer trimestre 2026"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append(HEADER)
    for row in recharge_rows(rng):
        sheet.append(row)
        sheet.cell(sheet.max_row, 2).number_format = "dd/mm/yyyy"
    workbook.save(path)


def main() -> None:
    INBOX.mkdir(parents=True, exist_ok=True)
    write_list(INBOX / "recargas_flota_2026_t1.xlsx", random.Random(2026))


if __name__ == "__main__":
    main()
