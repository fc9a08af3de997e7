"""Write the sample facilities list: the company's sites as its facilities manager keeps them.

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_facilities.py``. The mistakes are listed in
``inbox/facilities/README.md``.
"""

from __future__ import annotations

import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

OUT = Path(__file__).parent / "inbox" / "facilities" / "centros_2026.xlsx"
HEADERS = ["Nombre", "Tipo", "País", "Dirección", "Factor logístico", "Categorías", "CUPS", "Uso"]
#: The demo's four sites (the other sample files name them), then the rest of the network.
SITES = [
    ("Madrid Warehouse", "warehouse", "ES", "Calle de la Logística 4, 28906 Getafe"),
    ("Barcelona Plant", "factory", "ES", "Carrer de la Indústria 120, 08908 L'Hospitalet"),
    ("Valencia Office", "office", "ES", "Calle de Colón 10, 46004 Valencia"),
    ("Sevilla Logistics Hub", "warehouse", "ES", "Polígono La Isla, 41703 Dos Hermanas"),
    ("Bilbao Office", "office", "ES", "Gran Vía 20, 48001 Bilbao"),
    ("Zaragoza Cross-dock", "warehouse", "ES", "Plataforma Logística PLAZA, 50197 Zaragoza"),
    ("Málaga Store", "store", "ES", "Calle Larios 5, 29005 Málaga"),
    ("Alicante Store", "store", "ES", "Avenida Maisonnave 30, 03003 Alicante"),
    ("Murcia Store", "store", "ES", "Gran Vía Escultor Salzillo 12, 30004 Murcia"),
    ("Valladolid Depot", "warehouse", "ES", "Polígono San Cristóbal, 47012 Valladolid"),
    ("A Coruña Store", "store", "ES", "Rúa Real 40, 15003 A Coruña"),
    ("Vigo Depot", "warehouse", "ES", "Polígono Balaídos, 36210 Vigo"),
    ("Palma Store", "store", "ES", "Passeig del Born 8, 07012 Palma"),
    ("Las Palmas Depot", "warehouse", "ES", "Polígono El Sebadal, 35008 Las Palmas"),
    ("Granada Store", "store", "ES", "Calle Recogidas 15, 18005 Granada"),
    ("Córdoba Store", "store", "ES", "Calle Cruz Conde 9, 14001 Córdoba"),
    ("Pamplona Office", "office", "ES", "Avenida Carlos III 3, 31002 Pamplona"),
    ("San Sebastián Store", "store", "ES", "Calle San Martín 22, 20005 Donostia"),
    ("Santander Store", "store", "ES", "Calle Burgos 6, 39008 Santander"),
    ("Oviedo Store", "store", "ES", "Calle Uría 18, 33003 Oviedo"),
    ("Tarragona Plant", "factory", "ES", "Polígono Entrevías, 43006 Tarragona"),
    ("Girona Store", "store", "ES", "Carrer Nou 14, 17001 Girona"),
    ("Lisboa Warehouse", "warehouse", "PT", "Parque Logístico da Bobadela, 2695 Lisboa"),
    ("Porto Store", "store", "PT", "Rua de Santa Catarina 100, 4000 Porto"),
    ("Toulouse Office", "office", "FR", "Rue d'Alsace-Lorraine 12, 31000 Toulouse"),
    ("Badajoz Depot", "warehouse", "ES", "Polígono El Nevero, 06006 Badajoz"),
    ("Logroño Store", "store", "ES", "Calle Portales 30, 26001 Logroño"),
    ("Burgos Store", "store", "ES", "Calle Vitoria 25, 09004 Burgos"),
]
PURPOSES = {
    "warehouse": "logística", "factory": "producción", "office": "oficinas", "store": "venta",
}  # fmt: skip
CATEGORY_CELLS = ["Electricidad", "electricidad; agua", "Electricity, Water, Heat", "electricity",
                  "electricidad, recarga", ""]  # fmt: skip
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (6, "País", "España"),
    (11, "Factor logístico", "1,2"),
    (15, "Categorías", "electricidad, gas"),
    (19, "CUPS", "ES0021000000"),
    (23, "Tipo", None),
    (28, "Nombre", "málaga store"),  # the name of data row 7, written again
]


def cups(rng: random.Random) -> str:
    digits = "".join(rng.choice("0123456789") for _ in range(12))
    letters = "".join(rng.choice("ABCDEFGHJKLMNPQRSTVWXYZ") for _ in range(2))
    return f"ES0021{digits[:4]} {digits[4:8]} {digits[8:]}{letters}"


def rows(rng: random.Random) -> list[list[object]]:
    out: list[list[object]] = []
    for name, kind, country, address in SITES:
        factor = rng.choice([0.8, 0.8, 0.8, 0.75, 0.9, None])
        electric = kind != "warehouse" or rng.random() < 0.5
        supply = cups(rng) if country == "ES" and electric else None
        if supply and rng.random() < 0.2:
            supply += "; " + cups(rng)
        written_kind = kind.capitalize() if rng.random() < 0.3 else kind
        categories = rng.choice(CATEGORY_CELLS) or None
        out.append([name, written_kind, country, address, factor, categories, supply,
                    PURPOSES[kind]])  # fmt: skip
    out.append(["Cádiz Store", "store", "ES", "Calle Ancha 3, 11001 Cádiz", 0.8, "electricity",
                None, "venta"])  # fmt: skip
    for index, header, value in MISTAKES:
        out[index - 1][HEADERS.index(header)] = value
    return out


def main() -> None:
    rng = random.Random(2026_0301)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Centros"
    sheet.append(["Centros de la organización, 2026"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append(HEADERS)
    for cell in sheet[3]:
        cell.font = Font(bold=True)
    for row in rows(rng):
        sheet.append(row)
    for column, width in zip("ABCDEFGH", (26, 12, 8, 46, 16, 28, 48, 14), strict=True):
        sheet.column_dimensions[column].width = width
    OUT.parent.mkdir(parents=True, exist_ok=True)
    book.save(OUT)


if __name__ == "__main__":
    main()
