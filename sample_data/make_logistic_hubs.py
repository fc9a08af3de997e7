"""Write the sample logistic hubs list: the company's own hubs and its partners' (3PL, ports).

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_logistic_hubs.py``. The mistakes are listed in
``inbox/logistic_hubs/README.md``.
"""

# ruff: noqa: E501  (one line per hub)
from __future__ import annotations

import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

OUT = Path(__file__).parent / "inbox" / "logistic_hubs" / "hubs_2026.xlsx"
HEADERS = ["Hub", "Tipo", "Categoría", "Dirección", "País", "Cargador rápido", "Centro"]
#: (name, owned?, category, address, country); owned hubs sit at the demo's facilities.
HUBS = [
    ("Hub Madrid Sur", "Madrid Warehouse", "warehouse_ambient", "Calle de la Logística 4, Getafe", "ES"),
    ("Hub Barcelona Zona Franca", "Barcelona Plant", "warehouse_mixed", "Carrer 60, Zona Franca, Barcelona", "ES"),
    ("Hub Valencia Norte", "Valencia Office", "transshipment_ambient", "Polígono Fuente del Jarro, Paterna", "ES"),
    ("Hub Sevilla", "Sevilla Logistics Hub", "storage_transhipment_ambient", "Polígono La Isla, Dos Hermanas", "ES"),
    ("DHL Zaragoza PLAZA", None, "transshipment_mixed", "Plataforma Logística PLAZA, Zaragoza", "ES"),
    ("SEUR Coslada", None, "transshipment_ambient", "Centro de Transportes de Coslada, Madrid", "ES"),
    ("XPO Alcalá de Henares", None, "warehouse_ambient", "Polígono Azque, Alcalá de Henares", "ES"),
    ("GEFCO Vigo", None, "storage_transhipment_mixed", "Polígono Balaídos, Vigo", "ES"),
    ("Puerto de Valencia (MSC)", None, "maritime_container_terminals_ambient", "Muelle Príncipe Felipe, Valencia", "ES"),
    ("Puerto de Algeciras (Maersk)", None, "maritime_container_terminals_ambient", "Muelle Juan Carlos I, Algeciras", "ES"),
    ("Puerto de Barcelona (APM)", None, "maritime_container_terminals_temperature_controlled", "Moll Prat, Barcelona", "ES"),
    ("Barajas Cargo (Swissport)", None, "transshipment_mixed", "Centro de Carga Aérea, Madrid", "ES"),
    ("Transportes Buitrago Burgos", None, "transshipment_ambient", "Polígono Villalonquéjar, Burgos", "ES"),
    ("Carreras Pamplona", None, "warehouse_ambient", "Polígono Landaben, Pamplona", "ES"),
    ("Logista Getafe", None, "warehouse_ambient", "Polígono Los Olivos, Getafe", "ES"),
    ("ID Logistics Illescas", None, "warehouse_mixed", "Plataforma Central Iberum, Illescas", "ES"),
    ("Rhenus Lisboa", None, "warehouse_ambient", "Parque Logístico da Bobadela, Lisboa", "PT"),
    ("Geodis Toulouse", None, "storage_transhipment_ambient", "Eurocentre, Villeneuve-lès-Bouloc", "FR"),
    ("CEVA Guadalajara", None, "warehouse_ambient", "Polígono El Henares, Guadalajara", "ES"),
    ("Kuehne+Nagel Sant Boi", None, "warehouse_mixed", "Polígono Les Salines, Sant Boi", "ES"),
    ("DB Schenker Bilbao", None, "transshipment_ambient", "ZAISA, Irún", "ES"),
    ("Primafrio Murcia", None, "warehouse_mixed", "Polígono Oeste, Alhama de Murcia", "ES"),
    ("Correos Express Sevilla", None, "transshipment_ambient", "Polígono Store, Sevilla", "ES"),
    ("Bilbao Port (Noatum)", None, "liquid_bulk_terminals_ambient", "Muelle AZ1, Santurtzi", "ES"),
]  # fmt: skip
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (3, "Centro", "Valencia Ofice"),  # a typo of a facility name
    (7, "Categoría", "frigorífico"),
    (10, "Centro", "Valencia Office"),  # a facility on a subcontracted hub
    (13, "Cargador rápido", "a veces"),
    (16, "Tipo", "propio"),  # an owned hub without its facility
    (22, "Hub", "seur coslada"),  # the name of data row 6 again
]


def rows(rng: random.Random) -> list[list[object]]:
    out: list[list[object]] = []
    for name, facility, category, address, country in HUBS:
        kind = "Propio" if facility and rng.random() < 0.5 else "owned" if facility else (
            rng.choice(["subcontracted", "Subcontratado", "3PL"])
        )
        charger = rng.choice(["sí", "no", "no", None]) if facility else rng.choice(["no", None])
        out.append([name, kind, category, address, country if rng.random() < 0.8 else None,
                    charger, facility])  # fmt: skip
    for index, header, value in MISTAKES:
        out[index - 1][HEADERS.index(header)] = value
    return out


def main() -> None:
    rng = random.Random(2026_0302)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Hubs"
    sheet.append(HEADERS)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows(rng):
        sheet.append(row)
    for column, width in zip("ABCDEFG", (30, 16, 44, 44, 8, 16, 24), strict=True):
        sheet.column_dimensions[column].width = width
    OUT.parent.mkdir(parents=True, exist_ok=True)
    book.save(OUT)


if __name__ == "__main__":
    main()
